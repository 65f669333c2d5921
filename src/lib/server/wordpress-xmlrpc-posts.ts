/**
 * The XML-RPC methods of posts, media and terms (wordpress-xmlrpc.ts): WordPress's own (`wp.newPost`,
 * `wp.getPosts`, `wp.uploadFile`, `wp.getTerms`…), MetaWeblog's (`metaWeblog.newPost` with its `description`,
 * `mt_keywords` and category names), Blogger's and Movable Type's, each translated into calls of the REST API
 * (wordpress-posts.ts, wordpress-media.ts, wordpress-terms.ts) and its answers back into WordPress's XML-RPC
 * structs.
 *
 * - Dates without a zone are the site's time, which this site declares as UTC (as `/wp-json/` does).
 * - MetaWeblog's categories are names: those the site has are used, others ignored (as WordPress does); its
 *   `mt_keywords` tags, and `terms_names` of `wp.newPost`, are found or made by name.
 * - A post's text split by `<!--more-->` is MetaWeblog's `description` and `mt_text_more`.
 * - `custom_fields` carry Yoast's and Rank Math's SEO title and description, as the REST API's `meta` does; other
 *   custom fields are not kept.
 */
import { INVALID_PARAMS, type XmlRpcStruct, type XmlRpcValue } from './xmlrpc.ts';
import { fail, type Method, ok, type Rest, type RestJson } from './wordpress-xmlrpc-call.ts';

type Taxonomy = 'category' | 'post_tag';
const TERM_ROUTE: Record<Taxonomy, string> = { category: 'categories', post_tag: 'tags' };
const MORE = '<!--more-->';

/** A REST date (`2026-11-28T10:00:00`, UTC) as a date. */
const restDate = (value: string) => new Date(`${value}Z`);

/** A post id as apps send it (a string or an integer), else WordPress's 404. */
function postId(value: XmlRpcValue | undefined): number {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : fail(404, 'Invalid post ID.');
}

const struct = (value: XmlRpcValue | undefined, what: string): XmlRpcStruct =>
  value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof Uint8Array) ? value : fail(INVALID_PARAMS, `${what} must be a struct.`);

const text = (value: XmlRpcValue | undefined): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined);

/** Every term of a taxonomy (the REST API lists them 100 at a time). */
async function allTerms(rest: Rest, taxonomy: Taxonomy): Promise<RestJson[]> {
  const terms: RestJson[] = [];
  for (let page = 1; ; page++) {
    const batch = ok(await rest('GET', TERM_ROUTE[taxonomy], { query: { per_page: 100, page } })) as RestJson[];
    terms.push(...batch);
    if (batch.length < 100) return terms;
  }
}

/** The ids of the terms named, found by name or made (a name the site already has, in other letters, is that term). */
async function termIdsByName(rest: Rest, taxonomy: Taxonomy, names: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const name of [...new Set(names.map((each) => each.trim()).filter(Boolean))]) {
    const made = await rest('POST', TERM_ROUTE[taxonomy], { body: { name } });
    ids.push(made.status === 400 && made.json?.code === 'term_exists' ? made.json.data.term_id : ok(made).id);
  }
  return ids;
}

/** SEO fields from `custom_fields` (`[{ key, value }]`): the REST API's `meta`, or nothing. */
function seoMeta(fields: XmlRpcValue | undefined): Record<string, string> | undefined {
  if (!Array.isArray(fields)) return undefined;
  const keys = ['_yoast_wpseo_title', '_yoast_wpseo_metadesc', 'rank_math_title', 'rank_math_description'];
  const meta = Object.fromEntries(
    fields.flatMap((field) => {
      const { key, value } = (field ?? {}) as XmlRpcStruct;
      return typeof key === 'string' && keys.includes(key) && typeof value === 'string' ? [[key, value]] : [];
    }),
  );
  return Object.keys(meta).length ? meta : undefined;
}

/** A status an app asks for, as the REST API takes it; private posts are not offered. */
function status(value: XmlRpcValue | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'private') fail(401, 'Private posts are not offered on this site: use draft or publish.');
  return typeof value === 'string' ? value : fail(INVALID_PARAMS, 'post_status must be a string.');
}

