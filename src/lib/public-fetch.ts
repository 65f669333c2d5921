/**
 * Downloads from the public internet only: the one guard for every address a person or a tool can write and
 * the server then fetches (the writing tool's `image_url`, and at build time the featured images and author
 * photos saved as URLs). Node only (functions and the build); it holds no secret, so build code may use it.
 *
 * - Only the allowed protocols (https, and http where the caller allows it), no credentials in the URL.
 * - Every address the host name resolves to must be public: no loopback, private, link-local, carrier-grade
 *   NAT, multicast, documentation or reserved ranges, in IPv4 or IPv6 (an IPv4-mapped IPv6 address is judged
 *   as its IPv4 address). The connection goes to the address that was checked (the
 *   lookup is the request's only one, so a rebinding DNS cannot answer differently the second time).
 * - At most `maxRedirects` redirects, each checked the same way; at most `maxBytes`; one deadline for the
 *   whole download, from the first connection to the last byte (a server trickling bytes cannot keep it open).
 */
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** A download refused or failed; the message says why, for a log or the person who wrote the address. */
export class FetchRefused extends Error {}

/** Which addresses may be reached (tests allow their own loopback server). */
export interface FetchPolicy {
  isAllowedAddress: (address: string) => boolean;
}

/** How much a download may take. */
export interface FetchLimits {
  protocols: readonly ('http:' | 'https:')[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  accept: string;
  userAgent: string;
}

/** Addresses that are not the public internet (RFC 6890 special-purpose registries and friends). */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

/**
 * True for an address on the public internet. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, however it is
 * spelled) is judged as its IPv4 address; the deprecated IPv4-compatible ones (`::/96`) are not public.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6 && IPV4_MAPPED.check(address, 'ipv6')) {
    const embedded = mappedIpv4(address);
    return embedded !== null && isPublicAddress(embedded);
  }
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** ::ffff:0:0/96, checked for IPv6 addresses only (Node's BlockList would also match every IPv4 address to it). */
const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

/** The IPv4 address inside `::ffff:1.2.3.4` or `::ffff:102:304` (other spellings give null: not judged public). */
function mappedIpv4(address: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Public addresses only: what production code always uses. */
export const PUBLIC_ONLY: FetchPolicy = { isAllowedAddress: isPublicAddress };

/** The body at `url`, fetched under the policy and limits; throws FetchRefused for anything refused or failed. */
export async function fetchPublic(url: string, limits: FetchLimits, policy: FetchPolicy = PUBLIC_ONLY): Promise<Uint8Array> {
  const deadline = Date.now() + limits.timeoutMs;
  let current = url;
  for (let redirects = 0; ; redirects += 1) {
    const response = await get(current, limits, policy, deadline);
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.destroy();
      if (redirects === limits.maxRedirects) throw new FetchRefused(`more than ${limits.maxRedirects} redirects`);
      current = new URL(location, current).toString();
      continue;
    }
    if (response.statusCode !== 200) {
      response.destroy();
      throw new FetchRefused(`the server answered ${response.statusCode}`);
    }
    return readLimited(response, limits, deadline);
  }
}

/** Why `url` may not be fetched under the limits before any connection (protocol, credentials, literal address), or null. */
export function urlProblem(url: string, limits: Pick<FetchLimits, 'protocols'>, policy: FetchPolicy = PUBLIC_ONLY): string | null {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'the address is not a URL';
  }
  if (!(limits.protocols as readonly string[]).includes(target.protocol)) {
    return limits.protocols.length === 1 ? `only ${limits.protocols[0]!.slice(0, -1)} addresses are fetched` : 'only http and https addresses are fetched';
  }
  if (target.username || target.password) return 'addresses with credentials are not fetched';
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !policy.isAllowedAddress(literal)) return `${literal} is not a public host`;
  return null;
}

/** One GET, connected only to an address the policy allows, destroyed at the deadline. */
function get(url: string, limits: FetchLimits, policy: FetchPolicy, deadline: number): Promise<IncomingMessage> {
  const problem = urlProblem(url, limits, policy);
  if (problem) return Promise.reject(new FetchRefused(problem));
  const target = new URL(url);
  // The checked address is the one connected to: the lookup below is the only one the request makes.
  const checkedLookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { all: true, verbatim: true })
      .then((addresses) => {
        const refused = addresses.find((a) => !policy.isAllowedAddress(a.address));
        if (addresses.length === 0 || refused) {
          callback(new FetchRefused(`${hostname} is not a public host`), '', 4);
        } else if (options.all) {
          (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
        } else {
          const [first] = addresses as [(typeof addresses)[number]];
          callback(null, first.address, first.family);
        }
      })
      .catch(() => callback(new FetchRefused(`${hostname} could not be found`), '', 4));
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(target, { method: 'GET', lookup: checkedLookup, headers: { accept: limits.accept, 'user-agent': limits.userAgent } });
    // One deadline for connecting and the headers (the body has its own timer to the same deadline).
    const timer = setTimeout(() => request.destroy(new FetchRefused(`no answer within ${limits.timeoutMs / 1000} seconds`)), Math.max(1, deadline - Date.now()));
    request.on('response', (response) => {
      clearTimeout(timer);
      resolve(response);
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error instanceof FetchRefused ? error : new FetchRefused(`the download failed (${(error as NodeJS.ErrnoException).code ?? 'error'})`));
    });
    request.end();
  });
}

/** The body, stopping at maxBytes or at the deadline. */
function readLimited(response: IncomingMessage, limits: FetchLimits, deadline: number): Promise<Uint8Array> {
  const tooLarge = `it is larger than ${limits.maxBytes / 1024 / 1024} MB`;
  if (Number(response.headers['content-length']) > limits.maxBytes) {
    response.destroy();
    return Promise.reject(new FetchRefused(tooLarge));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => response.destroy(new FetchRefused(`no answer within ${limits.timeoutMs / 1000} seconds`)), Math.max(1, deadline - Date.now()));
    response.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limits.maxBytes) response.destroy(new FetchRefused(tooLarge));
      else chunks.push(chunk);
    });
    response.on('end', () => {
      clearTimeout(timer);
      resolve(new Uint8Array(Buffer.concat(chunks)));
    });
    response.on('error', (error) => {
      clearTimeout(timer);
      reject(error instanceof FetchRefused ? error : new FetchRefused('the download was cut off'));
    });
    response.on('close', () => {
      clearTimeout(timer);
      if (!response.complete) reject(new FetchRefused('the download was cut off'));
    });
  });
}
