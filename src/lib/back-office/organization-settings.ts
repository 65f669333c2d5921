/**
 * The Settings tab's form: the organization's name, domain and public settings as flat form fields,
 * validated with the zod schemas the SQL constraints mirror, saved under the admin's own session (RLS lets
 * only admins update their organization), then a rebuild of the static site is requested. The save and the
 * rebuild request are told apart: a saved form stays saved when the rebuild request fails.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  OrganizationUpdateSchema,
  SOCIAL_NETWORKS,
  type Organization,
  type OrganizationSettings,
  type SocialNetwork,
} from '../../schemas/organization.ts';

/** The form's fields, all strings (blank = not set); one per social network. */
export type SettingsFormValues = {
  name: string;
  domain: string;
  blog_title: string;
  blog_description: string;
  contact_email: string;
  contact_phone: string;
  booking_embed_url: string;
  contact_form_embed_url: string;
} & Record<SocialNetwork, string>;
export type SettingsField = keyof SettingsFormValues;

/** Per-field messages of a form that cannot be saved. */
export type SettingsFieldErrors = Partial<Record<SettingsField, string>>;

/** The form prefilled from the organization. */
export function settingsFormValues(org: Pick<Organization, 'name' | 'domain' | 'settings'>): SettingsFormValues {
  const s = org.settings ?? {};
  const links = s.social_links ?? {};
  return {
    name: org.name,
    domain: org.domain ?? '',
    blog_title: s.blog_title ?? '',
    blog_description: s.blog_description ?? '',
    contact_email: s.contact_email ?? '',
    contact_phone: s.contact_phone ?? '',
    ...(Object.fromEntries(SOCIAL_NETWORKS.map(({ key }) => [key, links[key] ?? ''])) as Record<SocialNetwork, string>),
    booking_embed_url: s.booking_embed_url ?? '',
    contact_form_embed_url: s.contact_form_embed_url ?? '',
  };
}

/** What the form saves. */
export type SettingsUpdate = { name: string; domain: string | null; settings: OrganizationSettings };

/** What the form saves, or the message of each invalid field. */
export type SettingsParseResult = { ok: true; update: SettingsUpdate } | { ok: false; errors: SettingsFieldErrors };

/**
 * Validates the form. Settings the form does not show (webhook publish mode) are kept from `current`, so
 * saving the form never drops them.
 */
export function parseSettingsForm(values: SettingsFormValues, current: OrganizationSettings = {}): SettingsParseResult {
  const socialLinks = Object.fromEntries(SOCIAL_NETWORKS.map(({ key }) => [key, values[key]]));
  const result = OrganizationUpdateSchema.safeParse({
    name: values.name,
    domain: values.domain,
    settings: {
      ...current,
      blog_title: values.blog_title,
      blog_description: values.blog_description,
      contact_email: values.contact_email,
      contact_phone: values.contact_phone,
      social_links: socialLinks,
      booking_embed_url: values.booking_embed_url,
      contact_form_embed_url: values.contact_form_embed_url,
    },
  });
  if (result.success) return { ok: true, update: { ...result.data, settings: withoutUndefined(result.data.settings) } };
  const errors: SettingsFieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path.at(-1)) as SettingsField;
    if (field in values && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/** JSON drops undefined anyway; removing it here keeps empty social link objects out of the row too. */
function withoutUndefined(settings: OrganizationSettings): OrganizationSettings {
  const links = Object.fromEntries(Object.entries(settings.social_links ?? {}).filter(([, v]) => v !== undefined));
  const rest = Object.fromEntries(Object.entries(settings).filter(([k, v]) => v !== undefined && k !== 'social_links'));
  return (Object.keys(links).length ? { ...rest, social_links: links } : rest) as OrganizationSettings;
}

/** A saved form: the organization as stored. Its site's rebuild was recorded by the same UPDATE (a trigger). */
export interface SettingsSaved {
  organization: Organization;
}

/** The update was not saved (nothing changed); `fieldErrors` names the fields the database refused, if known. */
export class SettingsSaveError extends Error {
  constructor(
    message: string,
    readonly fieldErrors: SettingsFieldErrors = {},
  ) {
    super(message);
    this.name = 'SettingsSaveError';
  }
}

/**
 * Saves the organization (one UPDATE, so nothing is half-saved; the database records the site's rebuild in
 * the same transaction). A refused or failed update throws SettingsSaveError and nothing is saved.
 */
export async function saveOrganizationSettings(
  client: SupabaseClient,
  organizationId: string,
  update: SettingsUpdate,
): Promise<SettingsSaved> {
  const { data, error } = await client
    .from('organizations')
    .update(update) // updated_at is set by the table's trigger
    .eq('id', organizationId)
    .select('id, name, slug, domain, settings')
    .maybeSingle();
  if (error) {
    // Another organization's domain (unique) is the one refusal a valid form can still meet; say so on the field.
    if (error.code === '23505' && /domain/.test(error.message)) {
      throw new SettingsSaveError(`Saving organization ${organizationId} failed: the domain is taken`, { domain: 'Another organization already uses this domain' });
    }
    throw new SettingsSaveError(`Saving organization ${organizationId} failed: ${error.message}`);
  }
  if (!data) throw new SettingsSaveError(`Saving organization ${organizationId} failed: not allowed (admins only)`);
  return { organization: data as Organization };
}