/** `wp.newPost`/`wp.editPost`'s content struct as the REST API's post fields. */
async function wpPostFields(rest: Rest, content: XmlRpcStruct): Promise<Record<string, unknown>> {
  if (content.post_type !== undefined && content.post_type !== 'post') fail(401, 'Invalid post type: this site has posts only.');
  const body: Record<string, unknown> = {};
  for (const [from, to] of [['post_title', 'title'], ['post_content', 'content'], ['post_excerpt', 'excerpt'], ['post_name', 'slug']] as const) {
    if (content[from] !== undefined) body[to] = text(content[from]) ?? fail(INVALID_PARAMS, `${from} must be a string.`);
  }
  const date = content.post_date_gmt ?? content.post_date;
  if (date instanceof Date) body.date_gmt = date.toISOString();
  const asked = status(content.post_status);
  if (asked) body.status = asked;
  if (typeof content.sticky === 'boolean') body.sticky = content.sticky;
  if (content.post_thumbnail !== undefined) body.featured_media = Number(content.post_thumbnail) || 0;
  const ids = (content.terms ?? {}) as XmlRpcStruct;
  const names = (content.terms_names ?? {}) as XmlRpcStruct;
  for (const taxonomy of ['category', 'post_tag'] as const) {
    const byId = Array.isArray(ids[taxonomy]) ? (ids[taxonomy] as XmlRpcValue[]).map(Number) : [];
    const byName = Array.isArray(names[taxonomy]) ? await termIdsByName(rest, taxonomy, (names[taxonomy] as XmlRpcValue[]).map(String)) : [];
    if (ids[taxonomy] !== undefined || names[taxonomy] !== undefined) body[TERM_ROUTE[taxonomy]] = [...byId, ...byName];
  }
  const meta = seoMeta(content.custom_fields);
  if (meta) body.meta = meta;
  return body;
}

/** MetaWeblog's post struct (and its `publish` flag) as the REST API's post fields. */
async function metaWeblogFields(rest: Rest, post: XmlRpcStruct, publish: XmlRpcValue | undefined): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  if (post.title !== undefined) body.title = text(post.title) ?? '';
  if (post.description !== undefined) {
    const more = text(post.mt_text_more);
    body.content = more ? `${text(post.description) ?? ''}${MORE}${more}` : (text(post.description) ?? '');
  }
  if (post.mt_excerpt !== undefined) body.excerpt = text(post.mt_excerpt) ?? '';
  if (post.wp_slug !== undefined) body.slug = text(post.wp_slug) ?? '';
  const date = post.date_created_gmt ?? post.dateCreated;
  if (date instanceof Date) body.date_gmt = date.toISOString();
  body.status = status(post.post_status) ?? (publish === false ? 'draft' : 'publish');
  if (typeof post.sticky === 'boolean') body.sticky = post.sticky;
  if (post.wp_post_thumbnail !== undefined) body.featured_media = Number(post.wp_post_thumbnail) || 0;
  if (Array.isArray(post.categories)) {
    const wanted = post.categories.map((name) => String(name).toLowerCase());
    body.categories = (await allTerms(rest, 'category')).filter((term) => wanted.includes(term.name.toLowerCase())).map((term) => term.id);
  }
  if (typeof post.mt_keywords === 'string') body.tags = await termIdsByName(rest, 'post_tag', post.mt_keywords.split(','));
  const meta = seoMeta(post.custom_fields);
  if (meta) body.meta = meta;
  return body;
}

/** A post as the REST API answers it for an editor, with its terms' names. */
async function readPost(rest: Rest, id: number): Promise<RestJson> {
  return ok(await rest('GET', `posts/${id}`, { query: { context: 'edit', _embed: 'wp:term' } }));
}

const termsOf = (post: RestJson): { categories: RestJson[]; tags: RestJson[] } => {
  const [categories = [], tags = []] = (post._embedded?.['wp:term'] ?? []) as RestJson[][];
  return { categories, tags };
};

