/**
 * The migrations' versions follow the calendar: a migration is named `<UTC timestamp>_<name>.sql` as
 * `supabase migration new` names it, and no version is later than the moment its file entered the repository
 * (the commit that added it, or now for one not committed yet). A version dated ahead would sort after the
 * migrations others make in the meantime, and `supabase db push` refuses a migration older than the last one
 * a hosted database has ("Found local migration files to be inserted before the last migration on remote
 * database"). Names are unique too: the local backend recognizes a renamed migration by its name
 * (supabase/local/postgres.ts). Migrations added before this check existed were dated up to nine days ahead;
 * those still ahead of the calendar on 2026-11-29 were moved back (docs/deploying.md says how a deployed
 * database records the move); the rest keep the versions databases already recorded.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const FOLDER = 'supabase/migrations';
const FILES = readdirSync(join(ROOT, FOLDER)).filter((file) => file.endsWith('.sql')).sort();
/** Files added before the check: their versions stay as databases recorded them. */
const CHECKED_FROM = Date.parse('2026-11-29T05:00:00Z');

/** `20261129000200` as the instant it names (UTC). */
function versionTime(version: string): number {
  const [year, month, day, hour, minute, second] = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(version)!.slice(1).map(Number);
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
}

/** When each migration file was first committed, by file name (git's history; none outside a checkout). */
function addedAt(): Map<string, number> {
  const log = spawnSync('git', ['log', '--no-renames', '--diff-filter=A', '--name-only', '--format=%x00%cI', '--', FOLDER], { cwd: ROOT, encoding: 'utf8' });
  const added = new Map<string, number>();
  if (log.status !== 0) return added;
  for (const entry of log.stdout.split('\0').slice(1)) {
    const [date, ...paths] = entry.trim().split('\n');
    // Newest first: the last entry for a path is the commit that first added it.
    for (const path of paths) if (path) added.set(path.slice(FOLDER.length + 1), Date.parse(date!));
  }
  return added;
}

/** The files dated after they entered the repository (`added`, else `now`), among those added since the check. */
function datedAhead(files: string[], added: Map<string, number>, now: number): string[] {
  return files.flatMap((file) => {
    const at = added.get(file) ?? now;
    if (at < CHECKED_FROM) return [];
    return versionTime(file.slice(0, 14)) > at ? [`${file} (added ${new Date(at).toISOString()})`] : [];
  });
}

describe('migration versions', () => {
  it('are UTC timestamps of 14 digits followed by a snake_case name, each version and each name once', () => {
    for (const file of FILES) expect(file).toMatch(/^\d{14}_[a-z0-9_]+\.sql$/);
    const versions = FILES.map((file) => file.slice(0, 14));
    const names = FILES.map((file) => file.slice(15));
    expect(versions.filter((version, i) => versions.indexOf(version) !== i)).toEqual([]);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it('are never dated after the commit that added their file (or now, for one not committed yet)', () => {
    expect(datedAhead(FILES, addedAt(), Date.now()), 'name a new migration with `npx supabase migration new <name>` (the current UTC time)').toEqual([]);
  });

  it('control: a migration dated tomorrow is refused, committed or not; one dated before its commit passes', () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().replace(/\D/g, '').slice(0, 14);
    const today = new Date(Date.now() - 60_000).toISOString().replace(/\D/g, '').slice(0, 14);
    const files = [`${tomorrow}_not_committed.sql`, `${tomorrow}_committed_now.sql`, `${today}_fine.sql`];
    const added = new Map([[files[1]!, Date.now()], [files[2]!, Date.now()]]);
    expect(datedAhead(files, added, Date.now()).map((line) => line.split(' ')[0])).toEqual(files.slice(0, 2));
  });
});
