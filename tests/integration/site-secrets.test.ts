/**
 * The built site carries no server secret: neither the service-role key nor the JWT secret of the local
 * backend (the ones any build without production variables would fall back to) appears in any file of
 * `dist/`, HTML, scripts, styles or data alike. The lint rule in tests/eslint.config.js keeps browser code
 * from importing server modules; this checks the result.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';
import { DIST, BUILD_HOOK_TIMEOUT_MS, ensureBuilt } from './support/built-site.ts';

beforeAll(() => ensureBuilt(), BUILD_HOOK_TIMEOUT_MS);

function allFiles(): string[] {
  return (readdirSync(DIST, { recursive: true }) as string[]).map((file) => join(DIST, file)).filter((file) => statSync(file).isFile());
}

describe('the built site', () => {
  it.each([
    ['the service-role key', LOCAL_SUPABASE.serviceRoleKey],
    ['the JWT secret', LOCAL_SUPABASE.jwtSecret],
  ])('contains no trace of %s', (_what, secret) => {
    const files = allFiles();
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((file) => readFileSync(file).includes(secret))).toEqual([]);
  });

  it('does carry the public anon key, so the check reads the bundles it means to', () => {
    expect(allFiles().some((file) => file.endsWith('.js') && readFileSync(file).includes(LOCAL_SUPABASE.anonKey))).toBe(true);
  });
});
