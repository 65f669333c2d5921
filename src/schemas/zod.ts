/**
 * Zod, configured for the site's Content-Security-Policy; browser and build code import `z` from here,
 * never from 'zod' (a lint rule in tests/eslint.config.js keeps it so). Without `jitless`, building the first
 * object schema probes whether `new Function` works, and under a policy without 'unsafe-eval' the browser
 * reports that probe as a violation even though Zod catches the error. Importing `z` from this module runs
 * the setting before any schema of the importing module is built. Parsing stays the same, only without
 * Zod's generated fast path for objects.
 */
// eslint-disable-next-line no-restricted-imports -- the one module that imports Zod itself
import { z } from 'zod';

z.config({ jitless: true });

export { z };
