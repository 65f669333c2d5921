/**
 * The newsletter's double opt-in: POST /api/newsletter and the mail's links as handlers fed real Requests,
 * writing to the real local backend and its mail outbox; and the raw REST attacks on the list. The site's
 * organization is scale-pro (no SITE_ORG, no URL: the local fallback slug).
 */
import { afterAll, describe, expect, it } from 'vitest';
import newsletterLink, { config as linkConfig } from '../../netlify/functions/newsletter-link.mts';
import newsletter, { config } from '../../netlify/functions/newsletter.mts';
import { newsletterTokenHash } from '../../src/lib/server/newsletter-opt-in.ts';
import { LOCAL_SITE_ADDRESS } from '../../src/lib/server/site-address.ts';
import { NEWSLETTER_OUTCOMES } from '../../src/schemas/newsletter.ts';
import { anonClient, backend, seed, serviceClient, signedInClient, withDatabase } from './support/db-fixtures.ts';

const db = serviceClient();
const run = Date.now().toString(36);
const CHECK_INBOX = { message: NEWSLETTER_OUTCOMES['check-inbox'].message };
const addresses: string[] = [];

/** An address unique to this run (lower case, as stored). */
function address(label: string): string {
  const email = `${label}.${run}@example.com`;
  addresses.push(email);
  return email;
}

const signUp = (body: unknown, init: RequestInit = {}) =>
  newsletter(new Request('http://localhost/api/newsletter', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  }));

const follow = (link: string, method: 'GET' | 'POST' = 'GET', form?: Record<string, string>) =>
  newsletterLink(new Request(link, {
    method,
    ...(form ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() } : {}),
  }));

async function row(email: string) {
  const { data } = await db.from('newsletter_subscribers')
    .select('id, organization_id, email, confirmed_at, unsubscribed_at')
    .eq('organization_id', seed.scalePro).eq('email', email).maybeSingle();
  return data;
}

/** The stored hashes of an address's links (private.newsletter_links, out of the API's reach). */
async function hashes(email: string): Promise<{ confirm_token_hash: string | null; unsubscribe_token_hash: string } | undefined> {
  return withDatabase(async (client) => (await client.query(
    `select l.confirm_token_hash, l.unsubscribe_token_hash from private.newsletter_links l
     join public.newsletter_subscribers s on s.id = l.subscriber_id where s.email = $1`, [email])).rows[0]);
}

