/**
 * `npm run site:add -- --name "Evergreen Landscaping" --slug evergreen --domain www.example.com
 *   --time-zone America/New_York --admin owner@example.com [--build-hook URL] [--netlify-site ID]
 *   [--rotate-webhook-token] [--resend-invitation]`; `--help` prints the options.
 *
 * Sets up a client's organization and says what its Netlify site needs, so nothing is typed by hand twice:
 * 1. the arguments are checked (SiteSetupSchema); every missing or bad one is named, one line each, before any
 *    write;
 * 2. add_site (migration 20261128200000_add_site.sql) writes the organization, its confirmed domain, its time
 *    zone and the build hook in one transaction, and refuses a slug or domain another organization holds or an
 *    unknown time zone, writing nothing;
 * 3. the first admin is invited through the back office's own path (createInvitation, sendInvitationMail):
 *    the link is printed, and mailed when mail is configured (RESEND_API_KEY and MAIL_FROM, or the local
 *    outbox). An address that is already an admin gets none; one with a pending invitation gets no second one,
 *    unless `--resend-invitation` asks for a new link (the old one stops working);
 * 4. the organization's webhook address for the writing tool: made on the first run (its token is printed
 *    once, as the back office shows it once); `--rotate-webhook-token` makes a new one (the old one keeps
 *    working for 24 hours);
 * 5. the Netlify settings are printed as exact values: the variables, the build hook, the three deploy
 *    notifications with their URL and secret; with `--netlify-site` they are also written with the Netlify CLI
 *    (logged in: `netlify login`);
 * 6. the next step: deploy, then `npm run site:check` with the site's address and the webhook token.
 * The output holds secrets (the service-role key, the deploy secret, the webhook token) and says so first. A
 * second identical run writes nothing and says so (the printed values are the same).
 *
 * The backend is SUPABASE_URL with SUPABASE_SERVICE_ROLE_KEY (a hosted project), else the local one.
 * SUPABASE_ANON_KEY (or PUBLIC_SUPABASE_ANON_KEY) gives the anon key to print for a hosted project.
 */
import { createHmac } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import type { SupabaseClient } from '@supabase/supabase-js';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { NETLIFY_PLANS } from '../src/schemas/hosting-team.ts';
import { SiteSetupSchema, type SiteSetup } from '../src/schemas/site-setup.ts';
import { createInvitation, INVITATION_VALID_DAYS, resendInvitation } from '../src/lib/server/invitations.ts';
import { webhookUrl } from '../src/lib/back-office/webhook.ts';
import { sendInvitationMail } from '../src/lib/server/invitation-mail.ts';
import { serviceClient } from '../src/lib/server/service-client.ts';
import { LOCAL_SUPABASE, serviceSupabaseConfig } from '../src/lib/server/service-config.ts';
import { siteAddress } from '../src/lib/server/site-address.ts';

type Env = Record<string, string | undefined>;

/** What add_site answers. */
interface AddedSite {
  organization_id: string;
  build_hook_url: string | null;
  changes: string[];
  admin: { status: 'member' } | { status: 'invited'; expires_at: string } | { status: 'none' };
}

/** Netlify's deploy notification events, as the site's Notifications settings name them and as its API does. */
const DEPLOY_NOTIFICATIONS = [
  { label: 'Deploy started', event: 'deploy_building' },
  { label: 'Deploy succeeded', event: 'deploy_created' },
  { label: 'Deploy failed', event: 'deploy_failed' },
] as const;

