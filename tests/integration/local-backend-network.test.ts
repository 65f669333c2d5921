/**
 * The local backend is reachable from this machine only: Postgres listens on 127.0.0.1 alone (no Unix
 * socket, not even IPv6 loopback) and so does the API. Its roles have the well-known password `postgres`,
 * so a database reachable from the network would be open to anyone on it.
 */
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from './support/local-backend-instance.ts';

let backend: TestBackend;
beforeAll(() => {
  backend = startTestBackend();
});
afterAll(async () => {
  await backend?.stop();
});

/** Whether a TCP connection to host:port is accepted (a timeout counts as not). */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => (socket.destroy(), answer(true)));
    socket.once('timeout', () => (socket.destroy(), answer(false)));
    socket.once('error', () => answer(false));
  });
}

/** This machine's addresses other than 127.0.0.1 (link-local IPv6 needs a scope, so it is left out). */
const otherAddresses = [
  '::1',
  ...Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal && !a.address.startsWith('fe80:'))
    .map((a) => a!.address),
];

describe('Postgres', () => {
  it('listens on 127.0.0.1 only, set on its command line, with no Unix socket', async () => {
    // Where Postgres listens is for its superuser to see (postgres, as on hosted, cannot).
    const rows = await backend.superuserSql<{ name: string; setting: string; source: string }>(
      `select name, setting, source from pg_settings where name in ('listen_addresses', 'unix_socket_directories') order by name`,
    );
    expect(rows).toEqual([
      { name: 'listen_addresses', setting: '127.0.0.1', source: 'command line' },
      { name: 'unix_socket_directories', setting: '', source: 'command line' },
    ]);
    expect(await backend.sql('show listen_addresses')).toEqual([{ listen_addresses: '127.0.0.1' }]);
  });

  it('accepts connections on 127.0.0.1', async () => {
    expect(await accepts('127.0.0.1', backend.dbPort)).toBe(true);
  });

  it.each(otherAddresses)('refuses connections on %s', async (address) => {
    expect(await accepts(address, backend.dbPort)).toBe(false);
  });
});

describe('the API', () => {
  it.each(otherAddresses)('refuses connections on %s', async (address) => {
    expect(await accepts('127.0.0.1', backend.apiPort)).toBe(true);
    expect(await accepts(address, backend.apiPort)).toBe(false);
  });
});
