import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPublic, type FetchLimits, isPublicAddress, urlProblem } from '../../../src/lib/public-fetch';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '151.101.1.69', '2606:4700::6810:85e5', '::ffff:8.8.4.4', '::ffff:808:404'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '198.18.0.1', '::1', '::', 'fe80::1', 'fd00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe',
    // IPv4-compatible (::/96), another spelling of IPv4-mapped (::ffff:0:0/96), and the old site-local fec0::/10.
    '::8.8.8.8', '::7f00:1', '::a9fe:a9fe', '0:0:0:0:0:ffff:7f00:1', '0:0:0:0:0:ffff:a9fe:a9fe', 'fec0::1', 'feff::1',
    'localhost', 'not-an-ip',
  ])('%s is not', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('urlProblem', () => {
  const httpsOnly = { protocols: ['https:'] as const };
  it.each([
    ['https://images.example.com/a.png', null],
    ['http://images.example.com/a.png', 'only https addresses are fetched'],
    ['https://user:pw@images.example.com/a.png', 'addresses with credentials are not fetched'],
    ['https://169.254.169.254/latest', '169.254.169.254 is not a public host'],
    ['https://[::ffff:a9fe:a9fe]/latest', '::ffff:a9fe:a9fe is not a public host'],
    ['https://[fec0::1]/x.png', 'fec0::1 is not a public host'],
    ['not a url', 'the address is not a URL'],
  ])('%s: %s', (url, problem) => {
    expect(urlProblem(url, httpsOnly)).toBe(problem);
  });
});

describe('fetchPublic', () => {
  let server: Server;
  let origin: string;
  const loopbackAllowed = { isAllowedAddress: (address: string) => address === '127.0.0.1' };
  const limits: FetchLimits = { protocols: ['http:', 'https:'], maxBytes: 1024, timeoutMs: 600, maxRedirects: 1, accept: '*/*', userAgent: 'test' };
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ok') return void res.writeHead(200).end('hello');
      if (req.url === '/trickle') {
        // One byte every 100 ms: every byte would restart an idle timeout; the deadline counts from the start.
        res.writeHead(200);
        const timer = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (req.url === '/slow-headers') return void setTimeout(() => res.writeHead(200).end('late'), 2000);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('fetches from an allowed address', async () => {
    expect(Buffer.from(await fetchPublic(`${origin}/ok`, limits, loopbackAllowed)).toString()).toBe('hello');
  });

  it('refuses loopback by default, and a protocol the limits do not allow', async () => {
    await expect(fetchPublic(`${origin}/ok`, limits)).rejects.toThrow('127.0.0.1 is not a public host');
    await expect(fetchPublic(`${origin}/ok`, { ...limits, protocols: ['https:'] }, loopbackAllowed)).rejects.toThrow('only https addresses are fetched');
  });

  it('ends a download that trickles bytes at the deadline, whatever arrives in between', async () => {
    const started = Date.now();
    await expect(fetchPublic(`${origin}/trickle`, { ...limits, maxBytes: 1_000_000 }, loopbackAllowed)).rejects.toThrow('no answer within 0.6 seconds');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('ends a request whose headers do not come by the deadline', async () => {
    await expect(fetchPublic(`${origin}/slow-headers`, limits, loopbackAllowed)).rejects.toThrow('no answer within 0.6 seconds');
  });
});