/** What `--help` prints. */
export const SITE_ADD_USAGE = `Usage: npm run site:add -- --name NAME --slug SLUG --domain DOMAIN --time-zone ZONE --admin EMAIL [options]

Sets up a client's organization on the backend (SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY, else the local one)
and prints what its Netlify site needs. Running it again with the same values changes nothing.

Required:
  --name NAME              the organization's name, as the site shows it
  --slug SLUG              its slug (lowercase letters, digits, hyphens): the site's SITE_ORG
  --domain DOMAIN          the site's primary domain, like www.example.com
  --time-zone ZONE         IANA time zone of its publishing queue, like America/New_York
  --admin EMAIL            the first admin, invited by mail (the link is printed too)
Options:
  --build-hook URL         the Netlify site's build hook (https://api.netlify.com/build_hooks/...)
  --netlify-site ID        also write the variables and deploy notifications with the Netlify CLI
  --rotate-webhook-token   make a new webhook token (the old one keeps working for 24 hours)
  --resend-invitation      send the first admin's pending invitation again, with a new link
Hosting team (the Netlify team whose credits its sites share; each production deploy costs credits):
  --team NAME              put the site in this team, made when new (default: a team of its own)
  --plan free|personal|pro the team's Netlify plan: 300, 1,000 or 5,000 credits a month (a new team: free)
  --monthly-credits N      the team's credits a month, when not a plan's (an Enterprise contract, bought packs)
  --credits-per-deploy N   what a production deploy costs (default 15)
  --cycle-day N            the day of the month the team's billing cycle starts (default 1)
  --build-share N          the percent of the credits builds may use (default 80; the rest is for traffic)
  --auto-recharge          the team buys more credits automatically when they run out
  --help                   this text

The output holds secrets (the service-role key, the deploy secret, the webhook token): keep it private.`;

/** Ends the run with its lines on stderr. */
function fail(...lines: string[]): never {
  for (const line of lines) console.error(`site:add: ${line}`);
  process.exit(1);
}

/** The flag a schema path names: `timeZone` is `--time-zone`. */
const flagOf = (key: PropertyKey | undefined) => `--${String(key ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

type SiteAddArgs = { site: SiteSetup; rotateWebhookToken: boolean; resendInvitation: boolean };

/** The arguments, checked; ends the run naming every missing or bad one. */
function parseSiteSetup(argv: string[]): SiteAddArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        name: { type: 'string' },
        slug: { type: 'string' },
        domain: { type: 'string' },
        'time-zone': { type: 'string' },
        admin: { type: 'string' },
        'build-hook': { type: 'string' },
        'netlify-site': { type: 'string' },
        'rotate-webhook-token': { type: 'boolean' },
        'resend-invitation': { type: 'boolean' },
        team: { type: 'string' },
        plan: { type: 'string' },
        'monthly-credits': { type: 'string' },
        'credits-per-deploy': { type: 'string' },
        'cycle-day': { type: 'string' },
        'build-share': { type: 'string' },
        'auto-recharge': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    fail((error as Error).message, 'npm run site:add -- --help lists the options.');
  }
  if (values.help) {
    console.log(SITE_ADD_USAGE);
    process.exit(0);
  }
  const parsed = SiteSetupSchema.safeParse({
    name: values.name,
    slug: values.slug,
    domain: values.domain,
    timeZone: values['time-zone'],
    admin: values.admin,
    buildHook: values['build-hook'],
    netlifySite: values['netlify-site'],
    team: values.team,
    plan: values.plan,
    monthlyCredits: values['monthly-credits'],
    creditsPerDeploy: values['credits-per-deploy'],
    cycleDay: values['cycle-day'],
    buildShare: values['build-share'],
    autoRecharge: values['auto-recharge'],
  });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${flagOf(issue.path[0])}: ${issue.code === 'invalid_type' ? 'missing' : issue.message}`);
    fail(...lines, 'npm run site:add -- --help lists the options.');
  }
  return { site: parsed.data, rotateWebhookToken: values['rotate-webhook-token'] === true, resendInvitation: values['resend-invitation'] === true };
}

/**
 * Puts the site in its hosting team (the one named, made when new; else the team it is in, a team of its own at
 * first) with the figures given, and answers the line that says what the team's budget is.
 */
