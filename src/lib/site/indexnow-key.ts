/**
 * The IndexNow key the site serves (src/pages/[indexnow_key].txt.ts): the organization's key while its
 * submissions are on, read once per build with the anon key (a key in use is public by design: search engines
 * read it from the site), kept as a snapshot like the build's other reads. Null: the site serves no key.
 */
import { createClient } from '@supabase/supabase-js';
import { z } from '../../schemas/zod.ts';
import { publicSupabaseConfig } from '../supabase-config.ts';
import { readWithSnapshot } from './build-snapshot.ts';

type Env = Record<string, string | undefined>;

const KeySchema = z.string().regex(/^[a-f0-9]{32}$/).nullable();

async function readIndexNowKey(organizationId: string, env: Env): Promise<string | null> {
  // The fallback organization (a build without a database organization) has no key.
  if (!z.guid().safeParse(organizationId).success) return null;
  const { url, anonKey } = publicSupabaseConfig(env);
  const client = createClient(url, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { data, error } = await client.from('indexnow_sites').select('key').eq('organization_id', organizationId).eq('enabled', true).maybeSingle();
  if (error) throw new Error(`Cannot read the IndexNow key from ${url}: ${error.message}`);
  return KeySchema.parse((data as { key: string } | null)?.key ?? null);
}

let key: Promise<string | null> | undefined;

/** The key this build's site serves, or null. */
export function getIndexNowKey(organizationId: string, env: Env = process.env): Promise<string | null> {
  key ??= readWithSnapshot('indexnow-key', KeySchema, () => readIndexNowKey(organizationId, env), env);
  return key;
}
