/**
 * The author card a user edits about themselves (src/lib/back-office/author-profile.ts): saved through the API under
 * row-level security (one's own profile only), with the photo taken from the Media Library; a change the
 * public card shows requests a rebuild of the organizations where the person has published posts, and a
 * change it does not show (a sign-in's last_login) requests none. Only members who write posts (editors and
 * admins somewhere) have one: a viewer's writes of it are refused through the raw API.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthorProfile, saveAuthorProfile, type AuthorProfile } from '../../src/lib/back-office/author-profile.ts';
import { createMember, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';

const db = serviceClient();
const since = new Date().toISOString();
const photo = 'http://127.0.0.1:54321/storage/v1/object/public/media/10000000-0000-4000-8000-000000000001/seo-strategies.jpg';
let editor: SupabaseClient;
let original: AuthorProfile;

async function requestsSince(reason: string) {
  const { data, error } = await db.from('site_rebuild_requests').select('organization_id, reason').gte('requested_at', since).eq('reason', reason);
  if (error) throw new Error(error.message);
  return data;
}

beforeAll(async () => {
  editor = await signedInClient(seed.users.editor.email);
  original = await loadAuthorProfile(db, seed.users.editor.id);
});
afterAll(async () => {
  await saveAuthorProfile(db, seed.users.editor.id, original);
  await db.from('site_rebuild_requests').delete().gte('requested_at', since).like('reason', 'Author card changed:%');
});

describe('the author card', () => {
  it('is saved by its owner, photo included, and requests a rebuild where the author has published posts', async () => {
    const saved = await saveAuthorProfile(editor, seed.users.editor.id, { ...original, author_title: 'Head of Content', avatar_url: photo });
    expect(saved).toMatchObject({ author_title: 'Head of Content', avatar_url: photo });
    expect(await requestsSince(`Author card changed: ${original.full_name}`)).toEqual([{ organization_id: seed.scalePro, reason: `Author card changed: ${original.full_name}` }]);
  });

  it('refuses a photo that is not an http(s) address, and changes nothing', async () => {
    await expect(saveAuthorProfile(editor, seed.users.editor.id, { ...original, avatar_url: 'javascript:alert(1)' })).rejects.toThrow();
    expect((await loadAuthorProfile(db, seed.users.editor.id)).avatar_url).toBe(photo);
  });

  it('cannot be changed by someone else through the raw API; nothing is written', async () => {
    const before = await loadAuthorProfile(db, seed.users.admin.id);
    const attempt = await editor.from('profiles').update({ bio: 'Hacked', avatar_url: 'https://evil.example/x.png' }).eq('id', seed.users.admin.id).select('id');
    expect(attempt.data ?? []).toEqual([]);
    expect(await loadAuthorProfile(db, seed.users.admin.id)).toEqual(before);
  });

  it('requests no rebuild for what the card does not show', async () => {
    const before = (await requestsSince(`Author card changed: ${original.full_name}`)).length;
    const { error } = await db.from('profiles').update({ last_login: new Date().toISOString() }).eq('id', seed.users.editor.id);
    expect(error).toBeNull();
    expect((await requestsSince(`Author card changed: ${original.full_name}`)).length).toBe(before);
  });
});

describe('a viewer (writes no posts anywhere)', () => {
  const card = { author_title: 'Chief Reader', bio: 'I only read.', author_website: 'https://viewer.example', avatar_url: photo };

  it('cannot set an author card through the raw API, field by field; nothing is written', async () => {
    const viewer = await createMember('viewer');
    try {
      const client = await signedInClient(viewer.email);
      for (const [field, value] of Object.entries(card)) {
        const { error } = await client.from('profiles').update({ [field]: value }).eq('id', viewer.id).select('id');
        expect(error?.code, field).toBe('42501');
      }
      const { data } = await db.from('profiles').select('author_title, bio, author_website, avatar_url').eq('id', viewer.id).single();
      expect(data).toEqual({ author_title: null, bio: null, author_website: null, avatar_url: null });
      // Their own name stays theirs to change.
      expect((await client.from('profiles').update({ full_name: 'Renamed Viewer' }).eq('id', viewer.id).select('id')).error).toBeNull();
    } finally {
      await viewer.remove();
    }
  });

  it('may clear a card left from when they wrote; an editor who becomes a viewer cannot set a new one', async () => {
    const member = await createMember('editor');
    try {
      const client = await signedInClient(member.email);
      expect((await client.from('profiles').update({ author_title: 'Writer', bio: 'Wrote once.' }).eq('id', member.id).select('id')).error).toBeNull();
      expect((await db.from('profiles').update({ role: 'viewer' }).eq('id', member.id)).error).toBeNull();
      const refused = await client.from('profiles').update({ bio: 'Still writing?' }).eq('id', member.id).select('id');
      expect(refused.error?.code).toBe('42501');
      expect((await client.from('profiles').update({ author_title: null, bio: null }).eq('id', member.id).select('id')).error).toBeNull();
      const { data } = await db.from('profiles').select('author_title, bio').eq('id', member.id).single();
      expect(data).toEqual({ author_title: null, bio: null });
    } finally {
      await member.remove();
    }
  });
});
