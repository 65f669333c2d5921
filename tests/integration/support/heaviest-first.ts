/**
 * The order in which the integration files start: the few that take minutes first (they build the site under
 * the project's build lock, serve a site of their own or send thousands of requests), then the rest in Vitest's
 * own order (the last run's durations when it has them, else larger files first). Four workers take files in
 * this order, so a long file started last would run on alone after the others finished. In a working folder this
 * is the order Vitest's durations give (the suite 3:26 to 3:42); in a fresh clone, which has none, it measured
 * within the noise of the size order (4:16 and 4:49 against 4:19 and 4:26), the build files there waiting on each
 * other's cold first builds under the build lock (support/built-site.ts, BUILD_HOOK_TIMEOUT_MS).
 */
import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first, as a fresh clone's run measured them (seconds: 165, 130, 115, 92, 51, 44). */
const HEAVIEST = ['blog-build', 'site-setup', 'local-build-hook', 'wordpress-api-rules', 'local-site-build', 'admin-settings-site'];

export default class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const name = (file: TestSpecification) => basename(file.moduleId, '.test.ts');
    const named = new Set(files.map(name));
    // A file renamed or removed must not quietly drop out of the list. (A run of chosen files names fewer.)
    if (files.length > HEAVIEST.length * 4) {
      const missing = HEAVIEST.filter((heavy) => !named.has(heavy));
      if (missing.length) throw new Error(`tests/integration/support/heaviest-first.ts names files that are gone: ${missing.join(', ')}`);
    }
    const rank = (file: TestSpecification) => {
      const at = HEAVIEST.indexOf(name(file));
      return at === -1 ? HEAVIEST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