async function hostingTeam(client: SupabaseClient, site: SiteSetup, organizationId: string): Promise<string> {
  let name = site.team;
  if (!name) {
    const { data, error } = await client.from('hosting_team_sites').select('team:hosting_teams(name)').eq('organization_id', organizationId).single();
    if (error) fail(`reading the site's hosting team failed: ${error.message}`);
    name = (data as unknown as { team: { name: string } }).team.name;
  }
  const plan = NETLIFY_PLANS.find((each) => each.id === site.plan);
  const { data, error } = await client.rpc('place_site_in_team', {
    p_organization_id: organizationId,
    p_team_name: name,
    p_monthly_credits: site.monthlyCredits ?? plan?.monthlyCredits ?? null,
    p_credits_per_deploy: site.creditsPerDeploy ?? null,
    p_cycle_start_day: site.cycleDay ?? null,
    p_build_share_percent: site.buildShare ?? null,
    p_auto_recharge: site.autoRecharge ?? null,
  });
  if (error) fail(`putting the site in its hosting team failed: ${error.message}`);
  const team = data as { name: string; monthly_credits: number; credits_per_deploy: number; build_share_percent: number; cycle_start_day: number; auto_recharge: boolean; sites: number };
  const builds = Math.floor((team.monthly_credits * team.build_share_percent) / 100 / team.credits_per_deploy);
  return (
    `  Hosting team: ${team.name} (${team.sites} site${team.sites === 1 ? '' : 's'}): ${team.monthly_credits.toLocaleString('en-US')} credits a month from day ${team.cycle_start_day}, ` +
    `${team.credits_per_deploy} a deploy, ${team.build_share_percent}% for builds: ${builds.toLocaleString('en-US')} builds a month, paced` +
    `${team.auto_recharge ? '; buys more credits automatically' : ''}. Check the plan in Settings → Hosting & builds (--plan sets it).`
  );
}

/**
 * The deploy notifications' secret for an organization, derived from the service-role key (HMAC-SHA256):
 * the same on every run, so a second run prints and sets the same value, and stored nowhere (the site's
 * function reads it from DEPLOY_NOTIFICATION_SECRET). Only the holder of the service-role key can compute it;
 * after a new key, run site:add again and set the new value.
 */
function deployNotificationSecret(serviceRoleKey: string, organizationId: string): string {
  return createHmac('sha256', serviceRoleKey).update(`deploy-notifications:${organizationId}`).digest('base64url');
}

/** The Netlify site's environment variables, with their values (a placeholder where this run cannot know one). */
function siteVariables(env: Env, site: SiteSetup, secret: string): [string, string][] {
  const { url, serviceRoleKey } = serviceSupabaseConfig(env);
  const local = serviceRoleKey === LOCAL_SUPABASE.serviceRoleKey;
  const anonKey = env.SUPABASE_ANON_KEY || env.PUBLIC_SUPABASE_ANON_KEY || (local ? LOCAL_SUPABASE.anonKey : '');
  const mail: [string, string][] = env.RESEND_API_KEY && env.MAIL_FROM ? [['RESEND_API_KEY', env.RESEND_API_KEY], ['MAIL_FROM', env.MAIL_FROM]] : [];
  return [
    ['PUBLIC_SUPABASE_URL', url],
    ['PUBLIC_SUPABASE_ANON_KEY', anonKey || '<the project anon key: set SUPABASE_ANON_KEY and run again>'],
    ['SUPABASE_URL', url],
    ['SUPABASE_SERVICE_ROLE_KEY', serviceRoleKey],
    ['SITE_ORG', site.slug],
    ['DEPLOY_NOTIFICATION_SECRET', secret],
    ...mail,
  ];
}

