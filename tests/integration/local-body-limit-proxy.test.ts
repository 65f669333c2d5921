/**
 * The body-limit proxy in front of the local Netlify servers (netlify/local/body-limit-proxy.ts), against a
 * small upstream that echoes what reached it. A small limit keeps the bodies small; the served site's own
 * 7 MB case is tests/e2e/api-body-limit.spec.ts.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBodyLimitProxy } from '../../netlify/local/body-limit-proxy.ts';
import { bodyTooLargeText } from '../../src/lib/server/http.ts';

const LIMIT = 1000;
const received: { method: string; url: string; bytes: number; host: string }[] = [];
/** Who upstream was told the client is, per request. */
const identities: Record<string, string | undefined>[] = [];
const upgrades: string[] = [];
let upstream: Server;
let proxy: Server;
let base = '';

const portOf = (server: Server) => (server.address() as AddressInfo).port;
const listening = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, bytes, host: req.headers.host! });
      identities.push({ forwardedFor: req.headers['x-forwarded-for'] as string | undefined, netlifyIp: req.headers['x-nf-client-connection-ip'] as string | undefined, realIp: req.headers['x-real-ip'] as string | undefined });
      res.writeHead(201, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] }).end(`got ${bytes}`);
    });
  });
  upstream.on('upgrade', (req, socket) => {
    upgrades.push(`${req.method} ${req.url} ${req.headers['x-forwarded-for']}`);
    socket.end('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n');
  });
  await listening(upstream);
  proxy = createBodyLimitProxy(portOf(upstream), { limit: LIMIT });
  await listening(proxy);
  base = `http://127.0.0.1:${portOf(proxy)}`;
});

afterAll(async () => {
  for (const server of [proxy, upstream]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A body sent in chunks without a content-length, as a stream is. */
function chunked(size: number): ReadableStream<Uint8Array> {
  let left = size;
  return new ReadableStream({
    pull(controller) {
      const chunk = new Uint8Array(Math.min(300, left)).fill(120);
      left -= chunk.length;
      controller.enqueue(chunk);
      if (left === 0) controller.close();
    },
  });
}

describe('the body-limit proxy', () => {
  it('forwards requests within the limit with their path, host and answer (status, headers, body)', async () => {
    received.length = 0;
    const response = await fetch(`${base}/api/thing?x=1`, { method: 'POST', body: 'x'.repeat(LIMIT) });
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.text()).toBe(`got ${LIMIT}`);
    expect(received).toEqual([{ method: 'POST', url: '/api/thing?x=1', bytes: LIMIT, host: new URL(base).host }]);
  });

  it('forwards a chunked body within the limit whole', async () => {
    received.length = 0;
    const response = await fetch(`${base}/upload`, { method: 'PUT', body: chunked(LIMIT), duplex: 'half' } as RequestInit);
    expect(await response.text()).toBe(`got ${LIMIT}`);
    expect(received).toEqual([expect.objectContaining({ method: 'PUT', bytes: LIMIT })]);
  });

  it('answers 413 in the functions JSON shape to a declared length over the limit, without reaching upstream', async () => {
    received.length = 0;
    const response = await fetch(`${base}/api/thing`, { method: 'POST', body: 'x'.repeat(LIMIT + 1) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: bodyTooLargeText(LIMIT) });
    expect(received).toEqual([]);
  });

  it('answers 413 to a chunked body that passes the limit, without reaching upstream', async () => {
    received.length = 0;
    const response = await fetch(`${base}/api/thing`, { method: 'POST', body: chunked(LIMIT * 5), duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(received).toEqual([]);
  });

  it('keeps serving after refusing a body', async () => {
    const response = await fetch(`${base}/`);
    expect(response.status).toBe(201);
  });

  it('answers 502 when nothing listens upstream', async () => {
    const orphan = createBodyLimitProxy(1, { limit: LIMIT });
    await listening(orphan);
    const response = await fetch(`http://127.0.0.1:${portOf(orphan)}/`);
    expect(response.status).toBe(502);
    await new Promise((resolve) => orphan.close(resolve));
  });

  it("replaces the client's own word for its address with the address it connected from", async () => {
    identities.length = 0;
    await fetch(`${base}/api/post-view`, { headers: { 'x-forwarded-for': '198.51.100.7', 'x-nf-client-connection-ip': '198.51.100.8', 'x-real-ip': '198.51.100.9' } });
    expect(identities).toEqual([{ forwardedFor: '127.0.0.1', netlifyIp: undefined, realIp: undefined }]);
  });

  /** Sends raw bytes and answers what came back before the connection closed. */
  function raw(text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(portOf(proxy), '127.0.0.1', () => socket.write(text));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  it('refuses an upgrade that carries a body (it would pass the limit unread), and upstream never sees it', async () => {
    received.length = 0;
    upgrades.length = 0;
    const body = 'x'.repeat(LIMIT * 3);
    const answer = await raw(`POST /api/thing HTTP/1.1\r\nhost: localhost\r\nconnection: upgrade\r\nupgrade: h2c\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const websocketWithBody = await raw(`GET /ws HTTP/1.1\r\nhost: localhost\r\nconnection: upgrade\r\nupgrade: websocket\r\ncontent-length: 5\r\n\r\nhello`);
    expect(websocketWithBody).toMatch(/^HTTP\/1\.1 400 /);
    expect(received).toEqual([]);
    expect(upgrades).toEqual([]);
  });

  it('control: passes a WebSocket upgrade on, with the client address it saw', async () => {
    upgrades.length = 0;
    const answer = await raw('GET /_hmr HTTP/1.1\r\nhost: localhost\r\nconnection: upgrade\r\nupgrade: websocket\r\nx-forwarded-for: 198.51.100.7\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 101 /);
    expect(upgrades).toEqual(['GET /_hmr 127.0.0.1']);
  });
});
