/**
 * `wp/v2/categories` and `wp/v2/tags` of the WordPress-compatible API: listed (`search`, `slug`, paging) and
 * read by anyone, created by editors and admins, with integer ids. Tools look a term up by name, create it when
 * it is missing, then send its id with the post.
 *
 * - A category a tool creates is mapped as a delivery's category name is (category-match.ts: case, spacing,
 *   punctuation and a small typo set aside): a name that means an existing category answers WordPress's
 *   `term_exists` with that category's id, which tools then use. A really new one is created waiting for an
 *   editor's review, like a delivery's new category: visitors do not see it until an editor approves it.
 *   Visitors' lists leave categories under review out.
 * - Tags are case-insensitive per organization (the tag registry, blog_tags): an existing name answers
 *   `term_exists` with its id.
 * - A new term is made by the database (`create_arrived_term`), as the API's posts are: the application password
 *   is checked again, and the audit log names its member and the password.
 */
import { categoryPath, tagPath, tagSlug } from '../blog-urls.ts';
import { matchCategory } from './category-match.ts';
import { categorySlug, slugify } from '../slug.ts';
import { POST_LIMITS } from '../../schemas/post.ts';
import { WpPagingSchema, wpTermInputSchema } from '../../schemas/wordpress.ts';
import {
  collection,
  forbidden,
  type Handler,
  invalidFromZod,
  mayWrite,
  queryObject,
  readBody,
  type WordPressRequest,
  wpError,
  wpJson,
  wpLink,
} from './wordpress-rest.ts';

type Taxonomy = 'category' | 'post_tag';
type Term = { wp_id: number; name: string; slug: string; count: number; needsReview: boolean };

/** Every term of the organization, with its post count (published posts, as WordPress counts), in one query. */
async function terms(call: WordPressRequest, taxonomy: Taxonomy): Promise<Term[]> {
  const { service, organizationId } = call.context;
  if (taxonomy === 'category') {
    const { data, error } = await service
      .from('blog_category_counts')
      .select('wp_id, name, slug, needs_review, published_count')
      .eq('organization_id', organizationId)
      .order('name');
    if (error) throw new Error(`reading categories failed: ${error.message}`);
    return (data as { wp_id: number; name: string; slug: string; needs_review: boolean; published_count: number }[]).map((row) => ({
      wp_id: row.wp_id,
      name: row.name,
      slug: row.slug,
      count: row.published_count,
      needsReview: row.needs_review,
    }));
  }
  const { data, error } = await service.from('blog_tag_counts').select('wp_id, name, published_count').eq('organization_id', organizationId).order('name');
  if (error) throw new Error(`reading tags failed: ${error.message}`);
  return (data as { wp_id: number; name: string; published_count: number }[]).map((row) => ({
    wp_id: row.wp_id,
    name: row.name,
    slug: tagSlug(row.name),
    count: row.published_count,
    needsReview: false,
  }));
}

/** The terms a caller may see: visitors (and viewers) not the categories waiting for review. */
async function visibleTerms(call: WordPressRequest, taxonomy: Taxonomy): Promise<Term[]> {
  const all = await terms(call, taxonomy);
  return mayWrite(call) ? all : all.filter((term) => !term.needsReview);
}

/** The terms the caller may see in WordPress's shape, by id, for the posts a request embeds them in (`_embed`). */
export async function embeddableTerms(call: WordPressRequest): Promise<Record<Taxonomy, Map<number, ReturnType<typeof wpTerm>>>> {
  const byId = async (taxonomy: Taxonomy) => new Map((await visibleTerms(call, taxonomy)).map((term) => [term.wp_id, wpTerm(call, taxonomy, term)]));
  return { category: await byId('category'), post_tag: await byId('post_tag') };
}

function wpTerm(call: WordPressRequest, taxonomy: Taxonomy, term: Term) {
  const base = taxonomy === 'category' ? 'categories' : 'tags';
  const path = taxonomy === 'category' ? categoryPath(term.slug) : tagPath(term.name);
  return {
    id: term.wp_id,
    count: term.count,
    description: '',
    link: `${call.context.siteAddress}${path}`,
    name: term.name,
    slug: term.slug,
    taxonomy,
    ...(taxonomy === 'category' ? { parent: 0 } : {}),
    meta: [],
    _links: {
      self: [{ href: wpLink(call.context.siteAddress, `${base}/${term.wp_id}`) }],
      collection: [{ href: wpLink(call.context.siteAddress, base) }],
    },
  };
}

