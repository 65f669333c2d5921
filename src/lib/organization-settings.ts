/**
 * The Settings tab's form: the organization's name, domain and public settings as flat form fields,
 * validated with the zod schemas the SQL constraints mirror, saved under the admin's own session (RLS lets
 * only admins update their organization), then a rebuild of the static site is requested.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { OrganizationUpdateSchema, type Organization, type OrganizationSettings } from '../schemas/organization.ts';
import { requestSiteRebuild } from './admin-functions.ts';

/** The form's fields, all strings (blank = not set). */
export interface SettingsFormValues {
  name: string;
  domain: string;
  blog_title: string;
  blog_description: string;
  contact_email: string;
  facebook: string;
  twitter: string;
  instagram: string;
  linkedin: string;
  youtube: string;
  booking_embed_url: string;
  contact_form_embed_url: string;
}
export type SettingsField = keyof SettingsFormValues;

const SOCIAL = ['facebook', 'twitter', 'instagram', 'linkedin', 'youtube'] as const;

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
    facebook: links.facebook ?? '',
    twitter: links.twitter ?? '',
    instagram: links.instagram ?? '',
    linkedin: links.linkedin ?? '',
    youtube: links.youtube ?? '',
    booking_embed_url: s.booking_embed_url ?? '',
    contact_form_embed_url: s.contact_form_embed_url ?? '',
  };
}

/** What the form saves, or the message of each invalid field. */
export type SettingsParseResult =
  | { ok: true; update: { name: string; domain: string | null; settings: OrganizationSettings } }
  | { ok: false; errors: Partial<Record<SettingsField, string>> };

/**
 * Validates the form. Settings the form does not show (contact phone, webhook publish mode) are kept from
 * `current`, so saving the form never drops them.
 */
export function parseSettingsForm(values: SettingsFormValues, current: OrganizationSettings = {}): SettingsParseResult {
  const socialLinks = Object.fromEntries(SOCIAL.map((key) => [key, values[key]]));
  const result = OrganizationUpdateSchema.safeParse({
    name: values.name,
    domain: values.domain,
    settings: {
      ...current,
      blog_title: values.blog_title,
      blog_description: values.blog_description,
      contact_email: values.contact_email,
      social_links: socialLinks,
      booking_embed_url: values.booking_embed_url,
      contact_form_embed_url: values.contact_form_embed_url,
    },
  });
  if (result.success) return { ok: true, update: { ...result.data, settings: withoutUndefined(result.data.settings) } };
  const errors: Partial<Record<SettingsField, string>> = {};
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

/**
 * Saves the organization (one UPDATE, so nothing is half-saved) and asks for a site rebuild. A refused or
 * failed update throws; the rebuild request's failure is thrown too, after the row is saved, naming it.
 */
export async function saveOrganizationSettings(
  client: SupabaseClient,
  organizationId: string,
  update: { name: string; domain: string | null; settings: OrganizationSettings },
): Promise<Organization> {
  const { data, error } = await client
    .from('organizations')
    .update(update) // updated_at is set by the table's trigger
    .eq('id', organizationId)
    .select('id, name, slug, domain, settings')
    .maybeSingle();
  if (error) throw new Error(`Saving organization ${organizationId} failed: ${error.message}`);
  if (!data) throw new Error(`Saving organization ${organizationId} failed: not allowed (admins only)`);
  await requestSiteRebuild(client, organizationId, 'settings saved').catch((error: Error) => {
    throw new Error(`Settings saved, but ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`);
  });
  return data as Organization;
}
