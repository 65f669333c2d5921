/**
 * `wp/v2/media` of the WordPress-compatible API: tools upload the featured image first, then send its id with
 * the post. An upload comes as WordPress takes it: the file's bytes as the body with `Content-Disposition:
 * attachment; filename="…"` (and its Content-Type), or a multipart form with a `file` part (and optional
 * `alt_text`, `title`, `caption`). It lands in the organization's Media Library as a back-office upload does (one
 * copy per image: the same bytes answer the library's file), credited to the password's member. Files are images
 * of the library's types up to its size; anything else is refused naming the file and why, with nothing stored.
 * Editors and admins list, read and upload the library's files, change a file's alt text, caption and title
 * (updateMedia) and delete it with `force=true` (deleteMedia: attachments have no trash in WordPress either);
 * visitors (and viewers) read through the anon key, so they see what the database lets the site show: the
 * featured images of published posts.
 */
import { likeLiteral } from '../ilike-pattern.ts';
import { imageProblem } from '../image-file.ts';
import { MEDIA_BUCKET, MEDIA_COLUMNS, type MediaItem, mediaPublicUrl } from '../media-library.ts';
import { publicSupabaseConfig } from '../supabase-config.ts';
import { WpMediaUpdateSchema, WpPagingSchema } from '../../schemas/wordpress.ts';
import { FUNCTION_BODY_LIMIT_BYTES, HttpError, readBytes } from './http.ts';
import { buildAtOnce, quietWindowMs, type RequestedRebuild, sendAfterChange } from './rebuilds.ts';
import { ImageProblem, storeMedia } from './webhook-images.ts';
import {
  collection,
  escapeHtml,
  forbidden,
  type Handler,
  invalidFromZod,
  mayWrite,
  queryObject,
  readBody,
  readPage,
  reader,
  type WordPressRequest,
  wpDate,
  wpLocalDate,
  wpError,
  wpJson,
  wpLink,
} from './wordpress-rest.ts';

/** A library file with its integer id and its uploader's. */
type MediaRow = MediaItem & { wp_id: number; author: { wp_id: number } | null };
const MEDIA_ROW_COLUMNS = `${MEDIA_COLUMNS}, wp_id, author:profiles(wp_id)`;

/** `GET /media`: a page of the library's files, newest first (`search` on file names). */
async function listMedia(call: WordPressRequest): Promise<Response> {
  const paging = WpPagingSchema.safeParse(queryObject(call.url));
  if (!paging.success) return invalidFromZod(paging.error);
  const { page, per_page: perPage, search } = paging.data;
  let select = reader(call)
    .from('media')
    .select(MEDIA_ROW_COLUMNS, { count: 'exact' })
    .eq('organization_id', call.context.organizationId)
    .order('created_at', { ascending: false })
    .range((page - 1) * perPage, page * perPage - 1);
  if (search) select = select.ilike('file_name', `%${likeLiteral(search)}%`);
  const read = await readPage<MediaRow>(select, page, perPage, 'media');
  if (read instanceof Response) return read;
  return collection(read.rows.map((row) => wpMedia(call, row)), read.total, page, perPage, call.url);
}

/** `GET /media/{id}`. */
async function getMedia(call: WordPressRequest): Promise<Response> {
  const row = await readMedia(call, { wp_id: call.id! });
  return row ? wpJson(wpMedia(call, row)) : wpError(404, 'rest_post_invalid_id', 'Invalid post ID.');
}

/**
 * `POST`/`PUT`/`PATCH /media/{id}`: a file's alt text, caption and title (its name, the extension kept), as the
 * library's editor changes them; editors and admins of the organization only (the library's own rule, "Editors describe
 * media"). Only the fields sent change; 400 naming a field it cannot take, with nothing written.
 */
