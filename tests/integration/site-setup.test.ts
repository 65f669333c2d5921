/**
 * `npm run site:add` and `npm run site:check` (tools/), run as the operator runs them, against the local backend:
 * - site:add sets up a new organization (confirmed domain, default category, time zone, build hook), invites
 *   its first admin (the link printed and in the mail outbox), makes its webhook address, prints the Netlify
 *   settings and the next step, and says first that its output holds secrets; `--help` lists every option;
 *   `--resend-invitation` replaces the pending link; the admin accepts the invitation and signs in through
 *   the auth API; a second identical run writes nothing and says so; `--rotate-webhook-token` makes a new
 *   token; every missing or bad input is named, nothing is written; anon and members cannot call add_site;
 * - the new organization's site, built with SITE_ORG and served as `npm run serve` serves it (netlify/local/cli.ts,
 *   from a copy of the project, with the deploy secret site:add printed), passes site:check (a newsletter
 *   sign-up's dry run and the organization read as the build reads it included, nothing written); site:check
 *   fails when a security header is missing (a front that drops it), when the deploy notifications have no
 *   secret (the deploy-events function itself, answering without DEPLOY_NOTIFICATION_SECRET, behind the same
 *   front), and when the build could not read the organization; its summary counts the skipped checks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectCopy, waitUntilServing } from '../../bench/served-site.ts';
import deployEvents from '../../netlify/functions/deploy-events.mts';
import { FUNCTION_PROBES } from '../../tools/site-check.ts';
import invitationAccept from '../../netlify/functions/invitation-accept.mts';
import { removeMember } from './support/auth-users.ts';
import { anonClient, backend, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const run = Date.now().toString(36);
const site = {
  name: `Site Add ${run}`,
  slug: `site-add-${run}`,
  domain: `www.site-add-${run}.test`,
  timeZone: 'America/Chicago',
  admin: `owner-${run}@site-add.test`,
  hook: `https://api.netlify.com/build_hooks/siteadd${run}`,
};
const ARGS = ['--name', site.name, '--slug', site.slug, '--domain', site.domain, '--time-zone', site.timeZone, '--admin', site.admin, '--build-hook', site.hook];
const service = serviceClient();
const SERVE_PORT = 8897;
/** A site:check run: the served site's functions start cold under `netlify serve`, each on its first call. */
const SITE_CHECK_TIMEOUT = 240_000;

