/**
 * `wp/v2/posts` of the WordPress-compatible API: the WordPress side of the one arrival path (post-arrival.ts).
 * A create or an update is translated into an ArrivingPost (terms and media by their integer ids, the SEO
 * fields from Yoast's or Rank Math's `meta`, WordPress's statuses) and takes the same steps as a webhook
 * delivery; the stored post is answered in WordPress's shape.
 *
 * - Visitors list and read what the site shows: their reads go through the anon key, so the database's row-level
 *   security decides (published, and the publication time come). Signed-in editors and admins read every status,
 *   with `context=edit`'s raw fields. Viewers (WordPress's subscribers) read as visitors and may not write.
 * - Everyone's input is bounded as the database bounds it (POST_LIMITS): a field it would refuse is WordPress's 400
 *   naming it, with nothing written; slugs and names reach PostgREST quoted (inList), never as its syntax.
 * - Create: `title` and `content` are required; the status defaults to `draft`, as WordPress's does;
 *   `publish` follows the organization's choice for arrivals (published, a draft for review, or the queue's next
 *   slot, answered as `future` with its date), and a past `date` with it dates the post then where it is published
 *   at once (a backdated import; a published post may be given another past date); a draft keeps a `date` too,
 *   for when a tool publishes it; `future` needs a date ahead; `pending` is kept as a draft. A slug
 *   another post has gets `-2` (WordPress's rule), so a second create never overwrites.
 * - Update (POST, PUT or PATCH on `/posts/{id}`): only the fields sent change. `status: trash` moves the post to
 *   the trash (the other fields sent with it are not applied); another status sent for a post in the trash
 *   takes it out first.
 * - Delete without `force` moves the post to the trash, as WordPress does: a draft nobody sees, answered with
 *   status `trash`, restorable from blog management; again is WordPress's 410. `force=true` deletes it. Who
 *   may trash, restore or delete whose post is the back office's rule for deleting, decided by the database
 *   (private.may_delete_post): an admin any post, an editor their own.
 * - `sticky` is kept (the blog's first page shows sticky posts first) and filters a list.
 */
import { likeLiteral } from '../ilike-pattern.ts';
import { postPath } from '../blog-urls.ts';
import { postSlug } from '../slug.ts';
import { SLUG_PATTERN } from '../../schemas/common.ts';
import { SEO_META_KEYS, WpPostInputSchema, WpPostListSchema, type WpPostInput, type WpPostListQuery } from '../../schemas/wordpress.ts';
import { ArrivalFailed, arrivalFields, type ArrivingPost, DeliveryProblem, storeArrival } from './post-arrival.ts';
import { embeddableMedia } from './wordpress-media.ts';
import { embeddableTerms } from './wordpress-terms.ts';
import { embeddableAuthors } from './wordpress-users.ts';
import { sendAfterChange, type RequestedRebuild, buildAtOnce, quietWindowMs } from './rebuilds.ts';
import {
  arrayLiteral,
  collection,
  escapeHtml,
  forbidden,
  type Handler,
  inList,
  invalidFromZod,
  invalidParams,
  mayWrite,
  queryObject,
  readBody,
  readPage,
  reader,
  type WordPressRequest,
  wpDate,
  wpInstant,
  wpLocalDate,
  wpError,
  wpJson,
  wpLink,
} from './wordpress-rest.ts';

/** The columns a post is answered from (with its category's, tags' and media's integer ids). */
const POST_COLUMNS =
  'id, wp_id, slug, title, content, content_source, content_format, excerpt, status, published_at, created_at, updated_at, tags, trashed_at, sticky, ' +
  'meta_title, meta_description, featured_media_id, category:blog_categories(wp_id, name), media:media(wp_id), author:profiles(wp_id)';

type PostRow = {
  id: string;
  wp_id: number;
  slug: string;
  title: string;
  content: string;
  content_source: string;
  content_format: 'markdown' | 'html';
  excerpt: string | null;
  status: 'draft' | 'published' | 'scheduled';
  published_at: string | null;
  created_at: string;
  updated_at: string;
  tags: string[] | null;
  trashed_at: string | null;
  sticky: boolean;
  meta_title: string | null;
  meta_description: string | null;
  featured_media_id: string | null;
  category: { wp_id: number; name: string } | null;
  media: { wp_id: number } | null;
  author: { wp_id: number } | null;
};

