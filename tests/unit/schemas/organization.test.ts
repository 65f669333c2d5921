import { describe, expect, it } from 'vitest';
import { PHONE_CASES } from '../../fixtures/contact-phones.ts';
import { ContactPhoneSchema, OrganizationSettingsSchema, OrganizationUpdateSchema, SOCIAL_NETWORKS, SocialLinksSchema } from '../../../src/schemas/organization.ts';

describe('OrganizationSettingsSchema', () => {
  it('accepts the full settings document', () => {
    const settings = {
      blog_title: 'Blog',
      blog_description: 'About marketing',
      contact_email: 'hello@scalepromarketing.com',
      contact_phone: '(404) 555-0142',
      social_links: { facebook: 'https://facebook.com/x', youtube: 'https://youtube.com/@x' },
      booking_embed_url: 'https://api.leadconnectorhq.com/widget/booking/x',
      contact_form_embed_url: 'https://api.leadconnectorhq.com/widget/form/x',
      webhook: { publish_mode: 'draft' },
    };
    expect(OrganizationSettingsSchema.parse(settings)).toEqual(settings);
  });

  it('accepts an empty document and drops blank fields', () => {
    expect(OrganizationSettingsSchema.parse({})).toEqual({});
    expect(OrganizationSettingsSchema.parse({ blog_title: '  ', social_links: { twitter: '' } })).toEqual({ social_links: {} });
  });

  it.each([
    ['unknown key', { secret: 'x' }],
    ['bad email', { contact_email: 'nope' }],
    ['non-http social link', { social_links: { facebook: 'javascript:alert(1)' } }],
    ['unknown social network', { social_links: { myspace: 'https://myspace.com/x' } }],
    ['bad publish mode', { webhook: { publish_mode: 'later' } }],
    ['too long title', { blog_title: 'x'.repeat(121) }],
  ])('refuses %s', (_case, settings) => {
    expect(OrganizationSettingsSchema.safeParse(settings).success).toBe(false);
  });
});

describe('ContactPhoneSchema', () => {
  it.each(PHONE_CASES)('%j → valid: %s', (phone, valid) => {
    expect(ContactPhoneSchema.safeParse(phone).success).toBe(valid);
  });

  it('says what a valid number looks like', () => {
    expect(ContactPhoneSchema.safeParse('-------').error?.issues[0]?.message).toBe('Enter a phone number with 7 to 15 digits');
    expect(ContactPhoneSchema.safeParse('abc').error?.issues[0]?.message).toBe('Enter a valid phone number');
  });

  it('trims, and a blank phone in the settings means none', () => {
    expect(ContactPhoneSchema.parse('  (404) 555-0142 ')).toBe('(404) 555-0142');
    expect(OrganizationSettingsSchema.parse({ contact_phone: '   ' })).toEqual({});
  });
});

describe('SocialLinksSchema', () => {
  it('has one optional link per listed network, YouTube included', () => {
    const all = Object.fromEntries(SOCIAL_NETWORKS.map(({ key }) => [key, `https://${key}.com/x`]));
    expect(SocialLinksSchema.parse(all)).toEqual(all);
    expect(SOCIAL_NETWORKS.map(({ key }) => key)).toEqual(['facebook', 'twitter', 'instagram', 'linkedin', 'youtube']);
  });
});

describe('OrganizationUpdateSchema', () => {
  it('turns a blank domain into null and lower-cases it otherwise', () => {
    expect(OrganizationUpdateSchema.parse({ name: 'X', domain: '', settings: {} }).domain).toBeNull();
    expect(OrganizationUpdateSchema.parse({ name: 'X', domain: 'Example.COM', settings: {} }).domain).toBe('example.com');
  });
  it('requires a name', () => {
    expect(OrganizationUpdateSchema.safeParse({ name: ' ', domain: null, settings: {} }).success).toBe(false);
  });
});
