import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN, HTTP_URL_PATTERN, PHONE_PATTERN, SLUG_PATTERN } from '../../../src/schemas/common.ts';
import { POST_STATUSES } from '../../../src/schemas/post.ts';
import { LOCAL_BUILD_HOOK_PATTERN, NETLIFY_BUILD_HOOK_PATTERN } from '../../../src/schemas/site-setup.ts';
import { ROLES } from '../../../src/schemas/user.ts';

// The SQL constraints and the zod schemas must accept the same values: the patterns are written in both.
const migrationsDir = join(import.meta.dirname, '../../../supabase/migrations');
const sql = readdirSync(migrationsDir)
  .filter((name) => name.endsWith('.sql'))
  .map((name) => readFileSync(join(migrationsDir, name), 'utf8'))
  .join('\n');
const asSqlLiteral = (pattern: RegExp) => `'${pattern.source.replaceAll('\\/', '/').replaceAll("'", "''")}'`;

describe('SQL constraints mirror the zod schemas', () => {
  it.each([
    ['slug', SLUG_PATTERN],
    ['email', EMAIL_PATTERN],
    ['http url', HTTP_URL_PATTERN],
    ['phone', PHONE_PATTERN],
    ['Netlify build hook', NETLIFY_BUILD_HOOK_PATTERN],
    ['local build hook', LOCAL_BUILD_HOOK_PATTERN],
  ])('the %s pattern appears verbatim in the migrations', (_name, pattern) => {
    expect(sql).toContain(asSqlLiteral(pattern));
  });

  it('role values match', () => {
    expect(sql).toContain(`role in ('admin', 'editor', 'viewer')`);
    expect([...ROLES].sort()).toEqual(['admin', 'editor', 'viewer']);
  });

  it('post status values match', () => {
    expect(sql).toContain(`status in ('draft', 'published', 'scheduled')`);
    expect([...POST_STATUSES].sort()).toEqual(['draft', 'published', 'scheduled']);
  });
});
