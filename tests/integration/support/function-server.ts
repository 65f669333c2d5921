/**
 * Serves one function over real HTTP on a free local port, as Netlify would call it: each request becomes a
 * Fetch Request (method, headers, body) handed to the function with the client's address, and its Response is
 * written back. For clients written by others (a WordPress client library) that speak only HTTP.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type NetlifyFunction = (request: Request, context: { ip: string }) => Promise<Response>;

export async function serveFunction(handler: NetlifyFunction): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const body = chunks.length && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
    const response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }), { ip: '203.0.113.80' });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