/** A term as `wp.getTerm` answers it. */
const wpTerm = (term: RestJson): XmlRpcStruct => ({
  term_id: String(term.id),
  name: term.name,
  slug: term.slug,
  term_group: '0',
  term_taxonomy_id: String(term.id),
  taxonomy: term.taxonomy,
  description: '',
  parent: '0',
  count: term.count ?? 0,
  filter: 'raw',
});

/** A post as `wp.getPost` answers it. */
function wpPost(post: RestJson): XmlRpcStruct {
  const { categories, tags } = termsOf(post);
  return {
    post_id: String(post.id),
    post_title: post.title.raw ?? '',
    post_date: restDate(post.date_gmt),
    post_date_gmt: restDate(post.date_gmt),
    post_modified: restDate(post.modified_gmt),
    post_modified_gmt: restDate(post.modified_gmt),
    post_status: post.status,
    post_type: 'post',
    post_name: post.slug,
    post_author: String(post.author),
    post_password: '',
    post_excerpt: post.excerpt.raw ?? '',
    post_content: post.content.raw ?? '',
    post_parent: '0',
    post_mime_type: '',
    link: post.link,
    guid: post.link,
    menu_order: 0,
    comment_status: 'closed',
    ping_status: 'closed',
    sticky: post.sticky,
    post_thumbnail: post.featured_media ? { attachment_id: String(post.featured_media) } : [],
    post_format: 'standard',
    terms: [...categories, ...tags].map(wpTerm),
    custom_fields: seoFields(post),
  };
}

/** The SEO fields of a post as `custom_fields`. */
const seoFields = (post: RestJson): XmlRpcValue[] =>
  Object.entries((post.meta ?? {}) as Record<string, string>)
    .filter(([key, value]) => key.startsWith('_yoast') && value)
    .map(([key, value]) => ({ id: key, key, value }));

/** A post as MetaWeblog's `getPost` answers it. */
function metaWeblogPost(post: RestJson): XmlRpcStruct {
  const { categories, tags } = termsOf(post);
  const [description, ...more] = String(post.content.raw ?? '').split(MORE);
  const date = restDate(post.date_gmt);
  return {
    dateCreated: date,
    date_created_gmt: date,
    date_modified: restDate(post.modified_gmt),
    date_modified_gmt: restDate(post.modified_gmt),
    userid: String(post.author),
    postid: String(post.id),
    description: description ?? '',
    mt_text_more: more.join(MORE),
    title: post.title.raw ?? '',
    link: post.link,
    permaLink: post.link,
    categories: categories.map((term) => term.name),
    mt_excerpt: post.excerpt.raw ?? '',
    wp_more_text: '',
    mt_allow_comments: 0,
    mt_allow_pings: 0,
    mt_keywords: tags.map((term) => term.name).join(', '),
    wp_slug: post.slug,
    wp_password: '',
    wp_author_id: String(post.author),
    post_status: post.status,
    custom_fields: seoFields(post),
    wp_post_format: 'standard',
    sticky: post.sticky,
    wp_post_thumbnail: post.featured_media ? String(post.featured_media) : '',
  };
}

/** A page of posts from `offset`, `number` of them (the REST API pages by page; two pages cover any offset). */
async function postsFrom(rest: Rest, query: Record<string, string | number>, offset: number, number: number): Promise<RestJson[]> {
  const size = Math.min(Math.max(1, Math.trunc(number)), 100);
  const first = Math.floor(Math.max(0, offset) / size) + 1;
  const read = async (page: number) => {
    const answer = await rest('GET', 'posts', { query: { ...query, context: 'edit', _embed: 'wp:term', per_page: size, page } });
    return answer.status === 400 && answer.json?.code === 'rest_post_invalid_page_number' ? [] : (ok(answer) as RestJson[]);
  };
  const skip = Math.max(0, offset) % size;
  const posts = [...(await read(first)), ...(skip ? await read(first + 1) : [])];
  return posts.slice(skip, skip + size);
}

