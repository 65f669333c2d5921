/**
 * The backend the browser tests prepare data in: SUPABASE_URL (else the local default) with the service key.
 * Tests create their own users and invitations here and remove them afterwards, so the seed stays as it was.
 */
import { createHash } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import { signIn } from '../../../src/lib/server/sign-in.ts';
import { sessionStorageKey } from '../../../src/lib/supabase-config.ts';
import { LOCAL_SUPABASE } from '../../../src/lib/server/service-config.ts';
import { DEMO_PASSWORD } from '../../fixtures/demo-logins.ts';

export const backendUrl = process.env.SUPABASE_URL || LOCAL_SUPABASE.url;
const serviceKey = process.env.SUPABASE_SERVICE_ROLE_KEY || LOCAL_SUPABASE.serviceRoleKey;
export const anonKey = process.env.PUBLIC_SUPABASE_ANON_KEY || LOCAL_SUPABASE.anonKey;

export const SCALE_PRO_ID = '10000000-0000-4000-8000-000000000001';
export const SEED_ADMIN_ID = '20000000-0000-4000-8000-000000000001';
/** The seeded users' password; the users a test creates get it too. */
export const PASSWORD = DEMO_PASSWORD;

export const service = createClient(backendUrl, serviceKey, { auth: { persistSession: false, autoRefreshToken: false } });

/**
 * A confirmed user of Scale Pro with a role, created for one test; named `E2E <role>` unless the test names it
 * (a name of its own tells its entries from those of earlier runs in a backend that is not reset).
 */
export async function createUser(role: 'admin' | 'editor' | 'viewer', name = `E2E ${role}`) {
  const email = `e2e-${role}-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
  const { data, error } = await service.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
    user_metadata: { full_name: name },
    app_metadata: { organization_id: SCALE_PRO_ID, role },
  });
  if (error || !data.user) throw new Error(`creating ${email} failed: ${error?.message}`);
  return { id: data.user.id, email };
}

/** Removes a test user (by address, so users created through the UI can be removed too) and their traces. */
export async function removeUser(email: string): Promise<void> {
  await service.from('login_attempts').delete().eq('email', email);
  const { data } = await service.from('profiles').select('id').eq('email', email).maybeSingle();
  if (!data) return;
  await service.from('user_activity_logs').delete().eq('user_id', data.id);
  const { error } = await service.auth.admin.deleteUser(data.id);
  if (error) throw new Error(`deleting ${email} failed: ${error.message}`);
}

/** The newest mail to an address in the local backend's outbox. */
export async function latestMail(to: string): Promise<{ type: string; subject: string; text: string; link: string | null } | undefined> {
  const response = await fetch(`${backendUrl}/__local/outbox?to=${encodeURIComponent(to)}`, {
    headers: { apikey: serviceKey, authorization: `Bearer ${serviceKey}` },
  });
  if (!response.ok) throw new Error(`the outbox answered ${response.status}`);
  return (await response.json())[0];
}

/** Stores an invitation to Scale Pro from the seed admin (for a fresh address by default); returns the link token and the row id. */
export async function createInvitation(role: 'admin' | 'editor' | 'viewer', email = `e2e-invited-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`) {
  const token = crypto.randomUUID();
  const { data, error } = await service
    .from('user_invitations')
    .insert({
      organization_id: SCALE_PRO_ID,
      email,
      role,
      token_hash: createHash('sha256').update(token).digest('hex'),
      invited_by: SEED_ADMIN_ID,
    })
    .select('id')
    .single();
  if (error) throw new Error(`creating an invitation failed: ${error.message}`);
  return { token, email, id: data.id as string };
}

/**
 * A session for a user, to put into the browser's storage as supabase-js keeps it: made by the app's own
 * sign-in path (src/lib/server/sign-in.ts), since only sessions it vouches for read data.
 */
export async function passwordSession(email: string) {
  const auth = { url: backendUrl, anonKey };
  const outcome = await signIn(service, auth, { email, password: PASSWORD }, { ip: null, userAgent: 'e2e-tests' });
  if (outcome.kind !== 'granted') throw new Error(`signing in ${email} failed: ${outcome.kind}`);
  return outcome.session;
}

/** supabase-js's localStorage key for this backend (`sb-<first label of the host>-auth-token`). */
export const storageKey = sessionStorageKey(backendUrl);

/**
 * An organization of its own with a new admin (also a member of Scale Pro, as createUser makes every user),
 * for a test whose assertion another test's data could change (the last active admin, a build left waiting).
 * `remove` deletes the user and the organization with everything that belongs to it.
 */
export async function organizationOfItsOwn(name: string) {
  const organization = { id: crypto.randomUUID(), name, slug: `e2e-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${crypto.randomUUID().slice(0, 8)}` };
  const admin = await createUser('admin');
  const inserted = await service.from('organizations').insert(organization);
  if (inserted.error) throw new Error(`creating ${organization.slug} failed: ${inserted.error.message}`);
  const joined = await service.from('organization_memberships').insert({ user_id: admin.id, organization_id: organization.id, role: 'admin' });
  if (joined.error) throw new Error(`making ${admin.email} an admin of ${organization.slug} failed: ${joined.error.message}`);
  // A team of its own with room for every build a test makes (a new organization's team has Free's 300 credits).
  const team = await service.rpc('place_site_in_team', { p_organization_id: organization.id, p_team_name: organization.slug, p_monthly_credits: 10_000_000 });
  if (team.error) throw new Error(`giving ${organization.slug} a hosting team failed: ${team.error.message}`);
  return {
    organization,
    admin,
    async remove() {
      await removeUser(admin.email);
      await service.from('organizations').delete().eq('id', organization.id);
    },
  };
}
