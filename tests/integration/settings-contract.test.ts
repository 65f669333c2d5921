/**
 * The database and the TypeScript schemas accept the same organization settings, both ways, field by field:
 * - every value `public.is_valid_organization_settings` (the column's check) accepts, OrganizationSettingsSchema
 *   accepts too (else a saved setting would stop the sites and functions that read it);
 * - every value the schema accepts is stored as the schema gives it, and the check accepts that (else a save
 *   from the Settings form would fail at the database).
 * The keys, the social networks and the publish modes are read from the SQL functions themselves, so a value
 * added on one side only fails here. `set_webhook_publish_mode` is held to the same list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { OrganizationSettingsSchema, PUBLISH_MODES, SOCIAL_NETWORKS } from '../../src/schemas/organization.ts';
import { withDatabase } from './support/db-fixtures.ts';

let checkSource = '';
let setModeSource = '';
beforeAll(async () => {
  await withDatabase(async (db) => {
    const source = async (schema: string, name: string) =>
      (await db.query<{ prosrc: string }>(
        `select p.prosrc from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1 and p.proname = $2`,
        [schema, name],
      )).rows[0]?.prosrc ?? '';
    checkSource = await source('public', 'is_valid_organization_settings');
    setModeSource = await source('private', 'set_webhook_publish_mode');
  });
  expect(checkSource, 'public.is_valid_organization_settings exists').not.toBe('');
  expect(setModeSource, 'private.set_webhook_publish_mode exists').not.toBe('');
});

/** The quoted words of a SQL list such as `not in ('a', 'b')` or `when 'a', 'b' then`. */
const words = (list: string) => [...list.matchAll(/'([^']*)'/g)].map((m) => m[1]!).sort();
const zodKeys = Object.keys(OrganizationSettingsSchema.shape).sort();

describe('the same names on both sides', () => {
  it('the settings keys of the SQL check are the schema\'s', () => {
    const keys = [...checkSource.matchAll(/when ((?:'[a-z_]+'(?:, )?)+) then/g)].flatMap((m) => words(m[1]!)).sort();
    expect(keys).toEqual(zodKeys);
  });

  it('the social networks of the SQL check are the schema\'s', () => {
    const list = checkSource.match(/link\.key not in \(([^)]*)\)/)?.[1] ?? '';
    expect(words(list)).toEqual(SOCIAL_NETWORKS.map(({ key }) => key).sort());
  });

  it('the publish modes of the SQL check and of set_webhook_publish_mode are the schema\'s', () => {
    const inCheck = checkSource.match(/'publish_mode'\) not in \(([^)]*)\)/)?.[1] ?? '';
    const inSetter = setModeSource.match(/p_mode not in \(([^)]*)\)/)?.[1] ?? '';
    expect(words(inCheck)).toEqual([...PUBLISH_MODES].sort());
    expect(words(inSetter)).toEqual([...PUBLISH_MODES].sort());
  });
});

const long = (n: number) => 'a'.repeat(n);
const url = (host: string) => `https://${host}/path?q=1`;

/** Values to try for each key: what either side should accept, what it should refuse, and the edges. */
const CANDIDATES: Record<string, unknown[]> = {
  blog_title: ['Blog', long(120), long(121), '', '  ', ' Padded ', 42, null, true, ['Blog']],
  blog_description: ['About the blog.', long(500), long(501), '', 7, null],
  contact_email: ['hello@example.com', 'Hello@Example.COM', " o'brien+tag@mail.example.co.uk ", 'no-at.example.com', 'a@b', 'a@-b.com', '', `${long(250)}@b.co`, 5, null],
  contact_phone: ['(404) 555-0142', '+44 20 7946 0958', '555-0142', '1234567', '123456', '1234567890123456', '+1 (470) 555-0199 ext', '  404.555.0142  ', '', `${'1'.repeat(15)}${' '.repeat(30)}`, 4045550142, null],
  booking_embed_url: ['https://book.example.com/widget', 'http://example.com', url('x.example'), 'ftp://example.com', 'example.com', 'https://', 'https:// space.com', '', `https://e.com/${long(2040)}`, `https://e.com/${long(2030)}`, 1, null],
  contact_form_embed_url: ['https://forms.example.com/f/1', 'javascript:alert(1)', '', null],
  social_links: [
    {},
    Object.fromEntries(SOCIAL_NETWORKS.map(({ key }) => [key, url(`${key}.com`)])),
    { facebook: 'https://facebook.com/acme' },
    { facebook: 'facebook.com/acme' },
    { myspace: 'https://myspace.com/acme' },
    { twitter: 5 },
    { linkedin: '' },
    { youtube: null },
    [],
    'https://facebook.com/acme',
    null,
  ],
  webhook: [
    {},
    ...PUBLISH_MODES.map((publish_mode) => ({ publish_mode })),
    { publish_mode: 'later' },
    { publish_mode: 'PUBLISH' },
    { publish_mode: '' },
    { publish_mode: null },
    { publish_mode: 1 },
    { publish_mode: 'publish', author: 'x' },
    'publish',
    null,
  ],
};

/** Whether the database's check accepts a settings document. */
async function databaseAccepts(settings: unknown): Promise<boolean> {
  return withDatabase(async (db) => (await db.query<{ ok: boolean }>('select public.is_valid_organization_settings($1::jsonb) as ok', [JSON.stringify(settings)])).rows[0]!.ok);
}

describe('every settings field, both ways', () => {
  it('has candidates for every key of the schema', () => {
    expect(Object.keys(CANDIDATES).sort()).toEqual(zodKeys);
  });

  const cases = Object.entries(CANDIDATES).flatMap(([key, values]) => values.map((value) => [key, value] as const));
  it.each(cases)('%s = %j', async (key, value) => {
    const document = { [key]: value };
    const parsed = OrganizationSettingsSchema.safeParse(document);
    const stored = await databaseAccepts(document);
    // What the database holds, the sites and functions can read.
    if (stored) expect(parsed.success, `the database accepts ${JSON.stringify(document)}, the schema refuses it: ${parsed.error?.message}`).toBe(true);
    // What the schema lets a form save, the database stores.
    if (parsed.success) expect(await databaseAccepts(parsed.data), `the schema gives ${JSON.stringify(parsed.data)}, the database refuses it`).toBe(true);
  });

  it('refuses unknown keys and non-objects on both sides', async () => {
    for (const document of [{ theme: 'dark' }, [], 'settings', 3]) {
      expect(await databaseAccepts(document)).toBe(false);
      expect(OrganizationSettingsSchema.safeParse(document).success).toBe(false);
    }
  });
});
