/**
 * A compressing front for the served site, as Netlify's CDN is in production: `netlify serve` sends HTML,
 * scripts and styles uncompressed (a 94 KB document for /blog, 18 KB gzip), and Lighthouse's simulated slow
 * network then charges the page for bytes no visitor downloads. Requests pass through as they are (a post's
 * view count is a POST); text responses are gzipped (level 9, as the byte figures count) when the client
 * accepts it, everything else passes through unchanged.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json|rss\+xml)|image\/svg\+xml)/;
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host', 'accept-encoding']);
const gzipped = promisify(gzip);

/** Starts the front on a free port before `upstream`; returns its URL and a function that stops it. */
export async function startCompressingFront(upstream: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    try {
      const headers = Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.has(name)) as Array<[string, string]>;
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const sent = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.concat(chunks);
      const answer = await fetch(upstream + request.url, { method: request.method, headers, body: sent, redirect: 'manual' });
      let body = Buffer.from(await answer.arrayBuffer());
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => void (HOP_HEADERS.has(name) || (out[name] = value)));
      if (COMPRESSIBLE.test(answer.headers.get('content-type') ?? '') && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        body = await gzipped(body, { level: 9 });
        out['content-encoding'] = 'gzip';
        out.vary = 'Accept-Encoding';
      }
      response.writeHead(answer.status, { ...out, 'content-length': String(body.length) });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch (error) {
      response.writeHead(502).end(String(error));
    }
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return { url: `http://localhost:${port}`, close: () => new Promise((closed) => server.close(() => closed())) };
}
