import { z } from './zod.ts';
import { blankAsUndefined, EmailSchema, HttpUrlSchema, PhoneSchema, SlugSchema } from './common.ts';

/** Links to the organization's social profiles, shown in the site footer. */
export const SocialLinksSchema = z
  .object({
    facebook: blankAsUndefined(HttpUrlSchema),
    twitter: blankAsUndefined(HttpUrlSchema),
    instagram: blankAsUndefined(HttpUrlSchema),
    linkedin: blankAsUndefined(HttpUrlSchema),
    youtube: blankAsUndefined(HttpUrlSchema),
  })
  .strict();

/**
 * `organizations.settings`: everything here is public (the static site shows it). Every key is optional;
 * unknown keys are refused, as the SQL check `is_valid_organization_settings` does.
 */
export const OrganizationSettingsSchema = z
  .object({
    /** Heading of the blog pages. */
    blog_title: blankAsUndefined(z.string().trim().min(1).max(120)),
    /** Introduction under the blog heading and default meta description. */
    blog_description: blankAsUndefined(z.string().trim().min(1).max(500)),
    /** Public contact address (contact page, footer). */
    contact_email: blankAsUndefined(EmailSchema),
    /** Public phone number (contact page, footer). */
    contact_phone: blankAsUndefined(PhoneSchema),
    social_links: SocialLinksSchema.optional(),
    /** Booking calendar frame of the lead-management provider. */
    booking_embed_url: blankAsUndefined(HttpUrlSchema),
    /** Contact form frame of the lead-management provider. */
    contact_form_embed_url: blankAsUndefined(HttpUrlSchema),
    /** How posts arriving from the writing tool are stored: published at once, or kept as drafts. */
    webhook: z.object({ publish_mode: z.enum(['publish', 'draft']).optional() }).strict().optional(),
  })
  .strict();
export type OrganizationSettings = z.infer<typeof OrganizationSettingsSchema>;

/** A host name such as `scalepromarketing.com` (lower case, no scheme or path). */
export const DomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/, 'Enter a domain like example.com');

/** What the Settings tab saves: name, domain (blank means none) and settings. */
export const OrganizationUpdateSchema = z.object({
  name: z.string().trim().min(1, 'Organization name is required').max(120),
  domain: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), DomainSchema.nullable()),
  settings: OrganizationSettingsSchema,
});
export type OrganizationUpdate = z.infer<typeof OrganizationUpdateSchema>;

/** An organization row as the public site reads it. */
export const OrganizationSchema = z.object({
  id: z.uuid(),
  name: z.string().min(1).max(120),
  slug: SlugSchema.max(63),
  domain: DomainSchema.nullable(),
  settings: OrganizationSettingsSchema,
});
export type Organization = z.infer<typeof OrganizationSchema>;

/** `POST /api/admin/rebuild`: the organization whose site the back office asks to rebuild. */
export const RebuildRequestSchema = z
  .object({
    organization_id: z.uuid('organization_id must be a UUID'),
    reason: z.string().trim().min(1).max(200).default('settings saved'),
  })
  .strict();
export type RebuildRequest = z.infer<typeof RebuildRequestSchema>;