async function mails(to: string): Promise<{ subject: string; text: string }[]> {
  const response = await fetch(`${backend.url}/__local/outbox?to=${encodeURIComponent(to)}`, {
    headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` },
  });
  if (!response.ok) throw new Error(`the outbox answered ${response.status}`);
  return response.json();
}

/** The confirm and unsubscribe links of the latest mail to an address. */
async function links(to: string): Promise<{ confirm: string; unsubscribe: string }> {
  const text = (await mails(to))[0]?.text ?? ''; // the outbox lists the newest first
  // The links lead to the site's own address: with the local backend, the local site (site-address.ts).
  const find = (path: string) => new RegExp(`${LOCAL_SITE_ADDRESS}${path}\\?token=[A-Za-z0-9_-]{43}`).exec(text)?.[0] ?? '';
  return { confirm: find('/api/newsletter/confirm'), unsubscribe: find('/api/newsletter/unsubscribe') };
}

afterAll(async () => {
  await db.from('newsletter_subscribers').delete().in('email', addresses);
});

describe('signing up', () => {
  it('answers POST /api/newsletter, and the links GET and POST', () => {
    expect(config).toMatchObject({ path: '/api/newsletter', method: 'POST' });
    expect(linkConfig).toMatchObject({ path: ['/api/newsletter/confirm', '/api/newsletter/unsubscribe'], method: ['GET', 'POST'] });
  });

  it('a new address: "check your inbox", a pending row (lower case), one mail with both links; only hashes are stored', async () => {
    const email = address('reader');
    const response = await signUp({ email: email.toUpperCase() });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(CHECK_INBOX);
    const stored = await row(email);
    expect(stored).toMatchObject({ email, confirmed_at: null, unsubscribed_at: null });
    const sent = await mails(email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('Confirm your subscription to the Scale Pro Marketing newsletter');
    const { confirm, unsubscribe } = await links(email);
    expect(await hashes(email)).toEqual({
      confirm_token_hash: newsletterTokenHash(new URL(confirm).searchParams.get('token')!),
      unsubscribe_token_hash: newsletterTokenHash(new URL(unsubscribe).searchParams.get('token')!),
    });
  });

  it('the organization is the site\'s: one named in the body is ignored', async () => {
    const email = address('elsewhere');
    expect((await signUp({ email, organization: 'evergreen' })).status).toBe(200);
    const { data } = await db.from('newsletter_subscribers').select('organization_id').eq('email', email);
    expect(data).toEqual([{ organization_id: seed.scalePro }]);
  });

  it('mails links to the site\'s own address, whatever host the request names', async () => {
    const email = address('host');
    // The function sees the request as Netlify hands it over: its URL carries the Host header the sender chose.
    const response = await newsletter(new Request('http://evil.example/api/newsletter', {
      method: 'POST', headers: { 'content-type': 'application/json', host: 'evil.example', 'x-forwarded-host': 'evil.example' }, body: JSON.stringify({ email }),
    }));
    expect(response.status).toBe(200);
    const sent = await links(email);
    for (const link of [sent.confirm, sent.unsubscribe]) expect(new URL(link).origin).toBe(LOCAL_SITE_ADDRESS);
    expect(JSON.stringify(await mails(email))).not.toContain('evil.example');
  });

  it('tells nobody who is on the list: a pending, a confirmed and a new address get the same answer; no second mail within the hour', async () => {
    const pending = address('pending');
    const confirmed = address('confirmed');
    await signUp({ email: pending });
    await signUp({ email: confirmed });
    await follow((await links(confirmed)).confirm, 'POST', { token: new URL((await links(confirmed)).confirm).searchParams.get('token')! });
    expect((await row(confirmed))?.confirmed_at).not.toBeNull();
    const answers = [];
    for (const email of [pending, confirmed, address('fresh')]) {
      const response = await signUp({ email });
      answers.push({ status: response.status, body: await response.json() });
    }
    expect(answers).toEqual(Array(3).fill({ status: 200, body: CHECK_INBOX }));
    expect(await mails(pending)).toHaveLength(1);
    expect(await mails(confirmed)).toHaveLength(1);
  });

  it('after the hour, a pending address gets a new mail, and the old link stops working', async () => {
    const email = address('retry');
    await signUp({ email });
    const old = await links(email);
    await db.from('newsletter_subscribers').update({ confirmation_sent_at: new Date(Date.now() - 2 * 3600_000).toISOString() }).eq('email', email);
    await signUp({ email });
    expect(await mails(email)).toHaveLength(2);
    const oldAnswer = await follow(old.confirm, 'POST', { token: new URL(old.confirm).searchParams.get('token')! });
    expect(oldAnswer.headers.get('location')).toBe('/newsletter/link-invalid');
    expect((await row(email))?.confirmed_at).toBeNull();
  });

  it('an organization sends at most its hourly limit of confirmation mails (limit 2 here)', async () => {
    const request = (email: string) => db.rpc('request_newsletter_subscription', {
      p_organization_id: seed.evergreen, p_email: email, p_confirm_hash: newsletterTokenHash(`c-${email}`), p_unsubscribe_hash: newsletterTokenHash(`u-${email}`), p_hourly_limit: 2,
    });
    const [a, b, c] = [address('limit-a'), address('limit-b'), address('limit-c')];
    await db.from('newsletter_subscribers').delete().eq('organization_id', seed.evergreen);
    expect((await request(a)).data).toBe(true);
    expect((await request(b)).data).toBe(true);
    expect((await request(c)).data).toBe(false);
    const { data } = await db.from('newsletter_subscribers').select('email').eq('organization_id', seed.evergreen).eq('email', c);
    expect(data).toEqual([]);
  });

  it.each([
    [{ email: 'not-an-email' }, 400, 'Please enter a valid email address.'],
    [{ email: '' }, 400, 'Please enter your email address.'],
    [{}, 400, 'Please enter your email address.'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 400, 'That email address is too long.'],
  ])('refuses %j with %i and writes nothing', async (body, status, message) => {
    const response = await signUp(body);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ message });
    const { data } = await db.from('newsletter_subscribers').select('id').in('email', ['not-an-email', '', `${'a'.repeat(250)}@example.com`]);
    expect(data).toEqual([]);
  });

  it('refuses a body over 10 KB with 413, with or without a Content-Length', async () => {
    const big = JSON.stringify({ email: address('big'), padding: 'x'.repeat(11 * 1024) });
    expect((await signUp(big)).status).toBe(413);
    const streamed = await signUp('', { body: new Blob([big]).stream(), duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await row(addresses.at(-1)!)).toBeNull();
  });

  describe('a plain form post (no script): 303 to the outcome page, never the address in the URL', () => {
    const form = (fields: Record<string, string>) =>
      signUp(new URLSearchParams(fields).toString(), { headers: { 'content-type': 'application/x-www-form-urlencoded' } });

    it.each([
      [{ email: 'form.' + run + '@example.com' }, '/newsletter/check-inbox'],
      [{ email: 'not-an-email' }, '/newsletter/email-invalid'],
      [{ email: '' }, '/newsletter/email-required'],
      [{ email: `${'a'.repeat(250)}@example.com` }, '/newsletter/email-too-long'],
    ])('%j goes to %s', async (fields, location) => {
      if (fields.email.startsWith('form.')) addresses.push(fields.email);
      const response = await form(fields);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(location);
    });

    it('a body over 10 KB goes to the failure page and stores nothing', async () => {
      const email = address('bigform');
      const response = await form({ email, padding: 'x'.repeat(11 * 1024) });
      expect(response.headers.get('location')).toBe('/newsletter/not-available');
      expect(await row(email)).toBeNull();
    });
  });
});

describe('the links of the mail', () => {
  it('GET shows one button and changes nothing (a mail scanner confirms nothing); POST confirms once', async () => {
    const email = address('confirming');
    await signUp({ email });
    const { confirm } = await links(email);
    const token = new URL(confirm).searchParams.get('token')!;
    const page = await follow(confirm);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/api/newsletter/confirm">');
    expect(html).toContain(`value="${token}"`);
    expect((await row(email))?.confirmed_at).toBeNull();

    const confirmed = await follow('http://localhost/api/newsletter/confirm', 'POST', { token });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('/newsletter/confirmed');
    expect(await row(email)).toMatchObject({ confirmed_at: expect.any(String) });
    expect((await hashes(email))?.confirm_token_hash).toBeNull();
    const again = await follow('http://localhost/api/newsletter/confirm', 'POST', { token });
    expect(again.headers.get('location')).toBe('/newsletter/link-invalid');
  });

  it('the unsubscribe link works as a one-click post (token in the link) and takes the address off; confirming again brings it back', async () => {
    const email = address('leaving');
    await signUp({ email });
    const first = await links(email);
    await follow(first.confirm, 'POST');
    const left = await follow(first.unsubscribe, 'POST', { 'List-Unsubscribe': 'One-Click' });
    expect(left.headers.get('location')).toBe('/newsletter/unsubscribed');
    expect(await row(email)).toMatchObject({ confirmed_at: expect.any(String), unsubscribed_at: expect.any(String) });
    await db.from('newsletter_subscribers').update({ confirmation_sent_at: new Date(Date.now() - 2 * 3600_000).toISOString() }).eq('email', email);
    await signUp({ email });
    await follow((await links(email)).confirm, 'POST');
    expect(await row(email)).toMatchObject({ unsubscribed_at: null });
  });

  it('an expired confirmation link does nothing', async () => {
    const email = address('late');
    await signUp({ email });
    await db.from('newsletter_subscribers').update({ confirmation_sent_at: new Date(Date.now() - 8 * 24 * 3600_000).toISOString() }).eq('email', email);
    const answer = await follow((await links(email)).confirm, 'POST');
    expect(answer.headers.get('location')).toBe('/newsletter/link-invalid');
    expect((await row(email))?.confirmed_at).toBeNull();
  });

  it.each([
    ['a made-up token', `http://localhost/api/newsletter/confirm?token=${'A'.repeat(43)}`],
    ['a malformed token', 'http://localhost/api/newsletter/unsubscribe?token=<script>'],
    ['no token', 'http://localhost/api/newsletter/confirm'],
  ])('%s leads to "link-invalid" and changes nothing', async (_case, link) => {
    const before = await db.from('newsletter_subscribers').select('id', { count: 'exact', head: true }).not('confirmed_at', 'is', null);
    const answer = await follow(link, 'POST');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/newsletter/link-invalid');
    const after = await db.from('newsletter_subscribers').select('id', { count: 'exact', head: true }).not('confirmed_at', 'is', null);
    expect(after.count).toBe(before.count);
  });
});

