/**
 * The writing tool's featured image, kept in the organization's Media Library so the site never hotlinks
 * the tool's WordPress:
 * - `image_base64` (the image the tool generated; a bare base64 string or a `data:` URL) is decoded;
 * - else `image_url` is fetched once, from public hosts only: http(s), every address the name resolves to
 *   must be public (no loopback, private, link-local, carrier-grade NAT, multicast or reserved ranges, in
 *   IPv4 or IPv6) and the connection goes to the address that was checked (no second lookup for a
 *   rebinding DNS to answer differently), at most 3 redirects (each checked the same way), 10 seconds and
 *   MEDIA_MAX_BYTES;
 * then checked by its bytes (image-file.ts: JPEG, PNG, WebP, AVIF or GIF) and stored once per organization
 * (the SHA-256 is unique per organization, so a redelivery reuses the stored file).
 *
 * A bad or unreachable image never costs the post: `deliveryImage` answers a note for the delivery log
 * instead, and the post is saved without a featured image.
 */
import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';
import { IMAGE_FORMATS_TEXT, inspectImage, MEDIA_MAX_BYTES, sha256Hex } from '../image-file.ts';
import { InternalError } from './http.ts';

/** The storage bucket of the Media Library (created by the media migration). */
export const MEDIA_BUCKET = 'media';

const FETCH_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;
const MAX_MB = MEDIA_MAX_BYTES / 1024 / 1024;

/** Addresses that are not the public internet (RFC 6890 special-purpose registries and friends). */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64],
  ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** True for an address on the public internet (an IPv4-mapped IPv6 address is judged as its IPv4 one). */
