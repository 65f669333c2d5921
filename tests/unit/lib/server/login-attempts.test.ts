import { describe, expect, it } from 'vitest';
import { clientInfoFrom } from '../../../../src/lib/server/login-attempts';

// The lockout rule itself lives in SQL: tests/integration/auth-lockout.test.ts.
describe('clientInfoFrom', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it.each<[string, Record<string, string>, string | undefined, string | null]>([
    ['the function context’s address first', { 'x-nf-client-connection-ip': '203.0.113.9' }, '2001:db8::1', '2001:db8::1'],
    ['else Netlify’s client address header', { 'x-nf-client-connection-ip': '203.0.113.9' }, undefined, '203.0.113.9'],
    ['never x-forwarded-for, which the client writes', { 'x-forwarded-for': '198.51.100.1, 10.0.0.2' }, undefined, null],
    ['never a value that is not an address', { 'x-nf-client-connection-ip': 'evil; drop table' }, 'unknown', null],
  ])('%s', (_case, entries, contextIp, ip) => {
    expect(clientInfoFrom(headers({ ...entries, 'user-agent': 'Test/1.0' }), contextIp)).toEqual({ ip, userAgent: 'Test/1.0' });
  });
});