describe('attacks on the list through the raw API', () => {
  it('anon reads nothing, adds nothing, and cannot call the sign-up, confirm or unsubscribe functions', async () => {
    const anon = anonClient();
    const email = address('anon');
    expect((await anon.from('newsletter_subscribers').select('email')).data ?? []).toEqual([]);
    expect((await anon.from('newsletter_subscribers').insert({ organization_id: seed.scalePro, email })).error).not.toBeNull();
    const hash = newsletterTokenHash('x');
    expect((await anon.rpc('request_newsletter_subscription', { p_organization_id: seed.scalePro, p_email: email, p_confirm_hash: hash, p_unsubscribe_hash: hash, p_hourly_limit: 1000 })).error).not.toBeNull();
    expect((await anon.rpc('confirm_newsletter_subscription', { p_token_hash: hash })).error).not.toBeNull();
    expect((await anon.rpc('unsubscribe_newsletter', { p_token_hash: hash })).error).not.toBeNull();
    expect(await row(email)).toBeNull();
  });

  it("an admin reads the list with states (the links' hashes are not in it), cannot add or confirm an address, and another organization's admin sees none of it", async () => {
    const email = address('admin-view');
    await signUp({ email });
    const admin = await signedInClient(seed.users.admin.email);
    const { data: listed } = await admin.from('newsletter_subscribers').select('email, confirmed_at, unsubscribed_at').eq('email', email);
    expect(listed).toEqual([{ email, confirmed_at: null, unsubscribed_at: null }]);
    expect((await admin.from('newsletter_subscribers').select('*').eq('email', email)).data?.[0]).not.toHaveProperty('confirm_token_hash');
    expect((await admin.from('newsletter_subscribers').insert({ organization_id: seed.scalePro, email: address('forced') })).error?.code).toBe('42501');
    expect((await admin.from('newsletter_subscribers').update({ confirmed_at: new Date().toISOString() }).eq('email', email)).error?.code).toBe('42501');
    expect((await row(email))?.confirmed_at).toBeNull();
    expect(await row(addresses.at(-1)!)).toBeNull();
    const other = await signedInClient(seed.users.otherAdmin.email);
    expect((await other.from('newsletter_subscribers').select('email').eq('email', email)).data).toEqual([]);
    expect((await other.from('newsletter_subscribers').delete().eq('email', email).select('id')).data ?? []).toEqual([]);
    expect(await row(email)).not.toBeNull();
  });

  it('an editor reads nothing; control: the admin removes the address', async () => {
    const email = address('removed');
    await signUp({ email });
    const editor = await signedInClient(seed.users.editor.email);
    expect((await editor.from('newsletter_subscribers').select('email').eq('email', email)).data).toEqual([]);
    expect((await editor.from('newsletter_subscribers').delete().eq('email', email).select('id')).data ?? []).toEqual([]);
    const admin = await signedInClient(seed.users.admin.email);
    expect((await admin.from('newsletter_subscribers').delete().eq('email', email).select('id')).data).toHaveLength(1);
    expect(await row(email)).toBeNull();
  });

  it('stores no token: the database holds only hashes of the links', async () => {
    const email = address('hashes');
    await signUp({ email });
    const { confirm, unsubscribe } = await links(email);
    await withDatabase(async (client) => {
      const dump = JSON.stringify((await client.query(
        'select s.*, l.* from public.newsletter_subscribers s join private.newsletter_links l on l.subscriber_id = s.id where s.email = $1', [email])).rows);
      expect(dump).toContain(newsletterTokenHash(new URL(confirm).searchParams.get('token')!));
      for (const link of [confirm, unsubscribe]) expect(dump).not.toContain(new URL(link).searchParams.get('token'));
    });
  });
});