/** Our statuses in WordPress's words. */
const WP_STATUS = { published: 'publish', scheduled: 'future', draft: 'draft' } as const;

/**
 * The statuses a `status` filter may name, as PostgREST conditions on ours (`pending` is kept as a draft; `any`
 * is every status but the trash, as in WordPress).
 */
const STATUS_FILTER: Record<string, string> = {
  publish: 'status.eq.published',
  future: 'status.eq.scheduled',
  draft: 'and(status.eq.draft,trashed_at.is.null)',
  pending: 'and(status.eq.draft,trashed_at.is.null)',
  any: 'trashed_at.is.null',
  trash: 'trashed_at.not.is.null',
};


export const postRoutes: Record<string, Handler> = { GET: listPosts, POST: createPost };
export const postRoutesById: Record<string, Handler> = { GET: getPost, POST: updatePost, PUT: updatePost, PATCH: updatePost, DELETE: deletePost };

/** The column each `orderby` sorts by (`include` and `relevance` are ordered apart). */
const ORDER_COLUMN: Record<Exclude<WpPostListQuery['orderby'], 'include' | 'relevance'>, string> = {
  author: 'author_id',
  date: 'published_at',
  id: 'wp_id',
  modified: 'updated_at',
  slug: 'slug',
  title: 'title',
};

/** The ids a row may have: an id past the safe integers is no row's (ids are identities counting from 1). */
const rowIds = (wpIds: number[]) => wpIds.filter((id) => Number.isSafeInteger(id));

/** The uuids of the organization's rows (`blog_categories`, `profiles` through members) behind WordPress ids. */
async function idsOf(call: WordPressRequest, table: 'blog_categories' | 'profiles', wpIds: number[]): Promise<string[]> {
  if (rowIds(wpIds).length === 0) return [];
  let select = call.context.service.from(table).select('id').in('wp_id', rowIds(wpIds));
  if (table === 'blog_categories') select = select.eq('organization_id', call.context.organizationId);
  const { data, error } = await select;
  if (error) throw new Error(`reading ${table} by id failed: ${error.message}`);
  return (data as { id: string }[]).map((row) => row.id);
}

/** The names of the organization's tags behind WordPress ids (posts keep their tags by name). */
async function tagNames(call: WordPressRequest, wpIds: number[]): Promise<string[]> {
  if (rowIds(wpIds).length === 0) return [];
  const { data, error } = await call.context.service.from('blog_tags').select('name').eq('organization_id', call.context.organizationId).in('wp_id', rowIds(wpIds));
  if (error) throw new Error(`reading tags by id failed: ${error.message}`);
  return (data as { name: string }[]).map((row) => row.name);
}

/**
 * `GET /posts`: a page of posts, newest first unless `orderby`/`order` say otherwise, filtered as WordPress
 * filters them (`search` in titles, `slug`, `status`, `categories`, `tags`, `author` and their `_exclude`,
 * `include`, `exclude`, `after`, `before`, `modified_after`, `modified_before`, `sticky`). An id that names nothing of the
 * organization matches nothing.
 */
