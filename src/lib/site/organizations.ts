/**
 * The organization the build shows, with its settings: chosen by the one rule (src/lib/shown-organization.ts),
 * then only its own settings are read, once per build.
 */
import { z } from '../../schemas/zod.ts';
import { OrganizationSchema, OrganizationSettingsSchema } from '../../schemas/organization.ts';
import { readWithSnapshot } from './build-snapshot.ts';
import { publicSupabaseConfig } from '../supabase-config.ts';
import { FALLBACK_ORGANIZATION, type Organization } from '../host-match.ts';
import { chooseSiteOrganization, describeRow, type Env, listOrganizations, readOrganizations } from '../shown-organization.ts';

/**
 * The organization a site shows with its settings: chosen among the identities, then only its own settings
 * are read and validated (a mismatch there fails this site's build, naming the organization and the field).
 */
export async function readSiteOrganization(env: Env = process.env): Promise<Organization> {
  const chosen = chooseSiteOrganization(await listOrganizations(env), env);
  if (chosen.id === FALLBACK_ORGANIZATION.id) return chosen as Organization;
  const { url } = publicSupabaseConfig(env);
  const [row] = await readOrganizations(env, undefined, 'settings', (query) => query.eq('id', chosen.id));
  const settings = OrganizationSettingsSchema.safeParse(row?.settings ?? {});
  if (!settings.success) {
    throw new Error(`Organization ${describeRow(chosen)} from ${url} has settings this site cannot show: ${z.prettifyError(settings.error).replaceAll('\n', ' ')}`);
  }
  return { ...chosen, settings: settings.data };
}

let siteOrganization: Promise<Organization> | undefined;

/** The organization this build shows; read once per build (kept as a snapshot, see build-snapshot.ts). */
export function getSiteOrganization(env: Env = process.env): Promise<Organization> {
  siteOrganization ??= readWithSnapshot('site-organization', OrganizationSchema, () => readSiteOrganization(env), env);
  return siteOrganization;
}