/** The first admin: invited now (link printed, mailed when configured), sent again, or why no invitation was needed. */
async function inviteAdmin(env: Env, site: SiteSetup, added: AddedSite, resend: boolean): Promise<string[]> {
  if (added.admin.status === 'member') return [`${site.admin} is already an admin of ${site.name}: no invitation.`];
  // Locally the site is the local server's; the hosted site answers at its domain (confirmed by add_site).
  const siteUrl = siteAddress({ slug: site.slug, domain: site.domain, domain_confirmed: true }, env);
  const service = serviceClient(env, { actor: 'operator' });
  if (added.admin.status === 'invited' && !resend) {
    return [`${site.admin} already has a pending invitation (until ${added.admin.expires_at}; its link was printed by the run that made it): no new one. --resend-invitation sends it again with a new link.`];
  }
  const created = added.admin.status === 'invited' ? await resendPending(service, added.organization_id, site.admin, siteUrl) : await createInvitation(service, { organizationId: added.organization_id, invitedBy: null, siteUrl }, { email: site.admin, role: 'admin' });
  const mail = await sendInvitationMail(created.id, {
    to: site.admin, organizationName: created.organizationName, role: 'admin', inviter: created.inviter,
    link: created.link, expiresAt: created.expiresAt, validDays: INVITATION_VALID_DAYS,
  });
  const sent = mail === 'sent' ? `mailed to ${site.admin}` : mail === 'failed' ? 'the mail could not be sent: pass the link on' : 'mail is not configured: pass the link on';
  const what = added.admin.status === 'invited' ? 'Sent the invitation again, with a new link (the old one no longer works), to' : 'Invited';
  return [`${what} ${site.admin} as admin (${sent}; valid ${INVITATION_VALID_DAYS} days):`, `  ${created.link}`];
}

/** The organization's pending invitation of `email`, sent again with a new token (the back office's Resend). */
async function resendPending(service: SupabaseClient, organizationId: string, email: string, siteUrl: string) {
  const { data, error } = await service
    .from('user_invitations').select('id').eq('organization_id', organizationId).ilike('email', email).is('used_at', null).is('revoked_at', null)
    .order('created_at', { ascending: false }).limit(1).maybeSingle();
  if (error || !data) fail(`no pending invitation of ${email} to send again${error ? `: ${error.message}` : ''}`);
  return resendInvitation(service, { organizationId, invitationId: data.id as string, siteUrl });
}

/**
 * The writing tool's webhook address: made when the organization has none, or when `rotate` asks for a new
 * token (rotate_webhook_token: the old one keeps working for 24 hours). Answers the lines to print and the
 * token when one was made now (the only time it can be shown).
 */
async function webhookAddress(env: Env, site: SiteSetup, organizationId: string, rotate: boolean): Promise<{ lines: string[]; token: string | null }> {
  const service = serviceClient(env, { actor: 'operator' });
  const { data: existing, error } = await service.from('webhook_integrations').select('organization_id').eq('organization_id', organizationId).maybeSingle();
  if (error) fail(`reading the webhook address failed: ${error.message}`);
  if (existing && !rotate) {
    return { lines: ['Webhook address: made by an earlier run (its token is shown only when made; --rotate-webhook-token makes a new one, the old one keeps working for 24 hours).'], token: null };
  }
  const { data: token, error: rotateError } = await service.rpc('rotate_webhook_token', { p_organization_id: organizationId });
  if (rotateError || typeof token !== 'string') fail(`making the webhook token failed: ${rotateError?.message ?? 'no token'}`);
  const origin = siteAddress({ slug: site.slug, domain: site.domain, domain_confirmed: true }, env);
  return {
    lines: [
      `Webhook address for ZimmWriter (${existing ? 'a new token; the old one keeps working for 24 hours' : 'made now'}; shown this once, as the back office shows it):`,
      `  ${webhookUrl(origin, token)}`,
    ],
    token,
  };
}

/** What to set on the client's Netlify site, as lines to print. */
function netlifySettings(site: SiteSetup, variables: [string, string][], secret: string, buildHook: string | null): string[] {
  const deployEvents = `https://${site.domain}/api/deploy-events`;
  return [
    `On the Netlify site of ${site.name} (build settings come from netlify.toml):`,
    '  Environment variables (Project configuration > Environment variables):',
    ...variables.map(([name, value]) => `    ${name}=${value}`),
    `  Build hook: ${buildHook ? `stored (${buildHook})` : 'none stored: create one (Project configuration > Build & deploy > Build hooks) and run again with --build-hook <its URL>'}`,
    '  Deploy notifications (Project configuration > Notifications > Deploy notifications > HTTP POST request):',
    ...DEPLOY_NOTIFICATIONS.map(({ label }) => `    ${label}: URL ${deployEvents}, JWS secret token ${secret}`),
    `  Supabase Auth redirect URL (Authentication > URL Configuration): https://${site.domain}/auth`,
  ];
}

