/**
 * A small HTTP proxy in front of `netlify serve` / `netlify dev` that answers 413 to request bodies over
 * Netlify's function limit, as production does, instead of letting the body reach netlify-cli.
 *
 * Why it exists: netlify-cli (27.x) reads every request body into memory before routing it
 * (`onRequest` in netlify-cli/dist/utils/proxy.js calls `createStreamPromise`, limit 6e6 bytes). Past the
 * limit, or when the client goes away mid-body, that promise rejects with nothing to catch it: the
 * unhandled rejection ends the whole server ("Stream body too big"). No option changes this, and an edge
 * function or redirect rule would run only after the body was read. So the check happens before
 * netlify-cli sees the request: bodies are read here in full (netlify-cli would buffer them anyway) and
 * forwarded only when complete and within the limit, so netlify-cli never gets one it would choke on. A body
 * whose Content-Type netlify-cli cannot parse goes on as octet-stream (unparsable-content-type.ts).
 */
import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { pipeline, type Duplex } from 'node:stream';
import { bodyTooLargeText, FUNCTION_BODY_LIMIT_BYTES } from '../../src/lib/server/http.ts';
import type { AssetCache } from './asset-cache.ts';
import { passableHeaders } from './unparsable-content-type.ts';

/** Headers about one connection, not the message: never forwarded (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * Headers that say who the client is. A client may not write them: the proxy drops what it sent and names the
 * address it really connected from (`x-forwarded-for`), as Netlify's edge does, so a function never takes a
 * client's word for its address.
 */
const CLIENT_IDENTITY = new Set(['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'client-ip', 'x-nf-client-connection-ip']);

/** The request's headers to send on: end-to-end only, the client's identity as this proxy saw it. */
function forwardedHeaders(req: IncomingMessage): IncomingHttpHeaders {
  const headers = Object.fromEntries(Object.entries(endToEndHeaders(req.headers)).filter(([name]) => !CLIENT_IDENTITY.has(name)));
  return { ...headers, ...(req.socket.remoteAddress && { 'x-forwarded-for': req.socket.remoteAddress }) };
}

/** The body in full, or null when it passed the limit (the rest is read and dropped, see tooLarge). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      over ||= size > limit;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * 413 with the functions' JSON shape. Sent once the whole body has arrived: answering earlier and closing
 * would reset the connection under a client still sending, and it would see an error instead of the 413.
 */
function tooLarge(res: ServerResponse, limit: number): void {
  res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ message: bodyTooLargeText(limit) }));
}

function endToEndHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

/**
 * Forwards a complete request to the upstream server and streams its answer back; an answer the asset cache
 * wants is also collected and given to it once complete.
 */
function forward(req: IncomingMessage, body: Buffer, res: ServerResponse, upstream: Upstream): void {
  const hasBody = body.length > 0 || req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  const outgoing = request(
    {
      host: '127.0.0.1',
      port: upstream.port,
      agent: upstream.agent,
      method: req.method,
      path: req.url,
      headers: { ...passableHeaders(forwardedHeaders(req), hasBody), ...(hasBody && { 'content-length': String(body.length) }) },
    },
    (answer) => {
      const headers = endToEndHeaders(answer.headers);
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
      if (upstream.assets?.wants(req) && answer.statusCode === 200) {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => upstream.assets!.keep(req, 200, answer.statusMessage, headers, Buffer.concat(chunks)));
      }
      pipeline(answer, res, () => {});
    },
  );
  outgoing.on('error', (error) => {
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { 'content-type': 'text/plain' }).end(`The local server did not answer: ${error.message}`);
  });
  // The client left before the whole answer: stop the upstream request (a finished one keeps its socket).
  res.on('close', () => res.writableFinished || outgoing.destroy());
  outgoing.end(body);
}

/**
 * Connection upgrades pass through as raw sockets, but only what the dev server's live reload needs: a GET
 * asking for a WebSocket, with no body. Anything else (a POST with `Upgrade: h2c` and a body, say) would carry
 * a body past the limit: it gets 400 and the connection is closed, upstream never sees it.
 */
function tunnel(req: IncomingMessage, socket: Duplex, head: Buffer, port: number): void {
  const websocket = req.method === 'GET' && /^websocket$/i.test(req.headers.upgrade ?? '');
  const declaresBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!websocket || declaresBody) {
    socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-type: text/plain\r\n\r\nOnly WebSocket upgrades without a body are passed on.');
    return;
  }
  const upstream = connect(port, '127.0.0.1', () => {
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (!CLIENT_IDENTITY.has(req.rawHeaders[i]!.toLowerCase())) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    }
    if (req.socket.remoteAddress) lines.push(`X-Forwarded-For: ${req.socket.remoteAddress}`);
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    upstream.write(head);
    socket.pipe(upstream).pipe(socket);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
}

/** Where requests go on: the server's port, a kept-alive agent, and the asset cache in front of it (serve only). */
interface Upstream { port: number; agent: Agent; assets?: AssetCache }

/**
 * The proxy to the server on 127.0.0.1:`upstreamPort`; call `listen` on it. `assets`: answer the built site's
 * `_astro/` files from the asset cache (asset-cache.ts) once netlify-cli has served them.
 */
export function createBodyLimitProxy(upstreamPort: number, { limit = FUNCTION_BODY_LIMIT_BYTES, assets }: { limit?: number; assets?: AssetCache } = {}): Server {
  const upstream: Upstream = { port: upstreamPort, agent: new Agent({ keepAlive: true }), assets };
  const server = createServer((req, res) => {
    if (assets?.answer(req, res)) {
      req.resume();
      return;
    }
    readBody(req, limit).then(
      (body) => (body === null ? tooLarge(res, limit) : forward(req, body, res, upstream)),
      () => res.destroy(),
    );
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => tunnel(req, socket, head, upstreamPort));
  server.on('close', () => upstream.agent.destroy());
  return server;
}
