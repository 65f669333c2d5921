/**
 * `npm run site:check -- <site URL> [--token WEBHOOK_TOKEN]` (`--help` prints the options): checks a deployed
 * site as a visitor and as its operator would, one line per check (`ok`, `FAIL` or `skip`, and why), then a
 * summary that counts the failed and the skipped checks; exits 1 when one fails, 2 for bad arguments.
 *
 * 1. organization: the home page names an organization of the database (`<html data-organization-id>`), not
 *    the built-in fallback a build without its organization shows;
 * 2. security headers: the home page carries every header src/integrations/security-headers.ts writes, with
 *    its values (the Content-Security-Policy differs per build: present, with `frame-ancestors 'none'`);
 * 3. functions: every HTTP function answers itself (JSON from the function, not the site's 404 page) with the
 *    status an empty or unsigned call gets; the deploy notifications answer 401 to an unsigned call (503 means
 *    DEPLOY_NOTIFICATION_SECRET is not set);
 * 4. webhook: with `--token`, the webhook's dry run (`?dry_run=1`, writes nothing) accepts a sample article;
 * 5. newsletter: a sign-up's dry run (`?dry_run=1`: the function reads the site's organization as a real
 *    sign-up does, then stores and mails nothing) is accepted;
 * 6. build data: the site's organization, read through the build's own data layer and schema
 *    (`readSiteOrganization`), as the next build will read it: a setting the site cannot show fails here,
 *    naming the field, before a build fails on it. It reads what visitors may read (the public backend
 *    address and anon key: PUBLIC_SUPABASE_URL and PUBLIC_SUPABASE_ANON_KEY, or the local backend for a site
 *    on this machine); else it is skipped with a note;
 * 7. build hook: the organization has a build hook stored. A visitor cannot see it, so this needs the
 *    service role: SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY, or the local backend for a site on this
 *    machine; else it is skipped with a note.
 */
import { parseArgs } from 'node:util';
import { SiteCheckSchema } from '../src/schemas/site-setup.ts';
import { headersForEveryPath } from '../src/integrations/security-headers.ts';
import { isLoopbackUrl } from '../src/lib/server/rebuilds.ts';
import { serviceClient } from '../src/lib/server/service-client.ts';
import { listOrganizations } from '../src/lib/shown-organization.ts';
import { readSiteOrganization } from '../src/lib/site/organizations.ts';

/** What `--help` prints. */
export const SITE_CHECK_USAGE = `Usage: npm run site:check -- SITE_URL [--token WEBHOOK_TOKEN]

Checks a deployed site as a visitor and as its operator: the organization it shows, its security headers, every
function, a newsletter sign-up's dry run, its organization read as the next build reads it, and (with the
service role) its build hook. Nothing is written. Prints one line per check and a summary; exits 1 when a
check fails.

  SITE_URL                 the site's address, like https://www.example.com
  --token WEBHOOK_TOKEN    also run the writing tool's webhook as a dry run (npm run site:add prints the token)
  --help                   this text

Environment: SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY check the build hook; PUBLIC_SUPABASE_URL and
PUBLIC_SUPABASE_ANON_KEY read the organization as the build does (both default to the local backend for a
site on this machine).`;

type Outcome = 'ok' | 'FAIL' | 'skip';
interface Check {
  outcome: Outcome;
  name: string;
  why: string;
}

/**
 * What each HTTP function answers to a call with no credentials and the body `{}` (the admin functions check
 * the request before the caller: 400). publish-scheduled is scheduled, with no address.
 * tests/unit/tools/site-check.test.ts holds this list to netlify/functions.
 */