/** The routes of one taxonomy: the collection (list, create) and one term (read). */
function taxonomyRoutes(taxonomy: Taxonomy): { collection: Record<string, Handler>; byId: Record<string, Handler> } {
  const invalidId = () => wpError(404, 'rest_term_invalid', 'Term does not exist.');
  const TermInputSchema = wpTermInputSchema(taxonomy === 'category' ? POST_LIMITS.categoryName : POST_LIMITS.tagName);

  async function list(call: WordPressRequest): Promise<Response> {
    const paging = WpPagingSchema.safeParse(queryObject(call.url));
    if (!paging.success) return invalidFromZod(paging.error);
    const { page, per_page: perPage, search, slug } = paging.data;
    const slugs = slug?.split(',').map((each) => each.trim().toLowerCase());
    const needle = search?.toLowerCase();
    const matching = (await visibleTerms(call, taxonomy)).filter(
      (term) => (!slugs || slugs.includes(term.slug)) && (!needle || term.name.toLowerCase().includes(needle) || term.slug.includes(needle)),
    );
    const items = matching.slice((page - 1) * perPage, page * perPage).map((term) => wpTerm(call, taxonomy, term));
    return collection(items, matching.length, page, perPage, call.url);
  }

  async function read(call: WordPressRequest): Promise<Response> {
    const term = (await visibleTerms(call, taxonomy)).find((each) => each.wp_id === call.id);
    return term ? wpJson(wpTerm(call, taxonomy, term)) : invalidId();
  }

  async function create(call: WordPressRequest): Promise<Response> {
    if (!mayWrite(call)) return forbidden(call, 'rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.');
    const body = await readBody(call.request, call.url);
    if (body instanceof Response) return body;
    const parsed = TermInputSchema.safeParse(body);
    if (!parsed.success) return invalidFromZod(parsed.error);
    const { name } = parsed.data;
    const existing = await terms(call, taxonomy);
    const same =
      taxonomy === 'category'
        ? (matchCategory(name, existing.map((term) => ({ ...term, id: String(term.wp_id) })))?.category ?? null)
        : (existing.find((term) => term.name.toLowerCase() === name.toLowerCase()) ?? null);
    if (same) {
      return wpError(400, 'term_exists', 'A term with the name provided already exists in this taxonomy.', {}, { term_id: same.wp_id });
    }
    const { service, organizationId } = call.context;
    // Through the arrival path's database function: the password checked again, the audit entry its member's.
    const inserted = await service.rpc('create_arrived_term', {
      p_organization_id: organizationId,
      p_application_password_id: call.publisher.passwordId,
      p_taxonomy: taxonomy,
      p_name: name,
      p_slug: taxonomy === 'category' ? categorySlug(name, parsed.data.slug) : null,
    });
    if (inserted.error?.code === '42501') return forbidden(call, 'rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.');
    if (inserted.error?.code === '23505') {
      // Made meanwhile (another request of the same run), or a slug taken: the existing term's id.
      const raced = (await terms(call, taxonomy)).find((term) => term.name.toLowerCase() === name.toLowerCase() || term.slug === (taxonomy === 'category' ? categorySlug(name, parsed.data.slug) : slugify(parsed.data.slug || name)));
      if (raced) return wpError(400, 'term_exists', 'A term with the name provided already exists in this taxonomy.', {}, { term_id: raced.wp_id });
    }
    if (inserted.error) throw new Error(`creating the ${taxonomy} failed: ${inserted.error.message}`);
    const row = inserted.data as { wp_id: number; name: string; slug?: string };
    const term: Term = { wp_id: row.wp_id, name: row.name, slug: row.slug ?? tagSlug(row.name), count: 0, needsReview: taxonomy === 'category' };
    const answer = wpTerm(call, taxonomy, term);
    return wpJson(answer, { status: 201, headers: { location: answer._links.self[0]!.href } });
  }

  return { collection: { GET: list, POST: create }, byId: { GET: read } };
}

export const categoryRoutes = taxonomyRoutes('category');
export const tagRoutes = taxonomyRoutes('post_tag');
