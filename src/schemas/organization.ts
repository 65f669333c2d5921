import { z } from './zod.ts';
import { blankAsUndefined, EmailSchema, HttpUrlSchema, PhoneSchema, SlugSchema } from './common.ts';

/**
 * The social networks an organization can link to, in the order the Settings form and the footer list them.
 * The SQL check `is_valid_organization_settings` allows exactly these keys under `social_links`.
 */
export const SOCIAL_NETWORKS = [
  { key: 'facebook', label: 'Facebook' },
  { key: 'twitter', label: 'Twitter' },
  { key: 'instagram', label: 'Instagram' },
  { key: 'linkedin', label: 'LinkedIn' },
  { key: 'youtube', label: 'YouTube' },
] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number]['key'];

/** Links to the organization's social profiles, each an http(s) URL; every one saved is shown in the footer. */
export const SocialLinksSchema = z
  .object(
    Object.fromEntries(SOCIAL_NETWORKS.map(({ key }) => [key, blankAsUndefined(HttpUrlSchema)])) as Record<
      SocialNetwork,
      ReturnType<typeof blankAsUndefined<typeof HttpUrlSchema>>
    >,
  )
  .strict();
export type SocialLinks = z.infer<typeof SocialLinksSchema>;

/** Digits a contact phone has: at least a local number's 7, at most E.164's 15 (the SQL check says the same). */
export const CONTACT_PHONE_DIGITS = { min: 7, max: 15 } as const;

/**
 * The public contact phone as people type it ("(404) 555-0142", "+44 20 7946 0958"): the shared phone
 * characters, and 7 to 15 digits so its `tel:` link dials something.
 */
export const ContactPhoneSchema = PhoneSchema.refine((phone) => {
  const digits = phone.replace(/\D/g, '').length;
  return digits >= CONTACT_PHONE_DIGITS.min && digits <= CONTACT_PHONE_DIGITS.max;
}, `Enter a phone number with ${CONTACT_PHONE_DIGITS.min} to ${CONTACT_PHONE_DIGITS.max} digits`);

/**
 * What a delivery from the writing tool does: publish at once, save as a draft for review, or join the
 * publishing queue. The SQL check `is_valid_organization_settings` and `set_webhook_publish_mode` accept
 * exactly these.
 */
export const PUBLISH_MODES = ['publish', 'draft', 'queue'] as const;
export type PublishMode = (typeof PUBLISH_MODES)[number];

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
    /** Public contact address (home and contact pages). */
    contact_email: blankAsUndefined(EmailSchema),
    /** Public phone number (home and contact pages, as a `tel:` link); edited in Settings. */
    contact_phone: blankAsUndefined(ContactPhoneSchema),
    social_links: SocialLinksSchema.optional(),
    /** Booking calendar frame of the lead-management provider. */
    booking_embed_url: blankAsUndefined(HttpUrlSchema),
    /** Contact form frame of the lead-management provider. */
    contact_form_embed_url: blankAsUndefined(HttpUrlSchema),
    /** How posts arriving from the writing tool are stored; no mode means publish. */
    webhook: z.object({ publish_mode: z.enum(PUBLISH_MODES).optional() }).strict().optional(),
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

/**
 * What picks a site's organization: the columns every site and function reads of every organization. Each
 * row is validated on its own, so one organization's data never stops another's site.
 */
export const OrganizationIdentitySchema = z.object({
  id: z.uuid(),
  name: z.string().min(1).max(120),
  slug: SlugSchema.max(63),
  domain: DomainSchema.nullable(),
  /** Whether the operator confirmed the domain: only a confirmed one picks a site's organization. */
  domain_confirmed: z.boolean().optional(),
});
export type OrganizationIdentity = z.infer<typeof OrganizationIdentitySchema>;

/** An organization row as the public site reads it: its identity and its settings (read only for the site it builds). */
export const OrganizationSchema = OrganizationIdentitySchema.extend({ settings: OrganizationSettingsSchema });
export type Organization = z.infer<typeof OrganizationSchema>;

/** `POST /api/admin/rebuild`: the organization whose site the back office asks to rebuild. */
export const RebuildRequestSchema = z.object({ organization_id: z.uuid('organization_id must be a UUID') }).strict();
export type RebuildRequest = z.infer<typeof RebuildRequestSchema>;