async function listPosts(call: WordPressRequest): Promise<Response> {
  const raw = queryObject(call.url);
  const parsed = WpPostListSchema.safeParse(raw);
  if (!parsed.success) return invalidFromZod(parsed.error);
  const query = parsed.data;
  const { page, per_page: perPage, search, slug } = query;
  const statuses = String(raw.status ?? 'publish').split(',').map((status) => status.trim());
  if (statuses.some((status) => !Object.hasOwn(STATUS_FILTER, status))) return invalidParams({ status: `status is not one of ${Object.keys(STATUS_FILTER).join(', ')}.` });
  if (statuses.some((status) => status !== 'publish') && !mayWrite(call)) {
    return wpError(call.publisher ? 403 : 401, 'rest_invalid_param', 'Invalid parameter(s): status', {}, { params: { status: 'Status is forbidden.' } });
  }
  const none = () => collection([], 0, page, perPage, call.url);
  let select = reader(call)
    .from('blog_posts')
    .select(POST_COLUMNS, { count: 'exact' })
    .eq('organization_id', call.context.organizationId)
    .or(statuses.map((status) => STATUS_FILTER[status]!).join(','));
  if (query.sticky !== undefined) select = select.eq('sticky', query.sticky);
  if (search) select = select.ilike('title', `%${likeLiteral(search)}%`);
  if (slug !== undefined) {
    // WordPress matches slugs as it writes them (lower case); one no post could have matches nothing.
    const slugs = slug.split(',').map((each) => each.trim().toLowerCase()).filter((each) => SLUG_PATTERN.test(each));
    if (slugs.length === 0) return none();
    select = select.filter('slug', 'in', inList(slugs));
  }
  // Categories and authors by their uuid columns (a post without one is in none: `_exclude` keeps it); tags by
  // name, as posts keep them.
  for (const [column, table, only, not] of [
    ['category_id', 'blog_categories', query.categories, query.categories_exclude],
    ['author_id', 'profiles', query.author, query.author_exclude],
  ] as const) {
    if (only) {
      const ids = await idsOf(call, table, only);
      if (ids.length === 0) return none();
      select = select.in(column, ids);
    }
    const excluded = not ? await idsOf(call, table, not) : [];
    if (excluded.length) select = select.or(`${column}.is.null,${column}.not.in.(${excluded.join(',')})`);
  }
  if (query.tags) {
    const names = await tagNames(call, query.tags);
    if (names.length === 0) return none();
    select = select.filter('tags', 'ov', arrayLiteral(names));
  }
  const excludedTags = query.tags_exclude ? await tagNames(call, query.tags_exclude) : [];
  if (excludedTags.length) select = select.not('tags', 'ov', arrayLiteral(excludedTags));
  if (query.include) {
    if (rowIds(query.include).length === 0) return none();
    select = select.in('wp_id', rowIds(query.include));
  }
  if (query.exclude && rowIds(query.exclude).length) select = select.not('wp_id', 'in', `(${rowIds(query.exclude).join(',')})`);
  // Wall times in the site's zone, as WordPress reads them.
  const { timeZone } = call.context;
  if (query.after) select = select.gt('published_at', wpInstant(query.after, timeZone));
  if (query.before) select = select.lt('published_at', wpInstant(query.before, timeZone));
  if (query.modified_after) select = select.gt('updated_at', wpInstant(query.modified_after, timeZone));
  if (query.modified_before) select = select.lt('updated_at', wpInstant(query.modified_before, timeZone));
  const ascending = query.order === 'asc';
  if (query.orderby === 'include') {
    // At most 100 posts: all of them read, put in the order `include` names them (whatever `order` says, as in
    // WordPress), then the page cut.
    const read = await readPage<PostRow>(select.range(0, 99), 1, 100, 'posts');
    if (read instanceof Response) return read;
    const rank = (row: PostRow) => query.include!.indexOf(row.wp_id);
    const rows = read.rows.sort((a, b) => rank(a) - rank(b)).slice((page - 1) * perPage, page * perPage);
    return collection(await wpPosts(call, rows), read.total, page, perPage, call.url);
  }
  // Relevance is the title's match (the search looks through titles only): ordered by date among the matches.
  const column = ORDER_COLUMN[query.orderby === 'relevance' ? 'date' : query.orderby];
  select = select.order(column, { ascending, nullsFirst: column === 'published_at' && !ascending });
  if (column !== 'wp_id') select = select.order('wp_id', { ascending });
  const read = await readPage<PostRow>(select.range((page - 1) * perPage, page * perPage - 1), page, perPage, 'posts');
  if (read instanceof Response) return read;
  return collection(await wpPosts(call, read.rows), read.total, page, perPage, call.url);
}

/** What `_embed` may name; an empty `_embed` (or `1`, `true`) embeds them all, as in WordPress. */
const EMBEDDABLE = ['author', 'wp:featuredmedia', 'wp:term'] as const;

