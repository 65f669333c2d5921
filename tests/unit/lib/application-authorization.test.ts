import { describe, expect, it } from 'vitest';
import { approvalRedirect, readAuthorizationRequest, rejectionRedirect } from '../../../src/lib/back-office/application-authorization';

const read = (query: Record<string, string>) => readAuthorizationRequest(new URLSearchParams(query));

describe('readAuthorizationRequest', () => {
  it('takes what WordPress takes: a name, a UUID, https and app-scheme return addresses, loopback http', () => {
    expect(read({ app_name: ' Ulysses ', app_id: '6F2C5B0E-1C1D-4A0E-9A57-0D7D1B9C2F11', success_url: 'https://ulysses.app/cb?x=1', reject_url: 'ulysses://x-callback-url/refused' })).toEqual({
      ok: true,
      request: { appName: 'Ulysses', appId: '6F2C5B0E-1C1D-4A0E-9A57-0D7D1B9C2F11', successUrl: 'https://ulysses.app/cb?x=1', rejectUrl: 'ulysses://x-callback-url/refused' },
    });
    expect(read({})).toEqual({ ok: true, request: { appName: '', appId: null, successUrl: null, rejectUrl: null } });
    expect(read({ success_url: '', app_id: ' ' })).toEqual({ ok: true, request: { appName: '', appId: null, successUrl: null, rejectUrl: null } });
    for (const local of ['http://localhost:4567/cb', 'http://127.0.0.1/cb', 'http://[::1]:80/cb']) expect(read({ success_url: local }).ok, local).toBe(true);
  });

  it.each([
    [{ success_url: 'http://ulysses.app/cb' }, 'The success URL (success_url) must be served over a secure connection (https).'],
    [{ reject_url: 'http://evil.test' }, 'The reject URL (reject_url) must be served over a secure connection (https).'],
    [{ success_url: 'javascript:alert(document.cookie)' }, 'The success URL (success_url) must be a valid URL.'],
    [{ success_url: 'JavaScript://evil.test/%0aalert(1)' }, 'The success URL (success_url) must be a valid URL.'],
    [{ success_url: 'data:text/html,<script>alert(1)</script>' }, 'The success URL (success_url) must be a valid URL.'],
    [{ success_url: 'file:///etc/passwd' }, 'The success URL (success_url) must be a valid URL.'],
    [{ success_url: 'myapp:/no-host' }, 'The success URL (success_url) must be a valid URL.'],
    [{ success_url: '/admin/relative' }, 'The success URL (success_url) must be a valid URL.'],
    [{ success_url: `https://a.test/${'x'.repeat(2000)}` }, 'The success URL (success_url) is too long.'],
    [{ app_id: 'not-a-uuid' }, 'The application ID must be a UUID.'],
    [{ app_name: 'x'.repeat(201) }, 'The application name is too long.'],
  ])('refuses %j', (query, message) => {
    expect(read(query)).toEqual({ ok: false, message });
  });
});

describe('the redirects', () => {
  it('adds the site, user name and password to success_url, keeping its own query', () => {
    expect(approvalRedirect('https://ulysses.app/cb?state=a b', { siteUrl: 'https://www.example.com', userLogin: 'jordan.lee', password: 'abcd EFGH 1234 ijkl MNOP 6789' })).toBe(
      'https://ulysses.app/cb?state=a+b&site_url=https%3A%2F%2Fwww.example.com&user_login=jordan.lee&password=abcd+EFGH+1234+ijkl+MNOP+6789',
    );
  });

  it('sends a refusal to reject_url, else success_url, with success=false; nowhere when neither was given', () => {
    const request = { appName: 'U', appId: null, successUrl: 'https://u.test/ok', rejectUrl: 'https://u.test/no?x=1' };
    expect(rejectionRedirect(request)).toBe('https://u.test/no?x=1&success=false');
    expect(rejectionRedirect({ ...request, rejectUrl: null })).toBe('https://u.test/ok?success=false');
    expect(rejectionRedirect({ ...request, rejectUrl: null, successUrl: null })).toBeNull();
  });
});
