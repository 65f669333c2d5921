import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { deployEvent, verifyDeployNotification } from '../../../../src/lib/server/deploy-events.ts';

const SECRET = 'deploy-notification-secret-for-tests';
const sign = (body: string, { secret = SECRET, issuer = 'netlify', sha = createHash('sha256').update(body).digest('hex') } = {}) =>
  new SignJWT({ sha256: sha }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuer(issuer).sign(new TextEncoder().encode(secret));

describe('verifyDeployNotification', () => {
  const body = JSON.stringify({ id: 'd1', state: 'ready', context: 'production' });
  it('accepts Netlify\'s signature of this body', async () => {
    await expect(verifyDeployNotification(body, await sign(body), SECRET)).resolves.toBeUndefined();
  });
  it.each([
    ['no signature', async () => null],
    ['another secret', async () => sign(body, { secret: 'someone-else' })],
    ['another issuer', async () => sign(body, { issuer: 'attacker' })],
    ['the signature of another body', async () => sign('{"id":"d1","state":"error"}')],
    ['a sha256 claim that is not a hash', async () => sign(body, { sha: 'nope' })],
    ['garbage', async () => 'not.a.jwt'],
  ])('refuses %s with 401', async (_case, signature) => {
    await expect(verifyDeployNotification(body, await signature(), SECRET)).rejects.toMatchObject({ status: 401 });
  });
});

describe('deployEvent', () => {
  const deploy = { id: 'd1', created_at: '2026-11-23T15:00:00.000Z', ssl_url: 'https://example.com', error_message: null };
  it('maps the production states the status tracks', () => {
    expect(deployEvent({ ...deploy, state: 'building', context: 'production' })).toMatchObject({ state: 'building', startedAt: deploy.created_at, url: 'https://example.com' });
    expect(deployEvent({ ...deploy, state: 'ready', context: 'production' })).toMatchObject({ state: 'succeeded', error: null });
    expect(deployEvent({ ...deploy, state: 'error', context: 'production', error_message: 'Build script returned non-zero exit code: 2' })).toMatchObject({
      state: 'failed', error: 'Build script returned non-zero exit code: 2',
    });
    expect(deployEvent({ ...deploy, state: 'error', context: 'production' })?.error).toBe('Netlify reported the deploy as failed');
  });
  it('ignores deploy previews, branch deploys and states it does not track', () => {
    expect(deployEvent({ ...deploy, state: 'ready', context: 'deploy-preview' })).toBeNull();
    expect(deployEvent({ ...deploy, state: 'ready', context: 'branch-deploy' })).toBeNull();
    expect(deployEvent({ ...deploy, state: 'locked', context: 'production' })).toBeNull();
  });
});