/** Runs a tool as `npm run` runs it (Node 24, the project's folder); not blocking, so a front in this process answers it. */
function tool(name: 'site-add' | 'site-check', args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'tools', `${name}.ts`), ...args], { cwd: ROOT, env: { ...process.env, SITE_URL: '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((done) => child.on('close', (status) => done({ status, stdout, stderr })));
}

/** The webhook token in a printed webhook address. */
const printedToken = (stdout: string) => stdout.match(/^\s*http:\/\/localhost:8888\/api\/webhooks\/zimmwriter\/(whk_[0-9a-f]{64})$/m)?.[1];
/** The last invitation link printed. */
const printedLink = (stdout: string) => stdout.match(/^\s*(http:\/\/localhost:8888\/auth\?invite=(\S+))$/m);
const HELP_HINT = 'site:add: npm run site:add -- --help lists the options.';

/** A printed `NAME=value` line's value. */
const printed = (stdout: string, name: string) => stdout.match(new RegExp(`^\\s*${name}=(.*)$`, 'm'))?.[1];

/**
 * Everything site:add could write: every row of the test's organization and of the one a bad run would
 * create, and what a run could change of the seed's scale-pro, whose slug and domain the bad runs name (its
 * other rows are left out: the database is shared with suites that change them meanwhile).
 */
async function footprint() {
  const { data: orgs, error } = await service.from('organizations').select('*').in('slug', [site.slug, `${site.slug}-bad`]).order('slug');
  if (error) throw new Error(`reading organizations: ${error.message}`);
  const ids = orgs.map((org) => org.id as string);
  const rows = async (table: string, order: string) => {
    const { data, error: failed } = await service.from(table).select('*').in('organization_id', ids).order(order);
    if (failed) throw new Error(`reading ${table}: ${failed.message}`);
    return data;
  };
  return {
    orgs,
    scalePro: (await service.from('organizations').select('name, slug, domain, domain_confirmed').eq('id', seed.scalePro).single()).data,
    queues: await rows('publishing_queues', 'organization_id'),
    hooks: await rows('site_rebuild_settings', 'organization_id'),
    invitations: await rows('user_invitations', 'id'),
    categories: await rows('blog_categories', 'id'),
    rebuildRequests: await rows('site_rebuild_requests', 'id'),
    activity: await rows('user_activity_logs', 'id'),
    adminInvitations: (await service.from('user_invitations').select('id').eq('email', site.admin)).data,
  };
}

let first: Awaited<ReturnType<typeof tool>>;
/** The first admin's invitation link now valid (a resend replaces it). */
let inviteLink = '';
/** The webhook token now valid for the organization (a rotation replaces it). */
let webhookToken = '';
let organizationId = '';
let adminUserId: string | null = null;

beforeAll(async () => {
  first = await tool('site-add', ARGS);
});

afterAll(async () => {
  if (adminUserId) await removeMember({ id: adminUserId, email: site.admin });
  await service.from('organizations').delete().in('slug', [site.slug, `${site.slug}-bad`]);
});

describe('npm run site:add', () => {
  it('sets up the organization, its default category, time zone, build hook and IndexNow key, and invites its first admin', async () => {
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(`${site.name} (${site.slug}) on ${backend.url}: set up.`);
    const org = (await service.from('organizations').select('id, name, slug, domain, domain_confirmed').eq('slug', site.slug).single()).data!;
    organizationId = org.id;
    expect(org).toEqual({ id: org.id, name: site.name, slug: site.slug, domain: site.domain, domain_confirmed: true });
    const categories = (await service.from('blog_categories').select('slug, is_default').eq('organization_id', org.id)).data;
    expect(categories).toEqual([{ slug: 'uncategorized', is_default: true }]);
    expect((await service.from('publishing_queues').select('time_zone').eq('organization_id', org.id).single()).data).toEqual({ time_zone: site.timeZone });
    expect((await service.from('site_rebuild_settings').select('build_hook_url').eq('organization_id', org.id).single()).data).toEqual({ build_hook_url: site.hook });
    // Its IndexNow key, which its site serves, with submissions on.
    expect((await service.from('indexnow_sites').select('key, enabled').eq('organization_id', org.id).single()).data).toMatchObject({ key: expect.stringMatching(/^[a-f0-9]{32}$/), enabled: true });
    // The audit log names the operator's command as the writer of what it did (not "Someone", not the writing tool).
    const logged = (await service.from('user_activity_logs').select('action, user_id, details').eq('organization_id', org.id)).data!;
    expect(logged.map((entry) => entry.action)).toContain('publishing_queue_changed');
    for (const entry of logged) {
      expect(entry.user_id, entry.action).toBeNull();
      expect(entry.details, entry.action).toMatchObject({ via: 'operator' });
      expect(entry.details, entry.action).not.toHaveProperty('by_server');
    }

    const invitations = (await service.from('user_invitations').select('email, role, invited_by, used_at, token_hash').eq('organization_id', org.id)).data!;
    expect(invitations).toHaveLength(1);
    expect(invitations[0]).toMatchObject({ email: site.admin, role: 'admin', invited_by: null, used_at: null });
    const link = printedLink(first.stdout);
    expect(link, first.stdout).not.toBeNull();
    inviteLink = link![1]!;
    expect(createHash('sha256').update(decodeURIComponent(link![2]!)).digest('hex')).toBe(invitations[0]!.token_hash);
    expect(first.stdout).toContain(`Invited ${site.admin} as admin (mailed to ${site.admin}; valid 7 days):`);
    const outbox = await fetch(`${backend.url}/__local/outbox?to=${encodeURIComponent(site.admin)}`, {
      headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` },
    }).then((response) => response.json() as Promise<{ subject: string; text: string }[]>);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ subject: `You're invited to join ${site.name} as Admin` });
    expect(outbox[0]!.text).toContain(link![1]);
  });

  it('prints the Netlify settings as exact values: variables, the build hook, three deploy notifications with one secret', () => {
    expect(printed(first.stdout, 'PUBLIC_SUPABASE_URL')).toBe(backend.url);
    expect(printed(first.stdout, 'PUBLIC_SUPABASE_ANON_KEY')).toBe(backend.anonKey);
    expect(printed(first.stdout, 'SUPABASE_URL')).toBe(backend.url);
    expect(printed(first.stdout, 'SUPABASE_SERVICE_ROLE_KEY')).toBe(backend.serviceRoleKey);
    expect(printed(first.stdout, 'SITE_ORG')).toBe(site.slug);
    const secret = printed(first.stdout, 'DEPLOY_NOTIFICATION_SECRET')!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.stdout).toContain(`Build hook: stored (${site.hook})`);
    for (const event of ['Deploy started', 'Deploy succeeded', 'Deploy failed']) {
      expect(first.stdout).toContain(`${event}: URL https://${site.domain}/api/deploy-events, JWS secret token ${secret}`);
    }
    expect(first.stdout).toContain(`https://${site.domain}/auth`);
  });

  it('says first that the output holds secrets, makes the webhook address with its token, and ends with the next step', async () => {
    expect(first.stdout.split('\n')[0]).toBe('This output holds secrets (the service-role key, the deploy secret, a webhook token): keep it private.');
    webhookToken = printedToken(first.stdout)!;
    expect(webhookToken, first.stdout).toMatch(/^whk_[0-9a-f]{64}$/);
    const { data } = await service.from('webhook_integrations').select('token_hash').eq('organization_id', organizationId).single();
    expect(data?.token_hash).toBe(createHash('sha256').update(webhookToken).digest('hex'));
    const lines = first.stdout.trim().split('\n');
    expect(lines.slice(-2)).toEqual([
      'Next: set these on the Netlify site (or run again with --netlify-site <site id>) and deploy it, then check it:',
      `  npm run site:check -- http://localhost:8888 --token ${webhookToken}`,
    ]);
  });

  it('--help prints every option and writes nothing', async () => {
    const before = await footprint();
    const help = await tool('site-add', ['--help']);
    expect(help.status).toBe(0);
    for (const option of ['--name', '--slug', '--domain', '--time-zone', '--admin', '--build-hook', '--netlify-site', '--rotate-webhook-token', '--resend-invitation']) {
      expect(help.stdout).toContain(option);
    }
    expect(await footprint()).toEqual(before);
  });

  it('names every missing option at once, then where the options are listed, and writes nothing', async () => {
    const before = await footprint();
    const refused = await tool('site-add', []);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([
      'site:add: --name: missing', 'site:add: --slug: missing', 'site:add: --domain: missing', 'site:add: --time-zone: missing', 'site:add: --admin: missing', HELP_HINT,
    ]);
    expect(await footprint()).toEqual(before);
  });

  it('run again before the admin accepted: no second invitation, nothing changed', async () => {
    const before = await footprint();
    const again = await tool('site-add', ARGS);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`${site.name} (${site.slug}) on ${backend.url}: nothing changed, it is set up as given.`);
    expect(again.stdout).toMatch(new RegExp(`^${site.admin} already has a pending invitation \\(until .+; its link was printed by the run that made it\\): no new one\\. --resend-invitation sends it again with a new link\\.$`, 'm'));
    expect(again.stdout).toContain('Webhook address: made by an earlier run');
    expect(printedToken(again.stdout)).toBeUndefined();
    expect(await footprint()).toEqual(before);
  });

  it('--resend-invitation sends the pending invitation again with a new link; the old link no longer opens it', async () => {
    const resent = await tool('site-add', [...ARGS, '--resend-invitation']);
    expect(resent.stderr).toBe('');
    expect(resent.status).toBe(0);
    expect(resent.stdout).toContain(`Sent the invitation again, with a new link (the old one no longer works), to ${site.admin} as admin (mailed to ${site.admin}; valid 7 days):`);
    const link = printedLink(resent.stdout)![1]!;
    expect(link).not.toBe(inviteLink);
    const hashOf = (url: string) => createHash('sha256').update(decodeURIComponent(new URL(url).searchParams.get('invite')!)).digest('hex');
    const { data: invitations } = await service.from('user_invitations').select('token_hash').eq('organization_id', organizationId);
    expect(invitations).toEqual([{ token_hash: hashOf(link) }]);
    inviteLink = link;
  });

  it('its admin accepts the invitation and signs in through the auth API, an admin of the new organization', async () => {
    const token = decodeURIComponent(new URL(inviteLink).searchParams.get('invite')!);
    const password = 'Site-Add-Password-2026!';
    const accepted = await invitationAccept(new Request('http://localhost/api/invitations/accept', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-nf-client-connection-ip': '192.0.2.90' },
      body: JSON.stringify({ token, full_name: 'Site Owner', password }),
    }));
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ role: 'admin', organization: { id: organizationId, name: site.name } });
    adminUserId = (await service.from('profiles').select('id').eq('email', site.admin).single()).data!.id;

    const client = anonClient();
    const signedIn = await client.auth.signInWithPassword({ email: site.admin, password });
    expect(signedIn.error).toBeNull();
    const admin = await signedInClient(site.admin, password);
    const memberships = await admin.from('organization_memberships').select('organization_id, role, is_active').eq('user_id', adminUserId);
    expect(memberships.data).toEqual([{ organization_id: organizationId, role: 'admin', is_active: true }]);
    // An admin's right through row-level security: the organization's build hook is readable to its admins only.
    expect((await admin.from('site_rebuild_settings').select('build_hook_url').eq('organization_id', organizationId)).data).toEqual([{ build_hook_url: site.hook }]);
  });

  it('a second identical run changes nothing and says so, printing the same values', async () => {
    const before = await footprint();
    const second = await tool('site-add', ARGS);
    expect(second.stderr).toBe('');
    expect(second.status).toBe(0);
    expect(second.stdout).toContain(`${site.name} (${site.slug}) on ${backend.url}: nothing changed, it is set up as given.`);
    expect(second.stdout).toContain(`${site.admin} is already an admin of ${site.name}: no invitation.`);
    expect(printed(second.stdout, 'DEPLOY_NOTIFICATION_SECRET')).toBe(printed(first.stdout, 'DEPLOY_NOTIFICATION_SECRET'));
    expect(await footprint()).toEqual(before);
  });

  it('--team and --plan put the site in its agency\'s hosting team with the plan\'s figures, and say what its builds cost', async () => {
    const team = `Agency team ${site.slug}`;
    const placed = await tool('site-add', [...ARGS, '--team', team, '--plan', 'pro', '--cycle-day', '12']);
    expect(placed.stderr).toBe('');
    expect(placed.stdout).toContain(`  Hosting team: ${team} (1 site): 5,000 credits a month from day 12, 15 a deploy, 80% for builds: 266 builds a month, paced.`);
    const { data } = await service.from('hosting_team_sites').select('team:hosting_teams(name, monthly_credits, cycle_start_day)').eq('organization_id', organizationId).single();
    expect(data).toEqual({ team: { name: team, monthly_credits: 5000, cycle_start_day: 12 } });
    // A plan Netlify does not have is refused, naming the option, with nothing written.
    const before = await footprint();
    const refused = await tool('site-add', [...ARGS, '--plan', 'gold']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('site:add: --plan: Enter one of free, personal, pro');
    expect(await footprint()).toEqual(before);
  });

  it('--rotate-webhook-token prints a new webhook address; the old token keeps working for 24 hours', async () => {
    const rotated = await tool('site-add', [...ARGS, '--rotate-webhook-token']);
    expect(rotated.status).toBe(0);
    const token = printedToken(rotated.stdout)!;
    expect(token).toMatch(/^whk_[0-9a-f]{64}$/);
    expect(token).not.toBe(webhookToken);
    expect(rotated.stdout).toContain('a new token; the old one keeps working for 24 hours');
    const hash = (value: string) => createHash('sha256').update(value).digest('hex');
    const { data } = await service.from('webhook_integrations').select('token_hash, previous_token_hash, previous_token_expires_at').eq('organization_id', organizationId).single();
    expect(data).toMatchObject({ token_hash: hash(token), previous_token_hash: hash(webhookToken) });
    expect(Date.parse(data!.previous_token_expires_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
    webhookToken = token;
  });

  const fresh = ['--name', site.name, '--slug', `${site.slug}-bad`, '--domain', `bad.${site.domain}`, '--time-zone', 'UTC', '--admin', site.admin];
  const withArg = (flag: string, value: string) => fresh.map((arg, i) => (fresh[i - 1] === flag ? value : arg));
  it.each([
    ['a slug another organization holds', withArg('--slug', 'scale-pro'), 'site:add: The slug "scale-pro" is taken by another organization, "Scale Pro Marketing" (nothing was written)'],
    ['a domain another organization holds', withArg('--domain', 'scalepromarketing.com'), 'site:add: The domain scalepromarketing.com is taken by another organization, "Scale Pro Marketing" (scale-pro) (nothing was written)'],
    ['a malformed build hook', [...fresh, '--build-hook', 'https://example.com/build_hooks/abc'], 'site:add: --build-hook: Enter a Netlify build hook URL like https://api.netlify.com/build_hooks/<id>'],
    ['an unknown time zone', withArg('--time-zone', 'Mars/Olympus_Mons'), 'site:add: Unknown time zone: Mars/Olympus_Mons (use an IANA name such as America/New_York) (nothing was written)'],
    ['a malformed admin address', withArg('--admin', 'owner-at-example'), 'site:add: --admin: Enter a valid email address'],
    ['a malformed domain', withArg('--domain', 'https://www.example.com/'), 'site:add: --domain: Enter a domain like example.com'],
    ['a missing flag', fresh.slice(2), 'site:add: --name: missing'],
  ])('%s: its line, a non-zero exit, and nothing written', async (_case, args, line) => {
    const before = await footprint();
    const refused = await tool('site-add', args);
    expect(refused.status).not.toBe(0);
    // A bad option is followed by where the options are listed; what the database refuses stands alone.
    expect(refused.stderr).toBe(line.includes('(nothing was written)') ? `${line}\n` : `${line}\n${HELP_HINT}\n`);
    expect(refused.stdout).toBe('');
    expect(await footprint()).toEqual(before);
  });

  it('anon and a signed-in member cannot call add_site through the REST API; nothing is written', async () => {
    const member = await signedInClient(seed.users.admin.email);
    const before = await footprint();
    const call = { p_name: 'Intruder', p_slug: `${site.slug}-bad`, p_domain: `bad.${site.domain}`, p_time_zone: 'UTC', p_admin_email: 'intruder@example.com', p_build_hook_url: null };
    for (const client of [anonClient(), member]) {
      const { data, error } = await client.rpc('add_site', call);
      expect(data).toBeNull();
      expect(error?.code).toBe('42501');
    }
    expect(await footprint()).toEqual(before);
  });
});

describe('npm run site:check against the new organization\'s site, served as npm run serve serves it', () => {
  let project = '';
  let server: ChildProcess | undefined;
  let front: Server | undefined;
  const origin = `http://localhost:${SERVE_PORT}`;
  /** What the front in front of the served site does: forward, drop a header, or answer deploy events itself. */
  let frontMode: 'forward' | 'drop-header' | 'no-deploy-secret' = 'forward';

  beforeAll(async () => {
    project = projectCopy();
    const env = {
      ...process.env,
      SITE_ORG: site.slug,
      DEPLOY_NOTIFICATION_SECRET: printed(first.stdout, 'DEPLOY_NOTIFICATION_SECRET')!,
      // Nothing may build or publish under the test: no scheduler, no rebuild at once.
      LOCAL_SCHEDULER: 'off',
      REBUILD_AT_ONCE: 'off',
      REBUILD_QUIET_WINDOW_MS: '3600000',
      BROWSER: 'none',
    };
    // Its own process group, so stopping it stops the build and the servers it started.
    server = spawn(process.execPath, [join(project, 'netlify/local/cli.ts'), 'serve', '--offline', '--port', String(SERVE_PORT), '--functions-port', String(SERVE_PORT + 1), '--staticServerPort', String(SERVE_PORT + 2)], {
      cwd: project, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let exited: string | undefined;
    server.stdout!.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
    server.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
    server.on('exit', (code) => (exited = `the served site exited ${code}: ${output}`));
    await waitUntilServing(origin, () => exited);

    front = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const forwarded = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      const init = { method: req.method, headers: forwarded, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks) };
      const response = frontMode === 'no-deploy-secret' && req.url === '/api/deploy-events'
        ? await deployEvents(new Request(`${origin}${req.url}`, init))
        : await fetch(`${origin}${req.url}`, { ...init, redirect: 'manual' });
      const headers = Object.fromEntries([...response.headers].filter(([name]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)));
      if (frontMode === 'drop-header') delete headers['x-content-type-options'];
      res.writeHead(response.status, headers).end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((listening) => front!.listen(0, '127.0.0.1', listening));
  }, 900_000);

  afterAll(async () => {
    front?.close();
    if (server?.pid && server.exitCode === null) {
      const stopped = new Promise((done) => server!.once('exit', done));
      process.kill(-server.pid, 'SIGTERM');
      await Promise.race([stopped, new Promise((done) => setTimeout(done, 20_000))]);
    }
    if (project) rmSync(project, { recursive: true, force: true });
  }, 60_000);

  const frontUrl = () => `http://127.0.0.1:${(front!.address() as AddressInfo).port}`;

  it('the site was built with SITE_ORG for the new organization', () => {
    const home = readFileSync(join(project, 'dist/index.html'), 'utf8');
    expect(home).toContain(`data-organization-id="${organizationId}"`);
    expect(home).toContain(`data-organization-name="${site.name}"`);
  });

  it('passes: the organization, every security header, every function, the webhook and newsletter dry runs, the build data and the build hook', async () => {
    const posts = async () => (await service.from('blog_posts').select('id', { count: 'exact', head: true }).eq('organization_id', organizationId)).count;
    const deliveries = async () => (await service.from('webhook_deliveries').select('id', { count: 'exact', head: true }).eq('organization_id', organizationId)).count;
    const checked = await tool('site-check', [origin, '--token', webhookToken]);
    expect(checked.stderr).toBe('');
    expect(checked.status, checked.stdout).toBe(0);
    const lines = checked.stdout.trim().split('\n');
    expect(lines.filter((line) => !line.startsWith('ok   '))).toEqual([`${origin}: every check passed.`]);
    expect(lines).toContain(`ok   organization: the site shows ${site.name} (${organizationId})`);
    expect(lines).toContain('ok   function deploy-events: POST /api/deploy-events answered 401');
    expect(lines).toContain('ok   webhook dry run: a delivery would create a post (published); nothing was written');
    expect(lines).toContain('ok   newsletter sign-up dry run: a sign-up would be accepted; nothing was saved or sent');
    expect(lines).toContain(`ok   build data: ${site.name} (${site.slug}) and its settings read as the build reads them`);
    expect(lines).toContain('ok   build hook: stored (api.netlify.com)');
    expect(lines.filter((line) => line.startsWith('ok   header '))).toHaveLength(5);
    expect(lines.filter((line) => line.startsWith('ok   function '))).toHaveLength(FUNCTION_PROBES.length);
    expect(lines).toContain('ok   function wordpress-api: GET /wp-json/wp/v2/users/me answered 401');
    expect(lines).toContain('ok   function xmlrpc: GET /xmlrpc.php answered 405');
    expect({ posts: await posts(), deliveries: await deliveries() }).toEqual({ posts: 0, deliveries: 0 });
    const { count: subscribers } = await service.from('newsletter_subscribers').select('id', { count: 'exact', head: true }).eq('email', 'site-check@example.com');
    expect(subscribers).toBe(0);
  }, SITE_CHECK_TIMEOUT);

  it('fails the build data when the organization cannot be read as the build reads it, and counts the skipped checks', async () => {
    const checked = await tool('site-check', [origin], { PUBLIC_SUPABASE_ANON_KEY: 'not-the-anon-key' });
    expect(checked.status).toBe(1);
    const lines = checked.stdout.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('FAIL')).map((line) => line.split(':')[0])).toEqual(['FAIL build data']);
    expect(lines).toContain('skip webhook dry run: no --token given');
    expect(lines.at(-1)).toBe(`${origin}: 1 check(s) failed (1 skipped: see above).`);
  }, SITE_CHECK_TIMEOUT);

  it('fails when a security header is missing', async () => {
    frontMode = 'drop-header';
    const checked = await tool('site-check', [frontUrl()]);
    expect(checked.status).toBe(1);
    const failures = checked.stdout.split('\n').filter((line) => line.startsWith('FAIL'));
    expect(failures).toEqual(['FAIL header X-Content-Type-Options: missing']);
    expect(checked.stdout).toContain('skip webhook dry run: no --token given');
  }, SITE_CHECK_TIMEOUT);

  it('fails when the deploy notifications have no secret (503 rather than 401)', async () => {
    frontMode = 'no-deploy-secret';
    expect(process.env.DEPLOY_NOTIFICATION_SECRET).toBeUndefined();
    const checked = await tool('site-check', [frontUrl()]);
    expect(checked.status).toBe(1);
    const failures = checked.stdout.split('\n').filter((line) => line.startsWith('FAIL'));
    expect(failures).toEqual(['FAIL function deploy-events: deploy notifications are not configured: set DEPLOY_NOTIFICATION_SECRET']);
  }, SITE_CHECK_TIMEOUT);
});
