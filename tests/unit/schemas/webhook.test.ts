import { describe, expect, it } from 'vitest';
import { WebhookPayloadSchema } from '../../../src/schemas/webhook.ts';

const minimal = { title: 'A title', html: '<p>x</p>' };

describe('WebhookPayloadSchema', () => {
  it('reads every `false` optional field as absent', () => {
    const payload = WebhookPayloadSchema.parse({
      webhook_name: 'blog_post_created', title: ' A title ', html: '<p>x</p>', markdown: false, excerpt: false,
      category: false, tags: false, slug: false, image_url: false, image_base64: false,
    });
    expect(payload).toEqual({ webhook_name: 'blog_post_created', title: 'A title', html: '<p>x</p>' });
  });

  it.each([
    [['SEO', ' Local ', 'SEO', ''], ['SEO', 'Local']],
    ['SEO, Local ,SEO,,', ['SEO', 'Local']],
  ])('trims and deduplicates tags given as %j', (tags, expected) => {
    expect(WebhookPayloadSchema.parse({ ...minimal, tags }).tags).toEqual(expected);
  });

  it.each(['blog_post_created', 'Agency blog', ' Client sites: Evergreen '])('accepts the webhook name its user chose, %j (trimmed)', (name) => {
    expect(WebhookPayloadSchema.parse({ ...minimal, webhook_name: name }).webhook_name).toBe(name.trim());
  });

  it('accepts markdown instead of html', () => {
    expect(WebhookPayloadSchema.safeParse({ title: 'T', markdown: '# Hi' }).success).toBe(true);
  });

  it.each([
    ['no title', { html: '<p>x</p>' }, 'title'],
    ['a blank title', { title: '  ', html: '<p>x</p>' }, 'title'],
    ['neither html nor markdown', { title: 'T', html: false, markdown: '  ' }, 'html'],
    ['a non-http image_url', { ...minimal, image_url: 'javascript:alert(1)' }, 'image_url'],
    ['a webhook_name over 100 characters', { ...minimal, webhook_name: 'x'.repeat(101) }, 'webhook_name'],
    ['a webhook_name that is not text', { ...minimal, webhook_name: 42 }, 'webhook_name'],
    ['more than 20 tags', { ...minimal, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
    ['an excerpt over 500 characters', { ...minimal, excerpt: 'x'.repeat(501) }, 'excerpt'],
  ])('refuses %s', (_case, body, path) => {
    const result = WebhookPayloadSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(path);
  });
});
