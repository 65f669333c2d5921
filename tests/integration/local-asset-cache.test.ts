/**
 * The asset cache in front of `npm run serve` (netlify/local/asset-cache.ts, through the body-limit proxy),
 * against a small upstream that serves a temporary dist/ folder and counts what reaches it: a built asset is
 * served upstream once, then from the cache with the same status, headers and bytes, for as long as the file
 * is the same (a revalidation told 304); a new build (a new file in its place) goes upstream again; anything else
 * always goes upstream.
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAssetCache } from '../../netlify/local/asset-cache.ts';
import { createBodyLimitProxy } from '../../netlify/local/body-limit-proxy.ts';

let root: string;
let dist: string;
let upstream: Server;
let proxy: Server;
let base = '';
/** The requests that reached upstream, as `METHOD path`. */
let reached: string[] = [];

const portOf = (server: Server) => (server.address() as AddressInfo).port;
const listening = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

/** Writes a file of the served folder. */
function put(path: string, text: string): void {
  mkdirSync(join(dist, path, '..'), { recursive: true });
  writeFileSync(join(dist, path), text);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'asset-cache-'));
  dist = join(root, 'dist');
  upstream = createServer((req, res) => {
    reached.push(`${req.method} ${req.url}`);
    const path = new URL(req.url!, 'http://local').pathname;
    let body: Buffer;
    try {
      body = readFileSync(join(dist, path));
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const etag = `W/"${body.length}-${body.toString('base64url').slice(-8)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/javascript', etag, 'x-served-by': 'upstream', 'content-security-policy': "default-src 'self'" }).end(req.method === 'HEAD' ? undefined : body);
  });
  await listening(upstream);
  proxy = createBodyLimitProxy(portOf(upstream), { assets: createAssetCache(dist) });
  await listening(proxy);
  base = `http://127.0.0.1:${portOf(proxy)}`;
});

beforeEach(() => {
  rmSync(dist, { recursive: true, force: true });
  put('_astro/app.abc123.js', 'console.log("first build");');
  put('index.html', '<p>home</p>');
  reached = [];
});

afterAll(async () => {
  for (const server of [proxy, upstream]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(root, { recursive: true, force: true });
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}${path}`, { headers });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    etag: response.headers.get('etag'),
    csp: response.headers.get('content-security-policy'),
    by: response.headers.get('x-served-by'),
    text: await response.text(),
  };
};

describe('the asset cache of npm run serve', () => {
  it('serves a built asset upstream once, then from the cache with the same status, headers and bytes', async () => {
    const first = await get('/_astro/app.abc123.js');
    const again = await get('/_astro/app.abc123.js');
    const third = await get('/_astro/app.abc123.js');
    expect(first).toMatchObject({ status: 200, type: 'text/javascript', csp: "default-src 'self'", by: 'upstream', text: 'console.log("first build");' });
    expect(first.etag).toMatch(/^W\/"/);
    expect(again).toEqual(first);
    expect(third).toEqual(first);
    expect(reached).toEqual(['GET /_astro/app.abc123.js']);
  });

  it('goes upstream again once a build has put another file in its place, and serves the new bytes', async () => {
    expect((await get('/_astro/app.abc123.js')).text).toBe('console.log("first build");');
    // A build swaps in a new folder: the same name, another file.
    const next = join(root, 'next');
    mkdirSync(join(next, '_astro'), { recursive: true });
    writeFileSync(join(next, '_astro', 'app.abc123.js'), 'console.log("second build");');
    rmSync(dist, { recursive: true });
    renameSync(next, dist);
    expect((await get('/_astro/app.abc123.js')).text).toBe('console.log("second build");');
    expect((await get('/_astro/app.abc123.js')).text).toBe('console.log("second build");');
    expect(reached).toEqual(['GET /_astro/app.abc123.js', 'GET /_astro/app.abc123.js']);
  });

  it('keeps no answer for a file the build removed: it goes upstream, which says 404', async () => {
    await get('/_astro/app.abc123.js');
    rmSync(join(dist, '_astro', 'app.abc123.js'));
    expect((await get('/_astro/app.abc123.js')).status).toBe(404);
    expect(reached).toHaveLength(2);
  });

  it('tells a browser revalidating the kept answer 304 with its headers; another ETag goes upstream', async () => {
    const { etag } = await get('/_astro/app.abc123.js');
    const revalidated = await get('/_astro/app.abc123.js', { 'if-none-match': etag! });
    expect(revalidated).toMatchObject({ status: 304, etag, csp: "default-src 'self'", text: '' });
    expect(reached).toEqual(['GET /_astro/app.abc123.js']);
    expect((await get('/_astro/app.abc123.js', { 'if-none-match': 'W/"another"' })).status).toBe(200);
    expect(reached).toHaveLength(2);
  });

  it('always sends pages, missing assets, If-Modified-Since, HEADs and POSTs upstream', async () => {
    for (let i = 0; i < 2; i++) {
      await get('/index.html');
      await get('/_astro/missing.js');
      await get('/_astro/app.abc123.js', { 'if-modified-since': new Date().toUTCString() });
      await fetch(`${base}/_astro/app.abc123.js`, { method: 'HEAD' });
      await fetch(`${base}/_astro/app.abc123.js`, { method: 'POST', body: 'x' });
    }
    expect(reached.filter((line) => line === 'GET /index.html')).toHaveLength(2);
    expect(reached.filter((line) => line === 'GET /_astro/missing.js')).toHaveLength(2);
    expect(reached.filter((line) => line === 'GET /_astro/app.abc123.js')).toHaveLength(2);
    expect(reached.filter((line) => line.startsWith('HEAD '))).toHaveLength(2);
    expect(reached.filter((line) => line.startsWith('POST '))).toHaveLength(2);
  });

  it('keeps answers apart by the encodings the client accepts', async () => {
    await get('/_astro/app.abc123.js', { 'accept-encoding': 'gzip' });
    await get('/_astro/app.abc123.js', { 'accept-encoding': 'identity' });
    await get('/_astro/app.abc123.js', { 'accept-encoding': 'gzip' });
    expect(reached).toHaveLength(2);
  });
});
