/**
 * The Settings tab's rules in the database: the SQL check on `organizations.settings` refuses what
 * ContactPhoneSchema refuses (the same table of phones), only an admin of the organization changes its
 * settings, and the tab's save (src/lib/back-office/organization-settings.ts) records the site rebuild in the same
 * transaction (only when something visitors see changed). Attacks go through the raw REST API; each asserts the refusal and that the row is unchanged.
 * Scale Pro's row is restored after every test.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseSettingsForm, saveOrganizationSettings, SettingsSaveError, settingsFormValues, type SettingsFormValues } from '../../src/lib/back-office/organization-settings.ts';
import { ContactPhoneSchema, type Organization } from '../../src/schemas/organization.ts';
import { PHONE_CASES } from '../fixtures/contact-phones.ts';
import { anonClient, directTokenClient, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';

const service = serviceClient();
const COLUMNS = 'id, name, slug, domain, settings';
let original: Organization;
let since: string;

async function scalePro(): Promise<Organization> {
  const { data, error } = await service.from('organizations').select(COLUMNS).eq('id', seed.scalePro).single();
  if (error) throw error;
  return data as Organization;
}

beforeAll(async () => {
  original = await scalePro();
  since = new Date().toISOString();
});

afterEach(async () => {
  await service.from('organizations').update({ name: original.name, domain: original.domain, settings: original.settings }).eq('id', seed.scalePro);
  await service.from('site_rebuild_requests').delete().eq('organization_id', seed.scalePro).gte('requested_at', since);
});

/** An update of Scale Pro's settings through the raw REST API, as `client`. */
function updateSettings(client: SupabaseClient, settings: unknown) {
  return client.from('organizations').update({ settings }).eq('id', seed.scalePro).select('settings');
}

describe('the contact phone, as an admin through REST', () => {
  let admin: SupabaseClient;
  beforeAll(async () => {
    admin = await signedInClient(seed.users.admin.email);
  });

  it.each(PHONE_CASES)('%j is stored: %s (as ContactPhoneSchema decides)', async (phone, valid) => {
    expect(ContactPhoneSchema.safeParse(phone).success).toBe(valid);
    const { data, error } = await updateSettings(admin, { ...original.settings, contact_phone: phone });
    if (valid) {
      expect(error).toBeNull();
      expect(data?.[0]?.settings.contact_phone).toBe(phone);
    } else {
      expect(error?.code).toBe('23514'); // check_violation
      expect((await scalePro()).settings).toEqual(original.settings);
    }
  });

  it('refuses a phone that is not a string, and an unknown settings key', async () => {
    for (const settings of [{ contact_phone: 4045550142 }, { ...original.settings, phone: '(404) 555-0142' }]) {
      const { error } = await updateSettings(admin, settings);
      expect(error?.code).toBe('23514');
    }
    expect((await scalePro()).settings).toEqual(original.settings);
  });
});

describe('who may change the settings', () => {
  it.each<[string, () => Promise<SupabaseClient>]>([
    ['anon', async () => anonClient()],
    ['a viewer of the organization', () => signedInClient(seed.users.viewer.email)],
    ['an editor of the organization', () => signedInClient(seed.users.editor.email)],
    ['an admin of another organization', () => signedInClient(seed.users.otherAdmin.email)],
    ['the admin with a token taken straight from Auth', () => directTokenClient(seed.users.admin.email)],
  ])('refuses %s and changes nothing', async (_who, client) => {
    const attempt = { ...original.settings, contact_phone: '(404) 555-9999', social_links: { youtube: 'https://youtube.com/@attacker' } };
    const { data, error } = await updateSettings(await client(), attempt);
    // RLS hides the row (no error, no row) or the grant refuses the statement (an error): nothing is written either way.
    expect(error !== null || data?.length === 0).toBe(true);
    const after = await scalePro();
    expect(after.settings).toEqual(original.settings);
  });
});

describe('saving the Settings form (saveOrganizationSettings)', () => {
  /** The update the tab saves after these edits of the prefilled form. */
  function formUpdate(changes: Partial<SettingsFormValues>) {
    const parsed = parseSettingsForm({ ...settingsFormValues(original), ...changes }, original.settings);
    if (!parsed.ok) throw new Error(`form invalid: ${JSON.stringify(parsed.errors)}`);
    return parsed.update;
  }
  const settingsRequests = async (from: string) => {
    const { count } = await service.from('site_rebuild_requests').select('id', { count: 'exact', head: true })
      .eq('organization_id', seed.scalePro).eq('reason', 'Site settings saved').gte('requested_at', from);
    return count;
  };

  it('saves the phone and every social link, and the same transaction records the site rebuild', async () => {
    const from = new Date().toISOString();
    const admin = await signedInClient(seed.users.admin.email);
    const update = formUpdate({ contact_phone: '+1 404 555 0199', youtube: 'https://www.youtube.com/@saved' });
    const saved = await saveOrganizationSettings(admin, seed.scalePro, update);
    expect(saved.organization.settings).toMatchObject({ contact_phone: '+1 404 555 0199', social_links: { youtube: 'https://www.youtube.com/@saved' } });
    expect((await scalePro()).settings).toEqual(saved.organization.settings);
    expect(await settingsRequests(from)).toBe(1);
  });

  it('records no rebuild when nothing visitors see changed (the same values saved again)', async () => {
    const admin = await signedInClient(seed.users.admin.email);
    await saveOrganizationSettings(admin, seed.scalePro, formUpdate({ contact_phone: '(404) 555-0123' }));
    const from = new Date().toISOString();
    await saveOrganizationSettings(admin, seed.scalePro, formUpdate({ contact_phone: '(404) 555-0123' }));
    expect(await settingsRequests(from)).toBe(0);
  });

  it('throws for a non-admin and saves nothing', async () => {
    const editor = await signedInClient(seed.users.editor.email);
    await expect(saveOrganizationSettings(editor, seed.scalePro, formUpdate({ contact_phone: '(404) 555-0123' }))).rejects.toBeInstanceOf(SettingsSaveError);
    expect((await scalePro()).settings).toEqual(original.settings);
  });

  it('puts a domain another organization uses on the domain field, and saves nothing', async () => {
    const { data: other } = await service.from('organizations').select('domain').eq('id', seed.evergreen).single();
    await service.from('organizations').update({ domain: 'evergreen-settings.test' }).eq('id', seed.evergreen);
    try {
      const admin = await signedInClient(seed.users.admin.email);
      const error = await saveOrganizationSettings(admin, seed.scalePro, formUpdate({ domain: 'evergreen-settings.test', contact_phone: '(404) 555-0123' })).catch((e) => e);
      expect(error).toBeInstanceOf(SettingsSaveError);
      expect(error.fieldErrors).toEqual({ domain: 'Another organization already uses this domain' });
      expect(await scalePro()).toEqual(original);
    } finally {
      await service.from('organizations').update({ domain: other?.domain ?? null }).eq('id', seed.evergreen);
    }
  });
});
