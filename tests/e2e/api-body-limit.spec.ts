/**
 * Netlify answers 413 to a function request body over its 6 MB limit. The local servers do the same and
 * keep running (netlify-cli alone exits on such a body; netlify/local/body-limit-proxy.ts stands in front).
 */
import { bodyTooLargeText, FUNCTION_BODY_LIMIT_BYTES } from '../../src/lib/server/http.ts';
import { expect, test } from './fixtures';

test('a 7 MB POST to a function answers 413 and the site keeps serving', async ({ request }) => {
  const response = await request.post('/api/webhooks/zimmwriter/dev-zimmwriter-token-scale-pro', {
    headers: { 'content-type': 'application/json' },
    data: JSON.stringify({ html: 'x'.repeat(7_000_000) }),
  });
  expect(response.status()).toBe(413);
  expect(await response.json()).toEqual({ message: bodyTooLargeText(FUNCTION_BODY_LIMIT_BYTES) });

  const home = await request.get('/');
  expect(home.status()).toBe(200);
});
