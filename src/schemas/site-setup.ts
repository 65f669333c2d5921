import { z } from './zod.ts';
import { EmailSchema, SlugSchema } from './common.ts';
import { HostingTeamInputSchema, NETLIFY_PLANS } from './hosting-team.ts';
import { DomainSchema } from './organization.ts';
import { WebhookTokenSchema } from './webhook.ts';

/** A Netlify build hook (site_rebuild_settings' check, migration 20261123000300_sign_in_attempts.sql). */
export const NETLIFY_BUILD_HOOK_PATTERN = /^https:\/\/api\.netlify\.com\/build_hooks\/[A-Za-z0-9_-]{1,100}$/;
/** The local servers' own build hook (netlify/local/build-hook.ts), the only other hook the database accepts. */
export const LOCAL_BUILD_HOOK_PATTERN = /^http:\/\/(127\.0\.0\.1|localhost)(:[0-9]{1,5})?\/[^\s]*$/;

/** A build hook URL as site_rebuild_settings stores it. */
export const BuildHookUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((url) => NETLIFY_BUILD_HOOK_PATTERN.test(url) || LOCAL_BUILD_HOOK_PATTERN.test(url), {
    message: 'Enter a Netlify build hook URL like https://api.netlify.com/build_hooks/<id>',
  });

/** `npm run site:add`'s arguments (tools/site-add.ts): one client's organization and Netlify site. */
export const SiteSetupSchema = z
  .object({
    /** The organization's name, as the site and the back office show it; with the slug, says which organization a run means. */
    name: z.string().trim().min(1, 'The name is required').max(120),
    /** The organization's slug: the Netlify site's SITE_ORG, and how a second run finds the organization. */
    slug: SlugSchema.max(63),
    /** The site's primary domain on Netlify (`www.example.com` when that is the primary), stored as confirmed. */
    domain: DomainSchema,
    /** IANA time zone of the publishing queue and the back office's times (the database knows which exist). */
    timeZone: z.string().trim().min(1, 'The time zone is required').max(64),
    /** The first admin's address: invited as admin unless already one. */
    admin: EmailSchema,
    /** The Netlify site's build hook; a run without one keeps the stored one. */
    buildHook: BuildHookUrlSchema.optional(),
    /** A Netlify site id or name: the settings are also written with the logged-in Netlify CLI. */
    netlifySite: z.string().trim().regex(/^[A-Za-z0-9._-]{1,100}$/, 'Enter a Netlify site id or name').optional(),
    /** The hosting team (the Netlify team whose credits the site shares), made when new; without it the site's own team. */
    team: HostingTeamInputSchema.shape.name.optional(),
    /** The team's plan, which sets its monthly credits (unless `monthlyCredits` says otherwise). */
    plan: z.enum(NETLIFY_PLANS.map((plan) => plan.id), { message: `Enter one of ${NETLIFY_PLANS.map((plan) => plan.id).join(', ')}` }).optional(),
    monthlyCredits: HostingTeamInputSchema.shape.monthly_credits.optional(),
    creditsPerDeploy: HostingTeamInputSchema.shape.credits_per_deploy.optional(),
    cycleDay: HostingTeamInputSchema.shape.cycle_start_day.optional(),
    buildShare: HostingTeamInputSchema.shape.build_share_percent.optional(),
    autoRecharge: z.boolean().optional(),
  })
  .strict();
export type SiteSetup = z.infer<typeof SiteSetupSchema>;

/** `npm run site:check`'s arguments (tools/site-check.ts). */
export const SiteCheckSchema = z
  .object({
    /** The deployed site's address; only its origin is used. */
    siteUrl: z.url({ protocol: /^https?$/, error: 'Enter the site address, like https://www.example.com' }).max(2048),
    /** A webhook token of the site's organization: the webhook's dry run is checked with it. */
    token: WebhookTokenSchema.optional(),
  })
  .strict();
export type SiteCheck = z.infer<typeof SiteCheckSchema>;
