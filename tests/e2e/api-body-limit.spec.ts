/**
 * Netlify answers 413 to a function request body over its 6 MB limit. The local servers do the same and
 * keep running (netlify-cli alone exits on such a body; netlify/local/body-limit-proxy.ts stands in front). A
 * body whose Content-Type netlify-cli cannot parse reaches the function as on Netlify (unparsable-content-type.ts).
 */
import sharp from 'sharp';
import { bodyTooLargeText, FUNCTION_BODY_LIMIT_BYTES } from '../../src/lib/server/http.ts';
import { expect, test } from './fixtures';
import { SCALE_PRO_ID, service } from './support/backend';

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

test('a body whose Content-Type netlify-cli cannot parse reaches the function intact, with its own type', async ({ request }) => {
  // What Python's WordPress client sends for a file named `cover.png`: `image/.png`.
  const run = crypto.randomUUID().slice(0, 8);
  const auth = { authorization: `Basic ${Buffer.from('editor@scale-pro.test:abcd EFGH 1234 ijkl MNOP 6789').toString('base64')}` };
  const image = await sharp({ create: { width: 40, height: 24, channels: 3, background: { r: 30, g: 120, b: 90 } } }).png().toBuffer();
  try {
    const upload = await request.post('/wp-json/wp/v2/media', {
      headers: { ...auth, 'content-type': 'image/.png', 'content-disposition': `attachment; filename="odd-type-${run}.png"` },
      data: image,
    });
    expect(upload.status(), await upload.text()).toBe(201);
    expect(await upload.json()).toMatchObject({ mime_type: 'image/png', media_details: { width: 40, height: 24, filesize: image.length } });
    // A JSON body sent with a type without a subtype is read as JSON, as on Netlify: its title arrives, so only
    // the missing content is named (an empty body would name both). Nothing is written: this lane must not add to
    // the deliveries the publishing lane reads.
    const draft = await request.post('/wp-json/wp/v2/posts', { headers: { ...auth, 'content-type': 'json' }, data: JSON.stringify({ title: `Odd type ${run}` }) });
    expect(draft.status()).toBe(400);
    expect((await draft.json()).data.params).toEqual({ content: 'content is required.' });
  } finally {
    await service.from('media').delete().eq('organization_id', SCALE_PRO_ID).like('file_name', `%${run}%`);
  }
});