/** A new post through the REST API; its id as apps expect it (a string). */
async function create(rest: Rest, body: Record<string, unknown>): Promise<string> {
  return String(ok(await rest('POST', 'posts', { body })).id);
}

async function update(rest: Rest, id: number, body: Record<string, unknown>): Promise<true> {
  ok(await rest('POST', `posts/${id}`, { body }));
  return true;
}

/** Moves the post to the trash, as WordPress's XML-RPC deletes. */
async function trash(rest: Rest, id: number): Promise<true> {
  ok(await rest('DELETE', `posts/${id}`));
  return true;
}

/** A Media Library file as `wp.getMediaItem` and the upload methods answer it. */
function mediaItem(media: RestJson): XmlRpcStruct {
  const date = restDate(media.date_gmt);
  const file = String(media.media_details?.file ?? '').split('/').pop() ?? '';
  return {
    attachment_id: String(media.id),
    id: String(media.id),
    date_created_gmt: date,
    parent: 0,
    link: media.source_url,
    url: media.source_url,
    title: media.title.rendered,
    caption: media.caption.raw ?? '',
    description: '',
    metadata: { width: media.media_details.width, height: media.media_details.height, file, filesize: media.media_details.filesize, sizes: {} },
    type: media.mime_type,
    file,
    thumbnail: media.source_url,
  };
}

