/**
 * POST /api/newsletter as a handler fed real Requests, writing to the real local backend
 * (`npm run db:start`; SUPABASE_URL points elsewhere when it runs on other ports).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import newsletter, { config } from '../../netlify/functions/newsletter.mts';
import { serviceClient } from '../../src/lib/server/service-client';

const db = serviceClient();
const organization = 'scale-pro';
const address = `Reader.${Date.now()}@Example.COM`;
let organizationId: string;

const post = (body: unknown, init: RequestInit = {}) =>
  newsletter(
    new Request('http://localhost/api/newsletter', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
    }),
  );

async function rowsFor(email: string) {
  const { data, error } = await db.from('newsletter_subscribers').select('email, organization_id').eq('organization_id', organizationId).ilike('email', email);
  if (error) throw new Error(`reading newsletter_subscribers failed: ${error.message}`);
  return data;
}

beforeAll(async () => {
  const { data, error } = await db.from('organizations').select('id').eq('slug', organization).single();
  if (error) throw new Error(`the seed should hold organization ${organization}: ${error.message}`);
  organizationId = data.id;
});

afterAll(async () => {
  await db.from('newsletter_subscribers').delete().eq('organization_id', organizationId).ilike('email', address);
});

describe('newsletter function', () => {
  it('answers POST /api/newsletter', () => {
    expect(config).toMatchObject({ path: '/api/newsletter', method: 'POST' });
  });

  it('stores a new address lowercased: 201 "Thanks for subscribing!"', async () => {
    const response = await post({ email: `  ${address} `, organization });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ message: 'Thanks for subscribing!' });
    expect(await rowsFor(address)).toEqual([{ email: address.toLowerCase(), organization_id: organizationId }]);
  });

  it('answers a duplicate (any case) with 200 "You\'re already subscribed." and no second row', async () => {
    const response = await post({ email: address.toUpperCase(), organization });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "You're already subscribed." });
    expect(await rowsFor(address)).toHaveLength(1);
  });

  it.each([
    [{ email: 'not-an-email', organization }, 'Please enter a valid email address.'],
    [{ email: '', organization }, 'Please enter your email address.'],
    [{ organization }, 'Please enter your email address.'],
    [{ email: 'a@example.com' }, 'The organization is missing.'],
    ['{not json', 'The request body must be JSON.'],
  ])('rejects %j with 400 and a clear message', async (body, message) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message });
  });

  it('answers an unknown organization with 404 and stores nothing', async () => {
    const email = `nobody.${Date.now()}@example.com`;
    const response = await post({ email, organization: 'no-such-organization' });
    expect(response.status).toBe(404);
    expect((await response.json()).message).toMatch(/no-such-organization/);
    const { data } = await db.from('newsletter_subscribers').select('id').eq('email', email);
    expect(data).toEqual([]);
  });

  it('refuses a body over 10 KB with 413, with or without a Content-Length', async () => {
    const big = JSON.stringify({ email: 'big@example.com', organization, padding: 'x'.repeat(11 * 1024) });
    const declared = await post(big, { headers: { 'content-type': 'application/json', 'content-length': String(big.length) } });
    expect(declared.status).toBe(413);
    const streamed = await post(undefined, {
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await streamed.json()).message).toMatch(/larger than 10240 bytes/);
  });

  describe('a plain form post (no script): 303 to the outcome page, never the address in the URL', () => {
    const form = (fields: Record<string, string>, init: RequestInit = {}) =>
      post(new URLSearchParams(fields).toString(), { headers: { 'content-type': 'application/x-www-form-urlencoded' }, ...init });
    const formAddress = `Form.${Date.now()}@Example.COM`;
    afterAll(() => db.from('newsletter_subscribers').delete().eq('organization_id', organizationId).ilike('email', formAddress));

    it.each([
      ['a new address', { email: formAddress, organization }, '/newsletter/subscribed', 1],
      ['the same address again', { email: formAddress.toUpperCase(), organization }, '/newsletter/already-subscribed', 1],
    ])('%s goes to %s, one row', async (_case, fields, location, rows) => {
      const response = await form(fields);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(location);
      expect(await rowsFor(formAddress)).toHaveLength(rows);
    });

    it.each([
      [{ email: 'not-an-email', organization }, '/newsletter/email-invalid'],
      [{ email: '', organization }, '/newsletter/email-required'],
      [{ organization }, '/newsletter/email-required'],
      [{ email: `${'a'.repeat(250)}@example.com`, organization }, '/newsletter/email-too-long'],
      [{ email: 'lost@example.com' }, '/newsletter/not-available'],
      [{ email: 'lost@example.com', organization: 'no-such-organization' }, '/newsletter/not-available'],
      [{ email: 'lost@example.com', organization: `scale-pro&email=other@example.com` }, '/newsletter/not-available'],
    ])('refuses %j: goes to %s and stores nothing', async (fields, location) => {
      const response = await form(fields);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(location);
      const { data } = await db.from('newsletter_subscribers').select('id').in('email', ['not-an-email', 'lost@example.com', 'other@example.com']);
      expect(data).toEqual([]);
    });

    it('a body over 10 KB goes to the failure page and stores nothing', async () => {
      const email = `big.${Date.now()}@example.com`;
      const response = await form({ email, organization, padding: 'x'.repeat(11 * 1024) });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/newsletter/not-available');
      const { data } = await db.from('newsletter_subscribers').select('id').eq('email', email);
      expect(data).toEqual([]);
    });
  });
});

