/**
 * Security headers for every path of the built site, written to `_headers` in the output (Netlify and
 * `netlify serve` read it from the publish folder). The Content-Security-Policy is computed after the
 * pages are written, from their inline scripts (see src/lib/site/content-security-policy.ts), so it stays right
 * when code changes; a script inside a post's own content fails the build instead of being allowed. One policy for every path: rewritten pages (`/admin/blog/preview/*`) and 404s for
 * unknown paths get it too, and each hash only ever allows a script of this very build. Astro's own
 * `security.csp` would give a `<meta>` policy (which cannot carry frame-ancestors) or, through the adapter's
 * `staticHeaders`, one header per prerendered route, leaving rewritten and unknown paths without a policy.
 *
 * `/_astro/*` (content-hashed files) is marked immutable by the Netlify adapter (`.netlify/v1/config.json`).
 */
import { appendFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { contentSecurityPolicy, inlineScriptHashes, scriptsInPostContent } from '../lib/site/content-security-policy.ts';
import { embedUrls, PROVIDER_SCRIPT_URL } from '../lib/site/embeds.ts';
import { getSiteOrganization } from '../lib/site/organizations.ts';
import { publicSupabaseConfig } from '../lib/supabase-config.ts';

/** Pages read at once when collecting the inline scripts. */
const PARALLEL_READS = 16;

/** Two years, the max-age hstspreload.org recommends. */
const HSTS_MAX_AGE_SECONDS = 63_072_000;

/**
 * Browser features no page uses, switched off for the pages and every frame in them. Fullscreen and
 * autoplay are left to their defaults so embedded video players keep working.
 */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
].join(', ');

/** The headers every path gets, given the site's Content-Security-Policy. */
export function headersForEveryPath(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Strict-Transport-Security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  };
}

/** A `_headers` rule: the path pattern, then one indented `Name: value` line per header. */
export function netlifyHeadersRule(path: string, headers: Record<string, string>): string {
  return `${path}\n${Object.entries(headers).map(([name, value]) => `  ${name}: ${value}\n`).join('')}`;
}

/** The policy for the pages in `dir`: their inline scripts, this build's backend and the organization's embeds. */
async function policyForBuild(dir: URL, env: Record<string, string | undefined>): Promise<{ csp: string; pages: number; hashes: number }> {
  const root = fileURLToPath(dir);
  const pages = ((await readdir(root, { recursive: true })) as string[]).filter((file) => file.endsWith('.html'));
  const hashes = new Set<string>();
  const tainted: string[] = [];
  // Read several pages at a time: at 10,000 posts there are 17,000 pages, and one read after the other took seconds.
  let next = 0;
  const reader = async () => {
    while (next < pages.length) {
      const page = pages[next++]!;
      const html = await readFile(join(root, page), 'utf8');
      if (scriptsInPostContent(html) > 0) tainted.push(page);
      for (const hash of inlineScriptHashes(html)) hashes.add(hash);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_READS }, reader));
  if (tainted.length > 0) {
    throw new Error(
      `Post content would run a script on ${tainted.length} page(s) (${tainted.slice(0, 5).join(', ')}): the build stops rather than allow it by hash. ` +
        'Post HTML is sanitized where it is rendered (sanitizeArticleHtml), so a script there means sanitizing failed.',
    );
  }
  const embeds = embedUrls(await getSiteOrganization(env));
  const frames = [embeds.booking, embeds.contactForm].filter((url): url is string => url !== null);
  const csp = contentSecurityPolicy({
    scriptHashes: [...hashes],
    backendUrl: publicSupabaseConfig(env).url,
    embedUrls: frames,
    embedScriptUrl: frames.length > 0 ? PROVIDER_SCRIPT_URL : null,
  });
  return { csp, pages: pages.length, hashes: hashes.size };
}

/** The integration: writes the rule once the pages are built. */
export function securityHeaders(): AstroIntegration {
  return {
    name: 'security-headers',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const { csp, pages, hashes } = await policyForBuild(dir, process.env);
        await appendFile(new URL('_headers', dir), `\n# Security headers (src/integrations/security-headers.ts)\n${netlifyHeadersRule('/*', headersForEveryPath(csp))}`);
        logger.info(`Wrote security headers to _headers: CSP with ${hashes} inline script hash(es) from ${pages} page(s)`);
      },
    },
  };
}