/** `metaWeblog.newMediaObject` and `wp.uploadFile` (blog, user, password, `{ name, type, bits }`). */
const upload: Method = async ({ params, as }) => {
  const file = struct(params[3], 'The file');
  if (!(file.bits instanceof Uint8Array) || typeof file.name !== 'string') fail(INVALID_PARAMS, 'The file needs a name and its bits (base64).');
  const rest = as(1);
  const made = ok(
    await rest('POST', 'media', {
      bytes: file.bits as Uint8Array,
      headers: { 'content-type': typeof file.type === 'string' ? file.type : 'application/octet-stream', 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name as string)}` },
    }),
  );
  return mediaItem(ok(await rest('GET', `media/${made.id}`, { query: { context: 'edit' } })));
};

/** The taxonomy a call names, or WordPress's fault. */
const taxonomy = (value: XmlRpcValue | undefined): Taxonomy => (value === 'category' || value === 'post_tag' ? value : fail(403, 'Invalid taxonomy.'));

const TAXONOMIES: Record<Taxonomy, XmlRpcStruct> = {
  category: { name: 'category', label: 'Categories', hierarchical: true, public: true, show_ui: true, _builtin: true, labels: { name: 'Categories', singular_name: 'Category' }, cap: {}, object_type: ['post'] },
  post_tag: { name: 'post_tag', label: 'Tags', hierarchical: false, public: true, show_ui: true, _builtin: true, labels: { name: 'Tags', singular_name: 'Tag' }, cap: {}, object_type: ['post'] },
};

const POST_TYPE: XmlRpcStruct = {
  name: 'post',
  label: 'Posts',
  hierarchical: false,
  public: true,
  show_ui: true,
  _builtin: true,
  has_archive: false,
  supports: { title: true, editor: true, author: true, thumbnail: true, excerpt: true },
  labels: { name: 'Posts', singular_name: 'Post' },
  cap: {},
  map_meta_cap: true,
  menu_position: 5,
  menu_icon: 'dashicons-admin-post',
  show_in_menu: true,
  taxonomies: ['category', 'post_tag'],
};

/** Checks the user, then answers `value`. */
const signedIn = (userIndex: number, value: XmlRpcValue): Method => async ({ as }) => {
  ok(await as(userIndex)('GET', 'users/me'));
  return value;
};

/** A category as MetaWeblog lists it. */
const metaWeblogCategory = (term: RestJson): XmlRpcStruct => ({
  categoryId: String(term.id),
  parentId: '0',
  description: term.name,
  categoryDescription: '',
  categoryName: term.name,
  htmlUrl: term.link,
  rssUrl: `${term.link.replace(/\/$/, '')}/rss.xml`,
});

export const POST_METHODS: Record<string, Method> = {
  // WordPress's own.
  'wp.newPost': async ({ params, as }) => {
    const rest = as(1);
    return create(rest, await wpPostFields(rest, struct(params[3], 'The post')));
  },
  'wp.editPost': async ({ params, as }) => {
    const rest = as(1);
    return update(rest, postId(params[3]), await wpPostFields(rest, struct(params[4], 'The post')));
  },
  'wp.getPost': async ({ params, as }) => wpPost(await readPost(as(1), postId(params[3]))),
  'wp.getPosts': async ({ params, as }) => {
    const filter = (params[3] ?? {}) as XmlRpcStruct;
    if (filter.post_type !== undefined && filter.post_type !== 'post') return [];
    const orderby: Record<string, string> = { post_date: 'date', date: 'date', post_modified: 'modified', modified: 'modified', post_title: 'title', title: 'title', ID: 'id', id: 'id' };
    const query: Record<string, string | number> = {
      status: typeof filter.post_status === 'string' && filter.post_status ? filter.post_status : 'any',
      orderby: orderby[String(filter.orderby ?? 'date')] ?? 'date',
      order: String(filter.order ?? 'desc').toLowerCase() === 'asc' ? 'asc' : 'desc',
      ...(typeof filter.s === 'string' && filter.s ? { search: filter.s } : {}),
    };
    const posts = await postsFrom(as(1), query, Number(filter.offset ?? 0) || 0, Number(filter.number ?? 10) || 10);
    return posts.map(wpPost);
  },
  'wp.deletePost': async ({ params, as }) => trash(as(1), postId(params[3])),
  'wp.getPostFormats': signedIn(1, { standard: 'Standard' }),
  'wp.getPostStatusList': signedIn(1, { draft: 'Draft', pending: 'Pending Review', publish: 'Published' }),
  'wp.getPostTypes': signedIn(1, { post: POST_TYPE }),
  'wp.getPostType': async (call) => {
    if (call.params[3] !== 'post') fail(403, 'Invalid post type.');
    return signedIn(1, POST_TYPE)(call);
  },
  'wp.uploadFile': upload,
  'wp.getMediaItem': async ({ params, as }) => mediaItem(ok(await as(1)('GET', `media/${postId(params[3])}`, { query: { context: 'edit' } }))),
  'wp.getMediaLibrary': async ({ params, as }) => {
    const filter = (params[3] ?? {}) as XmlRpcStruct;
    const number = Math.min(Math.max(1, Number(filter.number ?? 10) || 10), 100);
    const page = Math.floor((Number(filter.offset ?? 0) || 0) / number) + 1;
    const answer = await as(1)('GET', 'media', { query: { context: 'edit', per_page: number, page } });
    // A page past the last: none.
    return answer.status === 400 && answer.json?.code === 'rest_post_invalid_page_number' ? [] : (ok(answer) as RestJson[]).map(mediaItem);
  },
  'wp.getTaxonomies': signedIn(1, Object.values(TAXONOMIES)),
  'wp.getTaxonomy': async (call) => signedIn(1, TAXONOMIES[taxonomy(call.params[3])])(call),
  'wp.getTerms': async ({ params, as }) => {
    const filter = (params[4] ?? {}) as XmlRpcStruct;
    const search = typeof filter.search === 'string' ? filter.search.toLowerCase() : '';
    const terms = (await allTerms(as(1), taxonomy(params[3]))).filter((term) => !search || term.name.toLowerCase().includes(search));
    const offset = Number(filter.offset ?? 0) || 0;
    return terms.slice(offset, filter.number !== undefined ? offset + (Number(filter.number) || 0) : undefined).map(wpTerm);
  },
  'wp.getTerm': async ({ params, as }) => wpTerm(ok(await as(1)('GET', `${TERM_ROUTE[taxonomy(params[3])]}/${postId(params[4])}`))),
  'wp.newTerm': async ({ params, as }) => {
    const term = struct(params[3], 'The term');
    const made = await as(1)('POST', TERM_ROUTE[taxonomy(term.taxonomy)], { body: { name: text(term.name) ?? '', ...(typeof term.slug === 'string' ? { slug: term.slug } : {}) } });
    if (made.status === 400 && made.json?.code === 'term_exists') fail(500, 'A term with the name provided already exists with this parent.');
    return String(ok(made).id);
  },
  'wp.getCategories': async ({ as }) => (await allTerms(as(1), 'category')).map(metaWeblogCategory),
  'wp.newCategory': async ({ params, as }) => (await termIdsByName(as(1), 'category', [text(struct(params[3], 'The category').name) ?? '']))[0] ?? fail(INVALID_PARAMS, 'The category needs a name.'),
  'wp.suggestCategories': async ({ params, as }) => {
    const prefix = (text(params[3]) ?? '').toLowerCase();
    const max = Number(params[4]) || 10;
    return (await allTerms(as(1), 'category'))
      .filter((term) => term.name.toLowerCase().startsWith(prefix))
      .slice(0, max)
      .map((term) => ({ category_id: String(term.id), category_name: term.name }));
  },
  'wp.getTags': async ({ as }) =>
    (await allTerms(as(1), 'post_tag')).map((term) => ({ tag_id: String(term.id), name: term.name, count: term.count, slug: term.slug, html_url: term.link, rss_url: '' })),

  // MetaWeblog.
  'metaWeblog.newPost': async ({ params, as }) => {
    const rest = as(1);
    return create(rest, await metaWeblogFields(rest, struct(params[3], 'The post'), params[4]));
  },
  'metaWeblog.editPost': async ({ params, as }) => {
    const rest = as(1);
    return update(rest, postId(params[0]), await metaWeblogFields(rest, struct(params[3], 'The post'), params[4]));
  },
  'metaWeblog.getPost': async ({ params, as }) => metaWeblogPost(await readPost(as(1), postId(params[0]))),
  'metaWeblog.getRecentPosts': async ({ params, as }) => (await postsFrom(as(1), { status: 'any' }, 0, Number(params[3]) || 10)).map(metaWeblogPost),
  'metaWeblog.getCategories': async ({ as }) => (await allTerms(as(1), 'category')).map(metaWeblogCategory),
  'metaWeblog.newMediaObject': upload,
  'metaWeblog.deletePost': async ({ params, as }) => trash(as(2), postId(params[1])),

  // Blogger.
  'blogger.deletePost': async ({ params, as }) => trash(as(2), postId(params[1])),
  'blogger.getPost': async ({ params, as }) => {
    const post = await readPost(as(2), postId(params[1]));
    return { userid: String(post.author), dateCreated: restDate(post.date_gmt), content: post.content.raw ?? '', postid: String(post.id) };
  },

  // Movable Type.
  'mt.getCategoryList': async ({ as }) => (await allTerms(as(1), 'category')).map((term) => ({ categoryId: String(term.id), categoryName: term.name })),
  'mt.getPostCategories': async ({ params, as }) =>
    termsOf(await readPost(as(1), postId(params[0]))).categories.map((term, index) => ({ categoryName: term.name, categoryId: String(term.id), isPrimary: index === 0 })),
  'mt.setPostCategories': async ({ params, as }) => {
    const chosen = Array.isArray(params[3]) ? (params[3] as XmlRpcStruct[]) : fail(INVALID_PARAMS, 'The categories must be an array.');
    const ordered = [...chosen].sort((a, b) => Number(b?.isPrimary === true) - Number(a?.isPrimary === true));
    return update(as(1), postId(params[0]), { categories: ordered.map((category) => Number(category?.categoryId)).filter((id) => id > 0) });
  },
  'mt.publishPost': async ({ params, as }) => update(as(1), postId(params[0]), { status: 'publish' }),
  'mt.getRecentPostTitles': async ({ params, as }) =>
    (await postsFrom(as(1), { status: 'any' }, 0, Number(params[3]) || 10)).map((post) => ({ dateCreated: restDate(post.date_gmt), userid: String(post.author), postid: String(post.id), title: post.title.raw ?? '' })),
};
