import { describe, expect, it } from 'vitest';
import { parseSettingsForm, settingsFormValues } from '../../../../src/lib/back-office/organization-settings.ts';
import { sessionCountText, sessionStatus } from '../../../../src/lib/back-office/sessions.ts';
import { ChangePasswordSchema } from '../../../../src/lib/back-office/password.ts';
import { examplePayload, MASKED_TOKEN, testDeliveryMessage, webhookUrl, type WebhookTestPreview } from '../../../../src/lib/back-office/webhook.ts';
import { WebhookPayloadSchema } from '../../../../src/schemas/webhook.ts';

const org = {
  name: 'Scale Pro',
  domain: 'scalepro.test',
  settings: { blog_title: 'Blog', contact_phone: '+1 404 555 0100', webhook: { publish_mode: 'draft' as const }, social_links: { instagram: 'https://instagram.com/x' } },
};

describe('organization settings form', () => {
  it('prefills from the organization and keeps settings the form does not show', () => {
    const values = settingsFormValues(org);
    expect(values).toMatchObject({ name: 'Scale Pro', domain: 'scalepro.test', blog_title: 'Blog', instagram: 'https://instagram.com/x', facebook: '' });
    const parsed = parseSettingsForm({ ...values, facebook: 'https://facebook.com/scale' }, org.settings);
    expect(parsed).toEqual({
      ok: true,
      update: {
        name: 'Scale Pro',
        domain: 'scalepro.test',
        settings: { blog_title: 'Blog', contact_phone: '+1 404 555 0100', webhook: { publish_mode: 'draft' }, social_links: { facebook: 'https://facebook.com/scale', instagram: 'https://instagram.com/x' } },
      },
    });
  });

  it('answers a message per invalid field', () => {
    const parsed = parseSettingsForm({ ...settingsFormValues(org), name: ' ', contact_email: 'not-an-email', youtube: 'javascript:alert(1)', domain: 'http://x' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.errors).sort()).toEqual(['contact_email', 'domain', 'name', 'youtube']);
    expect(parsed.errors.name).toBe('Organization name is required');
  });

  it('edits the contact phone: trimmed when valid, a message on the field when not', () => {
    const values = settingsFormValues(org);
    expect(values.contact_phone).toBe('+1 404 555 0100');
    const saved = parseSettingsForm({ ...values, contact_phone: ' (404) 555-0199 ' }, org.settings);
    expect(saved.ok && saved.update.settings.contact_phone).toBe('(404) 555-0199');
    const cleared = parseSettingsForm({ ...values, contact_phone: '' }, org.settings);
    expect(cleared.ok && 'contact_phone' in cleared.update.settings).toBe(false);
    expect(parseSettingsForm({ ...values, contact_phone: '12-34' }, org.settings)).toEqual({ ok: false, errors: { contact_phone: 'Enter a valid phone number' } });
    expect(parseSettingsForm({ ...values, contact_phone: '+1 (234) 567 890 123 456' }, org.settings)).toEqual({
      ok: false,
      errors: { contact_phone: 'Enter a phone number with 7 to 15 digits' },
    });
  });

  it('saves every social link, YouTube included', () => {
    const links = { facebook: 'https://facebook.com/a', twitter: 'https://twitter.com/a', instagram: 'https://instagram.com/a', linkedin: 'https://linkedin.com/a', youtube: 'https://youtube.com/@a' };
    const parsed = parseSettingsForm({ ...settingsFormValues(org), ...links }, org.settings);
    expect(parsed.ok && parsed.update.settings.social_links).toEqual(links);
    expect(settingsFormValues({ ...org, settings: { social_links: links } })).toMatchObject(links);
  });

  it('saves a blank domain as none', () => {
    const parsed = parseSettingsForm({ ...settingsFormValues(org), domain: '' });
    expect(parsed.ok && parsed.update.domain).toBeNull();
  });
});

describe('sessions', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it('is Active while recently used and not expired', () => {
    expect(sessionStatus({ last_activity: '2026-11-21T11:30:00Z', expires_at: null }, now)).toBe('Active');
    expect(sessionStatus({ last_activity: '2026-11-21T10:00:00Z', expires_at: null }, now)).toBe('Inactive');
    expect(sessionStatus({ last_activity: '2026-11-21T11:59:00Z', expires_at: '2026-11-21T11:59:30Z' }, now)).toBe('Inactive');
  });
  it('counts in words', () => {
    expect(sessionCountText(3)).toBe('3 active session(s) found');
  });
});

describe('change password form', () => {
  it('applies the password rules and the confirmation', () => {
    const result = ChangePasswordSchema.safeParse({ currentPassword: 'x', newPassword: 'short', confirmPassword: 'other' });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toContain('Password must be at least 8 characters');
    expect(messages).toContain("Passwords don't match");
    expect(ChangePasswordSchema.safeParse({ currentPassword: 'x', newPassword: 'Abcdefg1', confirmPassword: 'Abcdefg1' }).success).toBe(true);
  });
});

describe('webhook admin', () => {
  it('masks the token unless it was just issued', () => {
    expect(webhookUrl('https://a.test')).toBe(`https://a.test/api/webhooks/zimmwriter/${MASKED_TOKEN}`);
    expect(webhookUrl('https://a.test', 'whk_1')).toBe('https://a.test/api/webhooks/zimmwriter/whk_1');
  });
  it('builds the example payload with the test tags', () => {
    expect(examplePayload('SEO', { title: 'T' })).toMatchObject({ webhook_name: 'blog_post_created', title: 'T', category: 'SEO', tags: ['test', 'webhook', 'writing-tool'] });
    // Every field the writing tool sends, empty ones as false, and the webhook's schema takes it as it is.
    const example = examplePayload('SEO');
    expect(Object.keys(example).sort()).toEqual(['category', 'excerpt', 'html', 'image_base64', 'image_url', 'markdown', 'slug', 'tags', 'title', 'webhook_name']);
    expect(example).toMatchObject({ markdown: false, slug: false, image_url: false, image_base64: false });
    expect(WebhookPayloadSchema.safeParse(example).success).toBe(true);
  });
});

describe('the webhook test message says what a delivery would do', () => {
  const cases: [string, WebhookTestPreview, string][] = [
    ['a new published post', { action: 'create', title: 'T', status: 'published', path: '/blog/t' }, 'A delivery like this would create a new post “T” (published).'],
    ['a new draft', { action: 'create', title: 'T', status: 'draft', path: '/blog/t' }, 'A delivery like this would create a new post “T” (draft).'],
    ['an update', { action: 'update', title: 'Old title', status: 'published', path: '/blog/old-title' }, 'A delivery like this would update “Old title” (/blog/old-title).'],
    [
      'a category name mapped to an existing one',
      { action: 'create', title: 'T', status: 'published', path: '/blog/t', category: { name: 'Local SEO', sent: 'local seo', mapped: true, created: false, needs_review: false } },
      'A delivery like this would create a new post “T” (published). Category: “Local SEO” (“local seo” matched it).',
    ],
    [
      'a new category held for review',
      { action: 'create', title: 'T', status: 'published', path: '/blog/t', category: { name: 'Drones', sent: 'Drones', mapped: false, created: true, needs_review: true } },
      'A delivery like this would create a new post “T” (published). Category: “Drones” is new: it would be created and held for review before visitors see it.',
    ],
  ];
  it.each(cases)('%s', (_name, preview, description) => {
    expect(testDeliveryMessage(preview)).toEqual({ title: 'Webhook Test Successful!', description });
  });
});