/** The embeds the request asks for (`_embed`, `_embed=author,wp:term`), none without the parameter. */
function embedsAsked(url: URL): Set<(typeof EMBEDDABLE)[number]> {
  const asked = url.searchParams.get('_embed');
  if (asked === null) return new Set();
  const names = asked.split(',').map((name) => name.trim()).filter((name) => name && name !== '1' && name !== 'true');
  return new Set(EMBEDDABLE.filter((name) => names.length === 0 || names.includes(name)));
}

/**
 * Posts in WordPress's shape, their tags' ids read once for all of them; with `_embed`, each with `_embedded`:
 * its author (the name the site shows), its featured image as the caller may read it, and its category and tags.
 */
async function wpPosts(call: WordPressRequest, rows: PostRow[]) {
  const tagIds = await tagIdsByName(call, rows.flatMap((row) => row.tags ?? []));
  const posts = rows.map((row) => wpPost(call, row, tagIds));
  const embeds = embedsAsked(call.url);
  if (embeds.size === 0) return posts;
  const authors = embeds.has('author') ? await embeddableAuthors(call, posts.map((post) => post.author)) : null;
  const media = embeds.has('wp:featuredmedia') ? await embeddableMedia(call, posts.map((post) => post.featured_media)) : null;
  const terms = embeds.has('wp:term') ? await embeddableTerms(call) : null;
  const present = <T>(items: (T | undefined)[]) => items.filter((item): item is T => item !== undefined);
  return posts.map((post) => ({
    ...post,
    _embedded: {
      ...(authors ? { author: present([authors.get(post.author)]) } : {}),
      ...(media && media.has(post.featured_media) ? { 'wp:featuredmedia': [media.get(post.featured_media)] } : {}),
      ...(terms ? { 'wp:term': [present(post.categories.map((id) => terms.category.get(id))), present(post.tags.map((id) => terms.post_tag.get(id)))] } : {}),
    },
  }));
}

/** `GET /posts/{id}`: a post the site shows for anyone, any other to its organization's editors and admins. */
async function getPost(call: WordPressRequest): Promise<Response> {
  const row = await readPost(call);
  if (!row) return invalidPostId();
  return wpJson((await wpPosts(call, [row]))[0]);
}