export const FUNCTION_PROBES: readonly { fn: string; method: 'GET' | 'POST'; path: string; status: number; json: boolean }[] = [
  { fn: 'health', method: 'GET', path: '/api/health', status: 200, json: true },
  { fn: 'deploy-events', method: 'POST', path: '/api/deploy-events', status: 401, json: true },
  { fn: 'auth-sign-in', method: 'POST', path: '/api/auth/sign-in', status: 400, json: true },
  { fn: 'auth-sign-out', method: 'POST', path: '/api/auth/sign-out', status: 400, json: true },
  { fn: 'invitation-details', method: 'GET', path: `/api/invitations/${'x'.repeat(43)}`, status: 404, json: true },
  { fn: 'invitation-accept', method: 'POST', path: '/api/invitations/accept', status: 400, json: true },
  { fn: 'newsletter', method: 'POST', path: '/api/newsletter', status: 400, json: true },
  { fn: 'newsletter-link', method: 'POST', path: '/api/newsletter/confirm', status: 303, json: false },
  { fn: 'post-view', method: 'POST', path: '/api/post-view', status: 400, json: true },
  { fn: 'zimmwriter-webhook', method: 'POST', path: `/api/webhooks/zimmwriter/${'x'.repeat(43)}`, status: 404, json: true },
  { fn: 'admin-invitations', method: 'POST', path: '/api/admin/invitations', status: 400, json: true },
  { fn: 'admin-invitation-actions', method: 'POST', path: '/api/admin/invitation-actions', status: 400, json: true },
  { fn: 'admin-media', method: 'POST', path: '/api/admin/media', status: 400, json: true },
  { fn: 'admin-password-reset', method: 'POST', path: '/api/admin/password-reset', status: 400, json: true },
  { fn: 'admin-rebuild', method: 'POST', path: '/api/admin/rebuild', status: 400, json: true },
  { fn: 'admin-send-due-rebuilds', method: 'POST', path: '/api/admin/send-due-rebuilds', status: 400, json: true },
  { fn: 'admin-users', method: 'POST', path: '/api/admin/users', status: 400, json: true },
  { fn: 'admin-webhook-test', method: 'POST', path: '/api/admin/webhook-test', status: 400, json: true },
  { fn: 'wordpress-api', method: 'GET', path: '/wp-json/wp/v2/users/me', status: 401, json: true },
  { fn: 'xmlrpc', method: 'GET', path: '/xmlrpc.php', status: 405, json: false },
];

/** The article the webhook's dry run is asked about, as the writing tool sends one. */
const SAMPLE_ARTICLE = {
  webhook_name: 'site-check',
  title: 'site:check dry run',
  html: '<p>A dry run of npm run site:check: nothing is saved.</p>',
  markdown: false,
  category: false,
  tags: false,
  slug: false,
  image_url: false,
  image_base64: false,
};

const ok = (name: string, why: string): Check => ({ outcome: 'ok', name, why });
const failed = (name: string, why: string): Check => ({ outcome: 'FAIL', name, why });

/** Fetches without following redirects; a network failure answers status 0 with its reason. */
async function call(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> {
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(60_000), ...init });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    return { status: 0, headers: new Headers(), text: error instanceof Error ? (error.cause as Error | undefined)?.message ?? error.message : String(error) };
  }
}

/** The organization the home page names, and the checks of its headers. */
async function homePage(origin: string): Promise<{ checks: Check[]; organizationId: string | null }> {
  const home = await call(`${origin}/`);
  if (home.status !== 200) return { checks: [failed('home page', `GET / answered ${home.status || home.text}`)], organizationId: null };
  const html = home.text.match(/<html\b[^>]*>/i)?.[0] ?? '';
  const id = html.match(/data-organization-id="([^"]*)"/)?.[1] ?? null;
  const name = html.match(/data-organization-name="([^"]*)"/)?.[1] ?? '';
  const organization = !id
    ? failed('organization', 'the home page names no organization (data-organization-id)')
    : id === 'fallback'
      ? failed('organization', 'the site shows the built-in fallback: its build found no organization (set SITE_ORG)')
      : ok('organization', `the site shows ${name} (${id})`);
  const headers = Object.entries(headersForEveryPath('')).map(([header, expected]) => {
    const actual = home.headers.get(header);
    if (!actual) return failed(`header ${header}`, 'missing');
    if (header === 'Content-Security-Policy') {
      return actual.includes("frame-ancestors 'none'") ? ok(`header ${header}`, 'present') : failed(`header ${header}`, "no frame-ancestors 'none'");
    }
    return actual === expected ? ok(`header ${header}`, actual) : failed(`header ${header}`, `"${actual}", expected "${expected}"`);
  });
  return { checks: [organization, ...headers], organizationId: id && id !== 'fallback' ? id : null };
}