export function isPublicAddress(address: string): boolean {
  const mapped = ipv4Mapped(address);
  if (mapped) return isPublicAddress(mapped);
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:1.2.3.4` or `::ffff:102:304`), else null. */
function ipv4Mapped(address: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why an image could not be taken; its message goes to the delivery log. */
export class ImageProblem extends Error {}

/** How image_url is fetched: which addresses may be reached (tests allow their own loopback server). */
export interface FetchPolicy {
  isAllowedAddress: (address: string) => boolean;
}
const PUBLIC_ONLY: FetchPolicy = { isAllowedAddress: isPublicAddress };

/** The image's bytes from `image_base64`; throws ImageProblem when it is not base64 of an accepted image. */
export function decodeImageBase64(value: string): Uint8Array {
  const data = value.trim().replace(/^data:[\w.+/-]*(;[\w=.-]+)*;base64,/i, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(data) || data.length === 0) throw new ImageProblem('it is not base64');
  if ((data.length * 3) / 4 > MEDIA_MAX_BYTES + 3) throw new ImageProblem(`it is larger than ${MAX_MB} MB`);
  return checked(new Uint8Array(Buffer.from(data, data.includes('-') || data.includes('_') ? 'base64url' : 'base64')));
}

/** The bytes when they are an accepted image of at most MEDIA_MAX_BYTES; else ImageProblem. */
function checked(bytes: Uint8Array): Uint8Array {
  if (bytes.byteLength > MEDIA_MAX_BYTES) throw new ImageProblem(`it is larger than ${MAX_MB} MB`);
  if (!inspectImage(bytes)) throw new ImageProblem(`it is not an image (${IMAGE_FORMATS_TEXT})`);
  return bytes;
}

/** The image at `url`, fetched under the policy; throws ImageProblem for anything refused or failed. */
export async function fetchImage(url: string, policy: FetchPolicy = PUBLIC_ONLY): Promise<Uint8Array> {
  const deadline = Date.now() + FETCH_TIMEOUT_MS;
  let current = url;
  for (let redirects = 0; ; redirects += 1) {
    const response = await get(current, policy, deadline);
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.resume();
      if (redirects === MAX_REDIRECTS) throw new ImageProblem(`more than ${MAX_REDIRECTS} redirects`);
      current = new URL(location, current).toString();
      continue;
    }
    if (response.statusCode !== 200) {
      response.resume();
      throw new ImageProblem(`the server answered ${response.statusCode}`);
    }
    return checked(await readLimited(response, deadline));
  }
}

/** One GET, connected only to an address the policy allows. */
function get(url: string, policy: FetchPolicy, deadline: number): Promise<IncomingMessage> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new ImageProblem('the address is not a URL'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(new ImageProblem('only http and https addresses are fetched'));
  if (target.username || target.password) return Promise.reject(new ImageProblem('addresses with credentials are not fetched'));
  // The checked address is the one connected to: the lookup below is the only one the request makes.
  const checkedLookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { all: true, verbatim: true })
      .then((addresses) => {
        const refused = addresses.find((a) => !policy.isAllowedAddress(a.address));
        if (addresses.length === 0 || refused) {
          callback(new ImageProblem(`${hostname} is not a public host`), '', 4);
        } else if (options.all) {
          (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
        } else {
          const [first] = addresses as [(typeof addresses)[number]];
          callback(null, first.address, first.family);
        }
      })
      .catch(() => callback(new ImageProblem(`${hostname} could not be found`), '', 4));
  };
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !policy.isAllowedAddress(literal)) return Promise.reject(new ImageProblem(`${literal} is not a public host`));
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(target, {
      method: 'GET',
      lookup: checkedLookup,
      headers: { accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif', 'user-agent': 'scale-pro-site media import' },
      timeout: Math.max(1, deadline - Date.now()),
    });
    request.on('response', resolve);
    request.on('timeout', () => request.destroy(new ImageProblem(`no answer within ${FETCH_TIMEOUT_MS / 1000} seconds`)));
    request.on('error', (error) => reject(error instanceof ImageProblem ? error : new ImageProblem(`the download failed (${(error as NodeJS.ErrnoException).code ?? 'error'})`)));
    request.end();
  });
}

/** The body, stopping at MEDIA_MAX_BYTES or at the deadline. */
function readLimited(response: IncomingMessage, deadline: number): Promise<Uint8Array> {
  const declared = Number(response.headers['content-length']);
  if (declared > MEDIA_MAX_BYTES) {
    response.destroy();
    return Promise.reject(new ImageProblem(`it is larger than ${MAX_MB} MB`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => response.destroy(new ImageProblem(`no answer within ${FETCH_TIMEOUT_MS / 1000} seconds`)), Math.max(1, deadline - Date.now()));
    response.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MEDIA_MAX_BYTES) response.destroy(new ImageProblem(`it is larger than ${MAX_MB} MB`));
      else chunks.push(chunk);
    });
    response.on('end', () => {
      clearTimeout(timer);
      resolve(new Uint8Array(Buffer.concat(chunks)));
    });
    response.on('error', (error) => {
      clearTimeout(timer);
      reject(error instanceof ImageProblem ? error : new ImageProblem('the download was cut off'));
    });
  });
}

/** What to call the stored file: the URL's file name, else the post's slug, with the real extension. */
export function mediaFileName(bytes: Uint8Array, fallbackBase: string, url?: string): string {
  const info = inspectImage(bytes);
  const fromUrl = url ? decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '').replace(/\.[^.]*$/, '') : '';
  const base = (fromUrl || fallbackBase).replace(/[^\w.-]+/g, '-').slice(0, 200) || 'image';
  return `${base}.${info?.extension ?? 'img'}`;
}

/**
 * Stores an accepted image in the organization's media (service client) and answers its media id; the
 * same bytes already stored there give the existing id. Throws InternalError when storage or the database fails.
 */
export async function storeMedia(
  client: SupabaseClient,
  organizationId: string,
  bytes: Uint8Array,
  describe: { fileName: string; altText: string },
): Promise<string> {
  const info = inspectImage(bytes);
  if (!info) throw new ImageProblem(`it is not an image (${IMAGE_FORMATS_TEXT})`);
  const sha256 = await sha256Hex(bytes);
  const existing = await findMedia(client, organizationId, sha256);
  if (existing) return existing;
  const path = `${organizationId}/${randomUUID()}.${info.extension}`;
  const upload = await client.storage.from(MEDIA_BUCKET).upload(path, bytes, { contentType: info.mimeType, upsert: false });
  if (upload.error) throw new InternalError(`storing the image failed: ${upload.error.message}`);
  const { data, error } = await client
    .from('media')
    .insert({
      organization_id: organizationId,
      storage_path: path,
      file_name: describe.fileName,
      width: info.width,
      height: info.height,
      alt_text: describe.altText.slice(0, 500),
      sha256,
      source: 'webhook',
    })
    .select('id')
    .single();
  if (!error) return (data as { id: string }).id;
  await client.storage.from(MEDIA_BUCKET).remove([path]);
  // A concurrent delivery stored the same image first: use its row.
  const raced = error.code === '23505' ? await findMedia(client, organizationId, sha256) : null;
  if (raced) return raced;
  throw new InternalError(`recording the image failed: ${error.message}`);
}

async function findMedia(client: SupabaseClient, organizationId: string, sha256: string): Promise<string | null> {
  const { data, error } = await client.from('media').select('id').eq('organization_id', organizationId).eq('sha256', sha256).maybeSingle();
  if (error) throw new InternalError(`looking up the image failed: ${error.message}`);
  return (data as { id: string } | null)?.id ?? null;
}

/** The delivery's image fields, as far as this module is concerned. */
export interface DeliveryImageFields {
  image_base64?: string;
  image_url?: string;
}

/** The stored featured image, and a note for the delivery log about an image that was not taken. */
export interface DeliveryImage {
  mediaId: string | null;
  note: string | null;
}

/**
 * The delivery's featured image stored in the organization's media: image_base64 first, else (or when it
 * is refused) image_url. Never throws for a bad image: the problem becomes the note. Storage or database
 * failures become a note too (with no internals): the post is worth more than its picture.
 */
export async function deliveryImage(
  client: SupabaseClient,
  organizationId: string,
  fields: DeliveryImageFields,
  describe: { slug: string; title: string },
  policy: FetchPolicy = PUBLIC_ONLY,
): Promise<DeliveryImage> {
  const notes: string[] = [];
  const attempts: [string, () => Promise<{ bytes: Uint8Array; url?: string }>][] = [];
  if (fields.image_base64) attempts.push(['image_base64', async () => ({ bytes: decodeImageBase64(fields.image_base64!) })]);
  if (fields.image_url) attempts.push(['image_url', async () => ({ bytes: await fetchImage(fields.image_url!, policy), url: fields.image_url })]);
  for (const [field, load] of attempts) {
    try {
      const { bytes, url } = await load();
      const mediaId = await storeMedia(client, organizationId, bytes, { fileName: mediaFileName(bytes, describe.slug, url), altText: describe.title });
      return { mediaId, note: notes.join('; ') || null };
    } catch (error) {
      if (error instanceof ImageProblem) notes.push(`${field} not stored: ${error.message}`);
      else {
        console.error(`webhook image (${organizationId}): ${(error as Error).message}`);
        notes.push(`${field} not stored: the image could not be saved`);
      }
    }
  }
  return { mediaId: null, note: notes.join('; ') || null };
}