/** `POST /posts`: a new post through the arrival path; 201 with the post and its Location. */
async function createPost(call: WordPressRequest): Promise<Response> {
  if (!mayWrite(call)) return forbidden(call, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
  const input = await postInput(call);
  if (input instanceof Response) return input;
  const missing = Object.fromEntries(
    (['title', 'content'] as const).filter((field) => !input[field]?.trim()).map((field) => [field, `${field} is required.`]),
  );
  if (input.status === 'trash') missing.status = 'A new post cannot be created in the trash.';
  if (Object.keys(missing).length) return invalidParams(missing);
  const arriving = await arrivingPost(call, input, null);
  if (arriving instanceof Response) return arriving;
  const stored = await store(call, { ...arriving, target: { newPost: true } });
  if (stored instanceof Response) return stored;
  const row = (await readPost(call, stored))!;
  const answer = wpPost(call, row, await tagIdsByName(call, row.tags ?? []));
  return wpJson(answer, { status: 201, headers: { location: answer._links.self[0]!.href } });
}

/** `POST|PUT|PATCH /posts/{id}`: the fields sent change, the others stay. */
async function updatePost(call: WordPressRequest): Promise<Response> {
  if (!mayWrite(call)) return forbidden(call, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
  const existing = await readPost(call);
  if (!existing) return invalidPostId();
  const input = await postInput(call);
  if (input instanceof Response) return input;
  if (input.status === 'trash') return trashPost(call, existing);
  // Another status for a post in the trash takes it out first (as a draft; the status sent then applies).
  if (existing.trashed_at && input.status) {
    const restored = await moveToTrash(call, existing, false);
    if (restored) return restored;
  }
  const arriving = await arrivingPost(call, input, existing);
  if (arriving instanceof Response) return arriving;
  const stored = await store(call, { ...arriving, target: { postId: existing.id } });
  if (stored instanceof Response) return stored;
  const row = (await readPost(call, stored))!;
  return wpJson((await wpPosts(call, [row]))[0]);
}

/**
 * `DELETE /posts/{id}`: without `force`, the post moves to the trash and is answered with status `trash`; with
 * `force=true`, it is gone (audited as the password's member). Either way the site is rebuilt when the post was
 * on it.
 */
async function deletePost(call: WordPressRequest): Promise<Response> {
  if (!mayWrite(call)) return forbidden(call, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
  const existing = await readPost(call);
  if (!existing) return invalidPostId();
  const force = (call.url.searchParams.get('force') ?? '').toLowerCase();
  if (force !== 'true' && force !== '1') return trashPost(call, existing);
  const previous = wpPost(call, existing, await tagIdsByName(call, existing.tags ?? []));
  const { data, error } = await call.context.service.rpc('delete_arrived_post', {
    p_organization_id: call.context.organizationId,
    p_post_id: existing.id,
    p_application_password_id: call.publisher!.passwordId,
    p_quiet_window_ms: quietWindowMs(process.env),
    p_at_once: buildAtOnce(process.env),
  });
  if (error?.code === '42501') return forbidden(call, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
  if (error) throw new Error(`delete_arrived_post failed: ${error.message}`);
  await sendAfterChange(call.context.service, data as RequestedRebuild, 'wordpress-api delete');
  return wpJson({ deleted: true, previous });
}

const invalidPostId = () => wpError(404, 'rest_post_invalid_id', 'Invalid post ID.');

/** Moves the post to the trash and answers it (status `trash`); one already there is WordPress's 410. */
async function trashPost(call: WordPressRequest, existing: PostRow): Promise<Response> {
  if (existing.trashed_at) return wpError(410, 'rest_already_trashed', 'The post has already been deleted.');
  const refused = await moveToTrash(call, existing, true);
  if (refused) return refused;
  return wpJson((await wpPosts(call, [(await readPost(call, existing.id))!]))[0]);
}

/**
 * Moves the post into the trash or out of it as the password's member (trash_arrived_post), sending the rebuild
 * a post leaving the site needs; answers WordPress's error when the database refuses, else null.
 */
async function moveToTrash(call: WordPressRequest, existing: PostRow, trash: boolean): Promise<Response | null> {
  const { data, error } = await call.context.service.rpc('trash_arrived_post', {
    p_organization_id: call.context.organizationId,
    p_post_id: existing.id,
    p_application_password_id: call.publisher!.passwordId,
    p_trash: trash,
    p_quiet_window_ms: quietWindowMs(process.env),
    p_at_once: buildAtOnce(process.env),
  });
  if (error?.code === '42501') return forbidden(call, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
  if (error?.code === 'P0002') return invalidPostId();
  if (error?.code === '55000') return trash ? wpError(410, 'rest_already_trashed', 'The post has already been deleted.') : null;
  if (error) throw new Error(`trash_arrived_post failed: ${error.message}`);
  await sendAfterChange(call.context.service, data as RequestedRebuild, trash ? 'wordpress-api trash' : 'wordpress-api restore');
  return null;
}

/** The post of the route's id (or of `id` given) in this organization, as the caller may read it (reader), or null. */
async function readPost(call: WordPressRequest, id?: string): Promise<PostRow | null> {
  const select = reader(call).from('blog_posts').select(POST_COLUMNS).eq('organization_id', call.context.organizationId);
  const { data, error } = await (id ? select.eq('id', id) : select.eq('wp_id', call.id!)).maybeSingle();
  if (error) throw new Error(`reading post ${id ?? call.id} failed: ${error.message}`);
  return data as unknown as PostRow | null;
}

/** The request's post fields, or WordPress's 400 naming the fields it refuses (malformed JSON included). */
async function postInput(call: WordPressRequest): Promise<WpPostInput | Response> {
  const body = await readBody(call.request, call.url);
  if (body instanceof Response) return body;
  const parsed = WpPostInputSchema.safeParse(body);
  return parsed.success ? parsed.data : invalidFromZod(parsed.error);
}

/**
 * The request as an arriving post: only the fields it sends (an update leaves the others to the database, which
 * keeps the post's as they are when it writes: an editor's save made meanwhile stays), the terms and media of
 * its ids (400 naming the field for an id this organization does not have), the status and its time. `existing`:
 * the post an update changes, null for a new post.
 */
async function arrivingPost(call: WordPressRequest, input: WpPostInput, existing: PostRow | null): Promise<ArrivingPost | Response> {
  const { service, organizationId } = call.context;
  const problems: Record<string, string> = {};

  // The site files a post in one category: the first one named.
  const category = input.categories
    ? ((await termNames(call, 'blog_categories', input.categories, problems, 'categories', 'category'))[0] ?? null)
    : undefined;
  const tags = input.tags ? await termNames(call, 'blog_tags', input.tags, problems, 'tags', 'tag') : undefined;

  let featuredMediaId: string | null | undefined;
  if (input.featured_media !== undefined) {
    featuredMediaId = null;
    if (input.featured_media > 0) {
      const { data, error } = await service.from('media').select('id').eq('organization_id', organizationId).eq('wp_id', input.featured_media).maybeSingle();
      if (error) throw new Error(`reading media failed: ${error.message}`);
      if (!data) return wpError(400, 'rest_invalid_featured_media', 'Invalid featured media ID.', {}, { params: { featured_media: `featured_media ${input.featured_media} is not a file of this site's media.` } });
      featuredMediaId = (data as { id: string }).id;
    }
  }

  // WordPress: a publish with a date ahead is scheduled; a future without one, or with one past, is refused.
  // `date` is a wall time in the site's zone, `date_gmt` one in UTC (either may name its own zone instead).
  const date = input.date_gmt ? wpInstant(input.date_gmt, 'UTC') : input.date ? wpInstant(input.date, call.context.timeZone) : undefined;
  // `trash` is answered before an arrival is made (trashPost).
  let status: ArrivingPost['status'] = input.status === 'pending' ? 'draft' : input.status === 'trash' ? undefined : input.status;
  if (!existing && status === undefined) status = 'draft';
  if (status === 'publish' && date && Date.parse(date) > Date.now()) status = 'future';
  if (status === 'future' && !(date && Date.parse(date) > Date.now())) {
    problems[input.date_gmt ? 'date_gmt' : 'date'] = 'A scheduled (future) post needs a date ahead of now.';
  }
  if (Object.keys(problems).length) return invalidParams(problems);

  const meta = input.meta ?? {};
  const seo = (keys: readonly string[]) => {
    const sent = keys.map((key) => (meta as Record<string, unknown>)[key]).find((value) => typeof value === 'string');
    return sent === undefined ? undefined : (sent as string) || null;
  };
  return {
    title: input.title,
    body: input.content !== undefined ? { text: input.content, format: 'html', field: 'content' } : undefined,
    excerpt: input.excerpt !== undefined ? input.excerpt || null : undefined,
    // A slug sent empty is made from the title, as a new post's is.
    slug: input.slug !== undefined || !existing ? postSlug(input.title ?? existing!.title, input.slug || undefined) : undefined,
    category,
    tags,
    featuredMediaId,
    metaTitle: seo(SEO_META_KEYS.title),
    metaDescription: seo(SEO_META_KEYS.description),
    sticky: input.sticky,
    ...(status ? { status } : {}),
    // A date kept with a publish or a draft: the article's own date (an import), as WordPress keeps it.
    ...(status === 'future' || ((status === 'publish' || status === 'draft') && date) ? { publishAt: date! } : {}),
  };
}

/**
 * The names of the organization's terms with these integer ids, in order; an id it does not have is noted in
 * `problems` under `field`.
 */
async function termNames(
  call: WordPressRequest,
  table: 'blog_categories' | 'blog_tags',
  ids: number[],
  problems: Record<string, string>,
  field: string,
  noun: string,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const { data, error } = await call.context.service.from(table).select('wp_id, name').eq('organization_id', call.context.organizationId).in('wp_id', ids);
  if (error) throw new Error(`reading ${table} failed: ${error.message}`);
  const found = new Map((data as { wp_id: number; name: string }[]).map((row) => [row.wp_id, row.name]));
  const unknownId = ids.find((id) => !found.has(id));
  if (unknownId !== undefined) problems[field] = `${field}[${ids.indexOf(unknownId)}] is not a ${noun} of this site (${unknownId}).`;
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** Takes the post the arrival's two steps, as the password's member; answers the stored post's id, or WordPress's error. */
async function store(call: WordPressRequest, post: ArrivingPost): Promise<string | Response> {
  const { service, organizationId } = call.context;
  try {
    const fields = await arrivalFields(service, organizationId, post);
    const stored = await storeArrival(service, { organizationId, applicationPasswordId: call.publisher!.passwordId }, { fields });
    return stored!.post.id;
  } catch (error) {
    if (error instanceof DeliveryProblem) return invalidParams({ content: `content: ${(error.details as { message: string }[] | undefined)?.[0]?.message ?? error.message}` });
    if (error instanceof ArrivalFailed && error.code === '42501') return forbidden(call, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
    if (error instanceof ArrivalFailed && error.code === '22023') return invalidParams({ date: 'A scheduled (future) post needs a date ahead of now.' });
    throw error;
  }
}

/** The integer ids of tags by name (the registry's spelling; case-insensitive). */
async function tagIdsByName(call: WordPressRequest, names: string[]): Promise<Map<string, number>> {
  if (names.length === 0) return new Map();
  const { data, error } = await call.context.service.from('blog_tags').select('wp_id, name').eq('organization_id', call.context.organizationId).filter('name', 'in', inList(names));
  if (error) throw new Error(`reading tags failed: ${error.message}`);
  return new Map((data as { wp_id: number; name: string }[]).map((row) => [row.name.toLowerCase(), row.wp_id]));
}

/** A post in WordPress's shape; `context=edit` (editors and admins) adds the raw fields. */
function wpPost(call: WordPressRequest, row: PostRow, tagIds: Map<string, number>) {
  const { siteAddress } = call.context;
  const link = `${siteAddress}${postPath(row.slug)}`;
  const edit = call.url.searchParams.get('context') === 'edit' && mayWrite(call);
  const published = row.published_at ?? row.created_at;
  const self = wpLink(siteAddress, `posts/${row.wp_id}`);
  return {
    id: row.wp_id,
    date: wpLocalDate(published, call.context.timeZone),
    date_gmt: wpDate(published),
    guid: { rendered: link, ...(edit ? { raw: link } : {}) },
    modified: wpLocalDate(row.updated_at, call.context.timeZone),
    modified_gmt: wpDate(row.updated_at),
    slug: row.slug,
    status: row.trashed_at ? 'trash' : WP_STATUS[row.status],
    type: 'post',
    link,
    title: { rendered: escapeHtml(row.title), ...(edit ? { raw: row.title } : {}) },
    content: { rendered: row.content, protected: false, ...(edit ? { raw: row.content_source } : {}) },
    excerpt: { rendered: row.excerpt ? `<p>${escapeHtml(row.excerpt)}</p>\n` : '', protected: false, ...(edit ? { raw: row.excerpt ?? '' } : {}) },
    author: row.author?.wp_id ?? 0,
    featured_media: row.media?.wp_id ?? 0,
    comment_status: 'closed',
    ping_status: 'closed',
    sticky: row.sticky,
    template: '',
    format: 'standard',
    meta: {
      _yoast_wpseo_title: row.meta_title ?? '',
      _yoast_wpseo_metadesc: row.meta_description ?? '',
      rank_math_title: row.meta_title ?? '',
      rank_math_description: row.meta_description ?? '',
    },
    categories: row.category ? [row.category.wp_id] : [],
    tags: (row.tags ?? []).map((tag) => tagIds.get(tag.toLowerCase())).filter((id): id is number => id !== undefined),
    _links: {
      self: [{ href: self }],
      collection: [{ href: wpLink(siteAddress, 'posts') }],
      ...(row.author ? { author: [{ embeddable: true, href: wpLink(siteAddress, `users/${row.author.wp_id}`) }] } : {}),
      ...(row.media ? { 'wp:featuredmedia': [{ embeddable: true, href: wpLink(siteAddress, `media/${row.media.wp_id}`) }] } : {}),
    },
  };
}
