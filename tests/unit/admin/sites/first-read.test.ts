/**
 * The sites board's first read runs as the page's inline script (src/pages/admin/sites.astro): its text is run
 * here as the browser runs it, in a context of its own with only a window, localStorage and fetch, so it can
 * refer to nothing outside itself.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { firstReadScript } from '../../../../src/admin/sites/first-read';

const ENV = { PUBLIC_SUPABASE_URL: 'https://abc.supabase.co', PUBLIC_SUPABASE_ANON_KEY: 'anon-key' };

/** Runs the script against a stored session and a page address; answers the requests it sent and its window. */
function runScript(stored: unknown, search = '', env: Record<string, string> = ENV) {
  const requests: { url: string; init: RequestInit }[] = [];
  const window: Record<string, unknown> = { location: { search } };
  runInNewContext(firstReadScript(env), {
    window,
    URLSearchParams,
    JSON,
    Date,
    localStorage: { getItem: (key: string) => (key === 'sb-abc-auth-token' && stored !== undefined ? JSON.stringify(stored) : null) },
    fetch: (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return Promise.resolve(new Response('[{"organization_id":"o1"}]', { status: 200 }));
    },
  });
  return { requests, window };
}

const fresh = { access_token: 'token-1', expires_at: Math.floor(Date.now() / 1000) + 3600 };

describe('the sites board first read', () => {
  it('asks sites_board with the stored access token and the anon key, and leaves the answer for the board', async () => {
    const { requests, window } = runScript(fresh);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe('https://abc.supabase.co/rest/v1/rpc/sites_board');
    expect(requests[0]!.init).toMatchObject({ method: 'POST', body: '{}', headers: { apikey: 'anon-key', authorization: 'Bearer token-1' } });
    await expect(window.sitesBoardFirstRead).resolves.toEqual([{ organization_id: 'o1' }]);
  });

  it('sends nothing without a session, with one about to expire, with a broken one, or on the calendar view', () => {
    expect(runScript(undefined).requests).toEqual([]);
    expect(runScript({ access_token: 'token-1', expires_at: Math.floor(Date.now() / 1000) + 10 }).requests).toEqual([]);
    expect(runScript('not a session').requests).toEqual([]);
    expect(runScript({ expires_at: fresh.expires_at }).requests).toEqual([]);
    expect(runScript(fresh, '?view=calendar').requests).toEqual([]);
  });

  it('cannot end its script element, whatever the configuration says', () => {
    const script = firstReadScript({ ...ENV, PUBLIC_SUPABASE_ANON_KEY: '</script><script>alert(1)</script>' });
    expect(script).not.toMatch(/<\/?script/i);
    expect(runScript(fresh, '', { ...ENV, PUBLIC_SUPABASE_ANON_KEY: '</script>' }).requests[0]!.init.headers).toMatchObject({ apikey: '</script>' });
  });
});