/** Functions called at once: a site's first calls start its functions cold, so a few at a time. */
const PARALLEL_PROBES = 4;

/** Each function's answer to an empty call. */
async function functions(origin: string): Promise<Check[]> {
  const checks: Check[] = [];
  for (let start = 0; start < FUNCTION_PROBES.length; start += PARALLEL_PROBES) {
    checks.push(...(await Promise.all(FUNCTION_PROBES.slice(start, start + PARALLEL_PROBES).map((probe) => functionCheck(origin, probe)))));
  }
  return checks;
}

/** One function's answer to an empty call, against what it answers when it runs. */
async function functionCheck(origin: string, { fn, method, path, status, json }: (typeof FUNCTION_PROBES)[number]): Promise<Check> {
  const init: RequestInit = method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: '{}' } : {};
  const answer = await call(`${origin}${path}`, init);
  const name = `function ${fn}`;
  if (fn === 'deploy-events' && answer.status === 503) return failed(name, 'deploy notifications are not configured: set DEPLOY_NOTIFICATION_SECRET');
  if (answer.status === 0) return failed(name, `${method} ${path}: no answer (${answer.text})`);
  const isJson = /^application\/json\b/.test(answer.headers.get('content-type') ?? '');
  if (answer.status !== status || (json && !isJson)) {
    return failed(name, `${method} ${path} answered ${answer.status}${json && !isJson ? ' without JSON (not the function)' : ''}, expected ${status}`);
  }
  return ok(name, `${method} ${path} answered ${status}`);
}

