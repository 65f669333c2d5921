/**
 * The smaller findings of the second security pass (migration 20261125000600_smaller_findings.sql), each
 * tried as the attacker would and with its control: a JWT without a role is not the service role; no
 * function of `private` is executable by PUBLIC; an admin's new domain stays unconfirmed (and cannot be
 * confirmed by the admin), so it steers no site.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { seed, serviceClient, signedInClient, withDatabase } from './support/db-fixtures.ts';

const service = serviceClient();

describe('who counts as the service role', () => {
  /** private.is_service_caller() under the given request claims (null: no JWT, a direct database session). */
  const asCaller = (claims: object | null) =>
    withDatabase(async (db) => {
      await db.query('begin');
      try {
        if (claims) await db.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)]);
        return (await db.query('select private.is_service_caller() as service')).rows[0].service as boolean;
      } finally {
        await db.query('rollback');
      }
    });

  it('a JWT without a role (a Storage signed-URL token is one) is not the service role', async () => {
    expect(await asCaller({ url: `media/${seed.scalePro}/a.png`, iat: 1_700_000_000, exp: 4_000_000_000 })).toBe(false);
    expect(await asCaller({ role: 'anon' })).toBe(false);
    expect(await asCaller({ role: 'authenticated', sub: seed.users.admin.id })).toBe(false);
  });

  it('control: the service role\'s JWT, and a direct database session with no JWT, are', async () => {
    expect(await asCaller({ role: 'service_role' })).toBe(true);
    expect(await asCaller(null)).toBe(true);
  });
});

describe('functions of the private schema', () => {
  it('none is executable by PUBLIC, and anon may run only what its policies and requests need, and a client calendar link\'s read', async () => {
    await withDatabase(async (db) => {
      const { rows: publicOnes } = await db.query(`
        select p.oid::regprocedure::text as name from pg_catalog.pg_proc p
        where p.pronamespace = 'private'::regnamespace
          and (p.proacl is null or exists (select 1 from pg_catalog.aclexplode(p.proacl) a where a.grantee = 0 and a.privilege_type = 'EXECUTE'))`);
      expect(publicOnes).toEqual([]);
      const { rows: anonOnes } = await db.query(`
        select p.proname from pg_catalog.pg_proc p
        where p.pronamespace = 'private'::regnamespace and has_function_privilege('anon', p.oid, 'EXECUTE') order by 1`);
      // client_calendar: a link's read, by whoever holds its token (tests/integration/client-calendar-links.test.ts).
      expect(anonOnes.map((row) => row.proname)).toEqual(['check_request', 'client_calendar', 'is_published_featured_media']);
    });
  });

  it('a function a later migration puts in private is executable by no one it does not name', async () => {
    await withDatabase(async (db) => {
      await db.query('begin');
      try {
        await db.query('create function private.zz_probe() returns int language sql as $$ select 1 $$');
        const { rows } = await db.query("select has_function_privilege('anon', 'private.zz_probe()', 'EXECUTE') as anon, has_function_privilege('authenticated', 'private.zz_probe()', 'EXECUTE') as member");
        expect(rows[0]).toEqual({ anon: false, member: false });
      } finally {
        await db.query('rollback');
      }
    });
  });
});

describe("an admin's domain", () => {
  const seedDomain = 'scalepromarketing.com';
  afterAll(async () => {
    await service.from('organizations').update({ domain: seedDomain, domain_confirmed: true }).eq('id', seed.scalePro);
  });

  const state = async () => (await service.from('organizations').select('domain, domain_confirmed').eq('id', seed.scalePro).single()).data;

  it('a changed domain is unconfirmed, and the admin cannot confirm it', async () => {
    const admin = await signedInClient(seed.users.admin.email);
    const { error } = await admin.from('organizations').update({ domain: 'another-client.com' }).eq('id', seed.scalePro);
    expect(error).toBeNull();
    expect(await state()).toEqual({ domain: 'another-client.com', domain_confirmed: false });
    const confirm = await admin.from('organizations').update({ domain_confirmed: true }).eq('id', seed.scalePro);
    expect(confirm.error?.code).toBe('42501');
    expect((await state())?.domain_confirmed).toBe(false);
    // Saving other settings keeps the domain as it is, unconfirmed.
    await admin.from('organizations').update({ name: 'Scale Pro Marketing' }).eq('id', seed.scalePro);
    expect((await state())?.domain_confirmed).toBe(false);
  });

  it('control: the operator (service role) confirms it', async () => {
    const { error } = await service.from('organizations').update({ domain_confirmed: true }).eq('id', seed.scalePro);
    expect(error).toBeNull();
    expect((await state())?.domain_confirmed).toBe(true);
  });
});