/** Runs the Netlify CLI; answers its stdout, ends the run when it fails. */
function netlify(args: string[]): string {
  const run = spawnSync(join(import.meta.dirname, '../node_modules/.bin/netlify'), args, { encoding: 'utf8' });
  if (run.status !== 0) fail(`netlify ${args[0]} failed (logged in? \`netlify login\`): ${(run.stderr || run.stdout).trim().split('\n')[0]}`);
  return run.stdout;
}

/** Writes the variables and the deploy notifications (those not there yet) with the Netlify CLI. */
function applyOnNetlify(siteId: string, site: SiteSetup, variables: [string, string][], secret: string): string[] {
  if (variables.some(([, value]) => value.startsWith('<'))) fail('a variable has no value (see above): not written to Netlify');
  for (const [name, value] of variables) netlify(['env:set', name, value, '--site', siteId, '--force']);
  const url = `https://${site.domain}/api/deploy-events`;
  const hooks = JSON.parse(netlify(['api', 'listHooksBySiteId', '--data', JSON.stringify({ site_id: siteId })]) || '[]') as {
    type?: string; event?: string; data?: { url?: string };
  }[];
  const missing = DEPLOY_NOTIFICATIONS.filter(({ event }) => !hooks.some((hook) => hook.type === 'url' && hook.event === event && hook.data?.url === url));
  for (const { event } of missing) {
    const body = { type: 'url', event, data: { url, signature_secret: secret } };
    netlify(['api', 'createHookBySiteId', '--data', JSON.stringify({ site_id: siteId, body })]);
  }
  return [`Written to Netlify site ${siteId}: ${variables.length} variables, ${missing.length} of 3 deploy notifications (the others were there).`];
}

async function main(): Promise<void> {
  const { site, rotateWebhookToken, resendInvitation: resend } = parseSiteSetup(process.argv.slice(2));
  const env = process.env;
  const { url, serviceRoleKey } = serviceSupabaseConfig(env);
  const { data, error } = await serviceClient(env, { actor: 'operator' }).rpc('add_site', {
    p_name: site.name,
    p_slug: site.slug,
    p_domain: site.domain,
    p_time_zone: site.timeZone,
    p_admin_email: site.admin,
    p_build_hook_url: site.buildHook ?? null,
  });
  if (error) fail(`${error.message} (nothing was written)`);
  const added = data as AddedSite;
  const team = await hostingTeam(serviceClient(env, { actor: 'operator' }), site, added.organization_id);
  const invitation = await inviteAdmin(env, site, added, resend);
  const webhook = await webhookAddress(env, site, added.organization_id, rotateWebhookToken);
  const secret = deployNotificationSecret(serviceRoleKey, added.organization_id);
  const variables = siteVariables(env, site, secret);
  const unchanged = added.changes.length === 0 && added.admin.status !== 'none' && !resend && !webhook.token;
  const siteUrl = siteAddress({ slug: site.slug, domain: site.domain, domain_confirmed: true }, env);
  const lines = [
    'This output holds secrets (the service-role key, the deploy secret, a webhook token): keep it private.',
    '',
    `${site.name} (${site.slug}) on ${url}: ${unchanged ? 'nothing changed, it is set up as given.' : 'set up.'}`,
    ...added.changes.map((change) => `  ${change}`),
    team,
    ...invitation,
    ...webhook.lines,
    '',
    ...netlifySettings(site, variables, secret, added.build_hook_url),
    ...(site.netlifySite ? ['', ...applyOnNetlify(site.netlifySite, site, variables, secret)] : []),
    '',
    `Next: ${site.netlifySite ? 'deploy the Netlify site' : 'set these on the Netlify site (or run again with --netlify-site <site id>) and deploy it'}, then check it:`,
    `  npm run site:check -- ${siteUrl} --token ${webhook.token ?? '<the webhook token>'}`,
  ];
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