/** The webhook's dry run for the token. */
async function webhookDryRun(origin: string, token: string | undefined): Promise<Check> {
  if (!token) return { outcome: 'skip', name: 'webhook dry run', why: 'no --token given' };
  const answer = await call(`${origin}/api/webhooks/zimmwriter/${encodeURIComponent(token)}?dry_run=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(SAMPLE_ARTICLE),
  });
  if (answer.status === 404) return failed('webhook dry run', 'the token names no organization (rotated, or another backend?)');
  let body: { dry_run?: boolean; action?: string; status?: string } = {};
  try {
    body = JSON.parse(answer.text);
  } catch {
    // Not JSON: reported below with the status.
  }
  if (answer.status !== 200 || body.dry_run !== true) return failed('webhook dry run', `answered ${answer.status || answer.text}, expected a dry run's 200`);
  return ok('webhook dry run', `a delivery would ${body.action} a post (${body.status}); nothing was written`);
}

/** A newsletter sign-up's dry run: the function reads the site's organization, then stores and mails nothing. */
async function newsletterDryRun(origin: string): Promise<Check> {
  const name = 'newsletter sign-up dry run';
  const answer = await call(`${origin}/api/newsletter?dry_run=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'site-check@example.com' }),
  });
  let message = '';
  try {
    message = (JSON.parse(answer.text) as { message?: string }).message ?? '';
  } catch {
    // Not JSON: reported below with the status.
  }
  if (answer.status !== 200 || !message.startsWith('Dry run:')) return failed(name, `answered ${answer.status || answer.text}${message ? `: ${message}` : ''}, expected a dry run's 200`);
  return ok(name, 'a sign-up would be accepted; nothing was saved or sent');
}

/** The site's organization read through the build's data layer and schema, as its next build will read it. */
async function buildData(origin: string, organizationId: string | null, env: Record<string, string | undefined>): Promise<Check> {
  const name = 'build data';
  if (!env.PUBLIC_SUPABASE_URL && !isLoopbackUrl(origin)) {
    return { outcome: 'skip', name, why: 'set PUBLIC_SUPABASE_URL and PUBLIC_SUPABASE_ANON_KEY (the site\'s own) to read its organization as the build does' };
  }
  if (!organizationId) return failed(name, 'the site shows no organization to read');
  try {
    const organization = (await listOrganizations(env)).find((each) => each.id === organizationId);
    if (!organization) return failed(name, `the build would not find organization ${organizationId} (left out, or not readable)`);
    const read = await readSiteOrganization({ ...env, SITE_ORG: organization.slug });
    return ok(name, `${read.name} (${read.slug}) and its settings read as the build reads them`);
  } catch (error) {
    return failed(name, (error as Error).message);
  }
}

/** Whether the organization has a build hook stored (service role), or why this is not checked. */
async function buildHook(origin: string, organizationId: string | null, env: Record<string, string | undefined>): Promise<Check> {
  const name = 'build hook';
  if (!env.SUPABASE_SERVICE_ROLE_KEY && !isLoopbackUrl(origin)) {
    return { outcome: 'skip', name, why: 'a visitor cannot see it: set SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY to check it' };
  }
  if (!organizationId) return failed(name, 'the site shows no organization to look up');
  const { data, error } = await serviceClient(env)
    .from('site_rebuild_settings')
    .select('build_hook_url')
    .eq('organization_id', organizationId)
    .maybeSingle<{ build_hook_url: string | null }>();
  if (error) return failed(name, `reading site_rebuild_settings failed: ${error.message}`);
  if (!data?.build_hook_url) return failed(name, 'none stored: publishing cannot rebuild the site (npm run site:add -- ... --build-hook URL)');
  return ok(name, `stored (${new URL(data.build_hook_url).host})`);
}

async function main(): Promise<number> {
  let positionals: string[];
  let token: string | undefined;
  try {
    const parsed = parseArgs({ args: process.argv.slice(2), strict: true, allowPositionals: true, options: { token: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
    ({ positionals } = parsed);
    token = parsed.values.token;
    if (parsed.values.help) {
      console.log(SITE_CHECK_USAGE);
      return 0;
    }
  } catch (error) {
    console.error(`site:check: ${(error as Error).message}`);
    console.error('site:check: npm run site:check -- --help lists the options.');
    return 2;
  }
  const args = SiteCheckSchema.safeParse({ siteUrl: positionals[0], token });
  if (!args.success || positionals.length !== 1) {
    const issue = args.error?.issues[0];
    console.error(`site:check: ${issue ? `${issue.path[0] === 'token' ? '--token' : 'site URL'}: ${issue.message}` : 'give one site URL'}`);
    console.error('site:check: npm run site:check -- --help lists the options.');
    return 2;
  }
  const origin = new URL(args.data.siteUrl).origin;
  const home = await homePage(origin);
  const checks = [
    ...home.checks,
    ...(await functions(origin)),
    await webhookDryRun(origin, args.data.token),
    await newsletterDryRun(origin),
    await buildData(origin, home.organizationId, process.env),
    await buildHook(origin, home.organizationId, process.env),
  ];
  for (const { outcome, name, why } of checks) console.log(`${outcome.padEnd(4)} ${name}: ${why}`);
  const failures = checks.filter((check) => check.outcome === 'FAIL').length;
  const skipped = checks.filter((check) => check.outcome === 'skip').length;
  const skippedNote = skipped ? ` (${skipped} skipped: see above)` : '';
  console.log(failures === 0 ? `${origin}: every check passed${skippedNote}.` : `${origin}: ${failures} check(s) failed${skippedNote}.`);
  return failures === 0 ? 0 : 1;
}

if (import.meta.main) process.exitCode = await main();
