import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, db, must, removeTestRows, SCALE_PRO, webhookRequest } from './support/webhook-backend.ts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';

const since = new Date().toISOString();
const slug = `webhook-test-rotation-${Date.now().toString(36)}`;
const payload = { title: 'Rotation check', html: '<p>Still delivered.</p>', slug };
type Integration = { token_hash: string; previous_token_hash: string | null; previous_token_expires_at: string | null; rotated_at: string | null };

let sent = 0;
/** Each call a new delivery of the same post (the same payload again would be a retry, replayed). */
const statusFor = async (token: string) => (await webhook(webhookRequest(token, { ...payload, excerpt: `Delivery ${(sent += 1)}` }))).status;

let seeded: Integration;
let newToken = '';
beforeAll(async () => {
  seeded = must(await db.from('webhook_integrations').select('token_hash, previous_token_hash, previous_token_expires_at, rotated_at').eq('organization_id', SCALE_PRO.id).single(), 'integration');
  newToken = must(await db.rpc('rotate_webhook_token', { p_organization_id: SCALE_PRO.id }), 'rotate') as string;
});
afterAll(async () => {
  check(await db.from('webhook_integrations').update(seeded).eq('organization_id', SCALE_PRO.id), 'restore the seeded token');
  await removeTestRows({ postSlugs: [slug], organizationIds: [SCALE_PRO.id], since });
});

describe('a rotated webhook token', () => {
  it('is a long random secret, stored only as its hash', async () => {
    expect(newToken).toMatch(/^whk_[0-9a-f]{64}$/);
    const row = must(await db.from('webhook_integrations').select('token_hash').eq('organization_id', SCALE_PRO.id).single(), 'integration');
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(newToken.slice(4));
  });

  it('works at once, and the old token keeps working during its 24-hour grace', async () => {
    expect(await statusFor(newToken)).toBe(201);
    expect(await statusFor(SCALE_PRO.token)).toBe(200);
    const row = must(await db.from('webhook_integrations').select('previous_token_expires_at').eq('organization_id', SCALE_PRO.id).single(), 'integration');
    const graceHours = (Date.parse(row.previous_token_expires_at as string) - Date.now()) / 3_600_000;
    expect(graceHours).toBeGreaterThan(23.9);
    expect(graceHours).toBeLessThanOrEqual(24);
  });

  it('leaves the old token refused with 404 once the grace has passed', async () => {
    check(await db.from('webhook_integrations').update({ previous_token_expires_at: new Date(Date.now() - 1000).toISOString() }).eq('organization_id', SCALE_PRO.id), 'expire grace');
    expect(await statusFor(SCALE_PRO.token)).toBe(404);
    expect(await statusFor(newToken)).toBe(200);
  });
});
