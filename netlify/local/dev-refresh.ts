/**
 * What a build is under `npm run dev`. There the site is not `dist/`: `astro dev` renders each page on request,
 * but keeps what it read from the database (the blog, the organization, the list of post pages) in its loaded
 * modules until a source file changes. So the local build hook's "build" under dev (build-hook.ts, started by
 * cli.ts) is a refresh: it marks src/lib/site/build-snapshot.ts, the module every database read of the build
 * goes through, as changed (its modification time, never its content). Vite's watcher then drops the modules
 * that depend on it, so the next request reads afresh, and reloads the open browser tabs, as after any edit of
 * a source file. Nothing is built and nothing can fail but the touch itself.
 */
import { utimesSync } from 'node:fs';
import { join } from 'node:path';

/** The module all the build's database reads go through. */
export const DEV_REFRESH_FILE = join(import.meta.dirname, '../../src/lib/site/build-snapshot.ts');

/** Marks the database reads as changed for astro dev; answers null (a refresh has no failure reason to report). */
export async function refreshAstroDev(log: (line: string) => void): Promise<string | null> {
  const now = new Date();
  utimesSync(DEV_REFRESH_FILE, now, now);
  log('npm run dev renders pages on request: marked the database reads as changed, the next request reads afresh');
  return null;
}
