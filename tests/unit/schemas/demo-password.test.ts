import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NewPasswordValueSchema } from '../../../src/schemas/auth';
import { DEMO_PASSWORD } from '../../fixtures/demo-logins';

const ROOT = join(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the demo password', () => {
  it('follows the password rules, so a demo user who changes it can change it back', () => {
    expect(NewPasswordValueSchema.safeParse(DEMO_PASSWORD).error?.issues ?? []).toEqual([]);
  });

  it('is the one the seed hashes for every demo user', () => {
    const seed = read('supabase/seed.sql');
    const hashed = [...seed.matchAll(/extensions\.crypt\('([^']*)'/g)].map((match) => match[1]);
    expect(hashed).toEqual([DEMO_PASSWORD]);
    expect(seed).toContain(`Demo password for every user: ${DEMO_PASSWORD}.`);
  });

  it('is the one the README gives for the demo logins', () => {
    expect(read('README.md')).toContain(`all with the password \`${DEMO_PASSWORD}\``);
  });
});