async function updateMedia(call: WordPressRequest): Promise<Response> {
  if (!mayWrite(call)) return forbidden(call, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
  const row = await readMedia(call, { wp_id: call.id! });
  if (!row) return wpError(404, 'rest_post_invalid_id', 'Invalid post ID.');
  const body = await readBody(call.request, call.url);
  if (body instanceof Response) return body;
  const parsed = WpMediaUpdateSchema.safeParse(body);
  if (!parsed.success) return invalidFromZod(parsed.error);
  const { alt_text: altText, title, caption } = parsed.data;
  const changes = {
    ...(altText !== undefined ? { alt_text: altText } : {}),
    ...(caption !== undefined ? { caption } : {}),
    ...(title !== undefined ? { file_name: `${title}${row.file_name.match(/\.[^.]+$/)?.[0] ?? ''}` } : {}),
  };
  if (Object.keys(changes).length) {
    const { error } = await call.context.service.from('media').update(changes).eq('id', row.id).eq('organization_id', call.context.organizationId);
    if (error) throw new Error(`updating media ${row.id} failed: ${error.message}`);
  }
  return wpJson(wpMedia(call, (await readMedia(call, { id: row.id }))!));
}

/**
 * `DELETE /media/{id}?force=true`: the file leaves the library as the back office deletes it (posts showing it
 * lose it, the site is rebuilt when a published one did, the audit names the member and the password), then its
 * stored object. Without `force`, WordPress's 501 for a type without a trash.
 */
async function deleteMedia(call: WordPressRequest): Promise<Response> {
  if (!mayWrite(call)) return forbidden(call, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
  const row = await readMedia(call, { wp_id: call.id! });
  if (!row) return wpError(404, 'rest_post_invalid_id', 'Invalid post ID.');
  const force = (call.url.searchParams.get('force') ?? '').toLowerCase();
  if (force !== 'true' && force !== '1') {
    return wpError(501, 'rest_trash_not_supported', "Media does not support trashing. Set 'force=true' to delete.");
  }
  const previous = wpMedia(call, row);
  const { data, error } = await call.context.service.rpc('delete_arrived_media', {
    p_organization_id: call.context.organizationId,
    p_media_id: row.id,
    p_application_password_id: call.publisher!.passwordId,
    p_quiet_window_ms: quietWindowMs(process.env),
    p_at_once: buildAtOnce(process.env),
  });
  if (error?.code === '42501') return forbidden(call, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
  if (error?.code === 'P0002') return wpError(404, 'rest_post_invalid_id', 'Invalid post ID.');
  if (error) throw new Error(`delete_arrived_media failed: ${error.message}`);
  const deleted = data as RequestedRebuild & { storage_path: string };
  const removed = await call.context.service.storage.from(MEDIA_BUCKET).remove([deleted.storage_path]);
  // The row is gone, so nothing shows the file any more; an object left behind is only storage, said in the log.
  if (removed.error) console.error(`[wordpress-api] media ${row.id} left the library, its object ${deleted.storage_path} was not removed: ${removed.error.message}`);
  await sendAfterChange(call.context.service, deleted, 'wordpress-api media delete');
  return wpJson({ deleted: true, previous });
}

/** `POST /media`: the file into the Media Library; 201 with the file (the library's own when it has these bytes). */
async function uploadMedia(call: WordPressRequest): Promise<Response> {
  if (!mayWrite(call)) {
    return forbidden(call, 'rest_cannot_create', 'Sorry, you are not allowed to upload media as this user.');
  }
  let upload: Upload;
  try {
    upload = await readUpload(call.request);
  } catch (error) {
    if (error instanceof HttpError && error.status === 413) {
      return wpError(413, 'rest_upload_too_large', `The file is too large: ${error.message}`);
    }
    if (error instanceof HttpError) return wpError(error.status, (error as UploadError).code ?? 'rest_upload_no_data', error.message);
    throw error;
  }
  const problem = imageProblem(upload.fileName, upload.bytes);
  if (problem) return wpError(400, 'rest_upload_invalid_file', `${problem}.`, {}, { params: { file: `${problem}.` } });
  let mediaId: string;
  try {
    mediaId = await storeMedia(
      call.context.service,
      call.context.organizationId,
      upload.bytes,
      { fileName: upload.fileName, altText: upload.altText },
      { source: 'upload', createdBy: call.publisher.userId },
    );
  } catch (error) {
    if (error instanceof ImageProblem) return wpError(400, 'rest_upload_invalid_file', `${upload.fileName}: ${error.message}.`);
    throw error;
  }
  // A caption sent with the upload: kept unless the library's file (the same bytes sent before) has one already.
  if (upload.caption) {
    const { error } = await call.context.service.from('media').update({ caption: upload.caption }).eq('id', mediaId).eq('caption', '');
    if (error) throw new Error(`captioning media ${mediaId} failed: ${error.message}`);
  }
  const answer = wpMedia(call, (await readMedia(call, { id: mediaId }))!);
  return wpJson(answer, { status: 201, headers: { location: answer._links.self[0]!.href } });
}

/** An upload as the request carried it. */
interface Upload {
  fileName: string;
  bytes: Uint8Array;
  altText: string;
  caption: string;
}

/** A refused upload, with WordPress's code for it. */
class UploadError extends HttpError {
  readonly code: string;
  constructor(code: string, message: string) {
    super(400, message);
    this.code = code;
  }
}

/**
 * The file of a request: a multipart form's `file` part, else the body's bytes named by Content-Disposition.
 * Throws HttpError 413 past the function's limit, UploadError for a request that carries no file or no name.
 */
async function readUpload(request: Request): Promise<Upload> {
  const type = request.headers.get('content-type') ?? '';
  const bytes = await readBytes(request, { maxBytes: FUNCTION_BODY_LIMIT_BYTES });
  if (/^multipart\/form-data/i.test(type)) {
    let form: FormData;
    try {
      form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData();
    } catch {
      throw new UploadError('rest_upload_no_data', 'The multipart body could not be read.');
    }
    const file = form.get('file');
    if (!(file instanceof File)) throw new UploadError('rest_upload_no_data', 'No data supplied: send the image as the `file` part.');
    const text = (name: string) => withoutControlCharacters(String(form.get(name) ?? '')).trim().slice(0, 500);
    return { fileName: cleanName(file.name) || 'image', bytes: new Uint8Array(await file.arrayBuffer()), altText: text('alt_text') || text('title'), caption: text('caption') };
  }
  if (bytes.byteLength === 0) throw new UploadError('rest_upload_no_data', 'No data supplied.');
  const disposition = request.headers.get('content-disposition');
  if (!disposition) throw new UploadError('rest_upload_no_content_disposition', 'No Content-Disposition supplied.');
  const name = disposition.match(/filename\*=(?:UTF-8'')?([^;]+)/i)?.[1] ?? disposition.match(/filename="?([^";]+)"?/i)?.[1];
  if (!name) throw new UploadError('rest_upload_invalid_disposition', 'Invalid Content-Disposition supplied: it names no filename.');
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // A name that is not percent-encoding is taken as it is.
  }
  return { fileName: cleanName(decoded) || 'image', bytes, altText: '', caption: '' };
}

/** A file name as the library keeps it: its last path segment, without control characters, at most 255 characters. */
function cleanName(name: string): string {
  return withoutControlCharacters(name.split(/[\\/]/).at(-1) ?? '').trim().slice(-255);
}

/** Text without control characters (NUL among them, which the database cannot store). */
function withoutControlCharacters(text: string): string {
  return [...text].filter((char) => char.charCodeAt(0) > 0x1f && char !== '\u007f').join('');
}

/** A file of the library as the caller may read it (reader: visitors only the featured images of what the site shows). */
async function readMedia(call: WordPressRequest, by: { id: string } | { wp_id: number }): Promise<MediaRow | null> {
  const select = reader(call).from('media').select(MEDIA_ROW_COLUMNS).eq('organization_id', call.context.organizationId);
  const { data, error } = await ('id' in by ? select.eq('id', by.id) : select.eq('wp_id', by.wp_id)).maybeSingle();
  if (error) throw new Error(`reading media failed: ${error.message}`);
  return data as unknown as MediaRow | null;
}

/** The files of `wpIds` the caller may read, in WordPress's shape, by id (posts' `_embed`). */
export async function embeddableMedia(call: WordPressRequest, wpIds: number[]): Promise<Map<number, ReturnType<typeof wpMedia>>> {
  if (wpIds.length === 0) return new Map();
  const { data, error } = await reader(call).from('media').select(MEDIA_ROW_COLUMNS).eq('organization_id', call.context.organizationId).in('wp_id', [...new Set(wpIds)]);
  if (error) throw new Error(`reading media failed: ${error.message}`);
  return new Map((data as unknown as MediaRow[]).map((row) => [row.wp_id, wpMedia(call, row)]));
}

/** A Media Library file as WordPress answers an attachment. */
function wpMedia(call: WordPressRequest, row: MediaRow) {
  const { siteAddress } = call.context;
  const url = mediaPublicUrl(row.storage_path, publicSupabaseConfig(process.env).url);
  const title = row.file_name.replace(/\.[^.]+$/, '');
  return {
    id: row.wp_id,
    date: wpLocalDate(row.created_at, call.context.timeZone),
    date_gmt: wpDate(row.created_at),
    guid: { rendered: url },
    modified: wpLocalDate(row.updated_at, call.context.timeZone),
    modified_gmt: wpDate(row.updated_at),
    slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''),
    status: 'inherit',
    type: 'attachment',
    link: url,
    title: { rendered: escapeHtml(title) },
    author: row.author?.wp_id ?? 0,
    comment_status: 'closed',
    ping_status: 'closed',
    alt_text: row.alt_text,
    caption: { rendered: row.caption ? `<p>${escapeHtml(row.caption)}</p>\n` : '', ...(call.url.searchParams.get('context') === 'edit' && mayWrite(call) ? { raw: row.caption } : {}) },
    description: { rendered: '' },
    media_type: 'image',
    mime_type: row.mime_type,
    media_details: { width: row.width ?? 0, height: row.height ?? 0, file: row.storage_path, filesize: row.size_bytes, sizes: {} },
    post: null,
    source_url: url,
    _links: {
      self: [{ href: wpLink(siteAddress, `media/${row.wp_id}`) }],
      collection: [{ href: wpLink(siteAddress, 'media') }],
    },
  };
}

export const mediaRoutes: Record<string, Handler> = { GET: listMedia, POST: uploadMedia };
export const mediaRoutesById: Record<string, Handler> = { GET: getMedia, POST: updateMedia, PUT: updateMedia, PATCH: updateMedia, DELETE: deleteMedia };
