/**
 * The Auth (GoTrue) API subset supabase-js uses, under `/auth/v1`: same paths, status codes and JSON
 * shapes as GoTrue with `enable_confirmations = false`. Requests arrive with the path relative to
 * `/auth/v1`; the gateway (server.ts) has already checked the API key.
 */
import type pg from 'pg';
import { verifyJwt } from '../jwt.ts';
import { API_VERSION, AuthError, authErrorResponse, authErrors, CommitWithError } from './errors.ts';
import { redirectOrigins, redirectTarget as allowedRedirect } from './redirects.ts';
import { endSessions, refreshSession, sessionExists, startSession, type ClientInfo, type LogoutScope } from './sessions.ts';
import {
  createUser,
  findUserByEmail,
  findUserById,
  isBanned,
  passwordMatches,
  updateUser,
  userJson,
  type UserRow,
} from './users.ts';
import { actionLink, consumeToken, issueToken, mailToken, type VerificationType } from './verification.ts';

/** What the Auth API needs to know about its deployment. */
export interface AuthConfig {
  /** Pool connected as GoTrue's role `supabase_auth_admin`, which owns the auth schema (the API roles may not touch it). */
  db: pg.Pool;
  /** The public API URL (`http://127.0.0.1:54321`); tokens are issued by `${apiUrl}/auth/v1`. */
  apiUrl: string;
  /** Where links lead by default (`SITE_URL`). */
  siteUrl: string;
  /** Other allowed `redirect_to` targets, matched by origin (redirects.ts). */
  additionalRedirectUrls: string[];
  /** Public sign-up refused (`[auth] enable_signup = false`, GoTrue's DISABLE_SIGNUP); admins still create users. */
  disableSignup: boolean;
  /** The email provider on (`[auth.email] enable_signup`, GoTrue's EXTERNAL_EMAIL_ENABLED). */
  emailEnabled: boolean;
}

/** One Auth request, as the gateway hands it over. */
export interface AuthRequest {
  request: Request;
  /** Path below `/auth/v1`, e.g. `/token`. */
  path: string;
  client: ClientInfo;
}

interface Call extends AuthRequest {
  url: URL;
  body: Record<string, unknown>;
}

type Db = pg.Pool | pg.PoolClient;

/** Creates the Auth handler. */
export function createAuthHandler(config: AuthConfig): (call: AuthRequest) => Promise<Response> {
  const issuer = `${config.apiUrl}/auth/v1`;
  const origins = redirectOrigins(config.siteUrl, config.additionalRedirectUrls);

  /** Runs a multi-statement operation atomically; a `CommitWithError` commits, then fails with its error. */
  async function transaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await config.db.connect();
    try {
      await client.query('begin');
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      if (error instanceof CommitWithError) {
        await client.query('commit');
        throw error.error;
      }
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /** The signed-in user and session of a request; GoTrue refuses tokens whose session was ended. */
  async function requireUser(call: Call): Promise<{ user: UserRow; sessionId: string }> {
    const claims = await requireClaims(call);
    if (typeof claims.sub !== 'string' || claims.sub === '') throw authErrors.missingSub();
    const user = await findUserById(config.db, claims.sub);
    if (!user) throw authErrors.userNotFoundFromJwt();
    if (!(await sessionExists(config.db, claims.session_id))) throw authErrors.sessionNotFound();
    return { user, sessionId: claims.session_id as string };
  }

  async function requireAdmin(call: Call): Promise<void> {
    const claims = await requireClaims(call);
    if (claims.role !== 'service_role' && claims.role !== 'supabase_admin') throw authErrors.notAdmin();
  }

  /** Where a link may lead: the requested place when its origin is allowed, else SITE_URL (redirects.ts). */
  function redirectTarget(call: Call): string {
    const requested = call.url.searchParams.get('redirect_to') ?? stringField(call.body, 'redirect_to') ?? stringField(call.body, 'redirectTo');
    return allowedRedirect(requested ?? undefined, config.siteUrl, origins);
  }

  async function sendLink(db: Db, user: UserRow, type: VerificationType, redirectTo: string): Promise<string> {
    const { otp, hashedToken } = await issueToken(db, user, type);
    const link = actionLink(config.apiUrl, hashedToken, type, redirectTo);
    await mailToken(db, user.email ?? '', type, link, otp, config.siteUrl);
    return link;
  }

  const routes: Record<string, (call: Call, id?: string) => Promise<Response>> = {
    'GET /health': async () =>
      Response.json({ version: 'v2.180.0-local', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' }),

    'GET /settings': async () =>
      Response.json({
        external: { anonymous_users: false, email: config.emailEnabled, phone: false },
        disable_signup: config.disableSignup,
        mailer_autoconfirm: true,
        phone_autoconfirm: false,
        sms_provider: '',
        saml_enabled: false,
      }),

    'POST /signup': async (call) => {
      // GoTrue checks the switch before it reads the request: a refused sign-up learns nothing about the address.
      if (config.disableSignup) throw authErrors.signupDisabled();
      const email = requireString(call.body, 'email');
      const password = requireString(call.body, 'password');
      if (!config.emailEnabled) throw authErrors.emailProviderDisabled(400, 'Email signups are disabled');
      return Response.json(
        await transaction(async (db) => {
          const existing = await findUserByEmail(db, email);
          if (existing) throw new AuthError(422, 'user_already_exists', 'User already registered');
          const user = await createUser(db, { email, password, emailConfirmed: true, userMetadata: objectField(call.body, 'data') });
          return startSession(db, issuer, user, 'password', call.client);
        }),
      );
    },

    'POST /token': async (call) => {
      const grant = call.url.searchParams.get('grant_type');
      if (grant === 'password') {
        const email = stringField(call.body, 'email');
        const password = stringField(call.body, 'password');
        if (email && !config.emailEnabled) throw authErrors.emailProviderDisabled(422, 'Email logins are disabled');
        if (!email || !password) throw authErrors.invalidCredentials();
        const user = await findUserByEmail(config.db, email);
        if (!user || !(await passwordMatches(user, password))) throw authErrors.invalidCredentials();
        if (isBanned(user)) throw authErrors.userBanned();
        if (!user.email_confirmed_at) throw authErrors.emailNotConfirmed();
        return Response.json(await transaction((db) => startSession(db, issuer, user, 'password', call.client)));
      }
      if (grant === 'refresh_token') {
        return Response.json(await transaction((db) => refreshSession(db, issuer, call.body.refresh_token, call.client)));
      }
      throw authErrors.unsupportedGrant();
    },

    'GET /user': async (call) => {
      const { user } = await requireUser(call);
      return Response.json(await userJson(config.db, user));
    },

    'PUT /user': async (call) => {
      const { user } = await requireUser(call);
      const password = stringField(call.body, 'password');
      if (password !== undefined && (await passwordMatches(user, password))) throw authErrors.samePassword();
      const updated = await transaction((db) =>
        updateUser(db, user, {
          password,
          email: stringField(call.body, 'email'),
          userMetadata: objectField(call.body, 'data'),
        }),
      );
      return Response.json(await userJson(config.db, updated));
    },

    'POST /logout': async (call) => {
      const claims = await requireClaims(call);
      const scope = (call.url.searchParams.get('scope') ?? 'global') as LogoutScope;
      if (!['global', 'local', 'others'].includes(scope)) throw authErrors.validation(`Unsupported logout scope "${scope}"`);
      if (typeof claims.sub === 'string' && typeof claims.session_id === 'string') {
        await endSessions(config.db, claims.sub, claims.session_id, scope);
      }
      return new Response(null, { status: 204 });
    },

    // Always 200 `{}`, whether or not the address has an account, so the endpoint reveals nothing.
    'POST /recover': async (call) => {
      if (!config.emailEnabled) throw authErrors.emailProviderDisabled(400, 'Email logins are disabled');
      const email = requireString(call.body, 'email');
      const redirectTo = redirectTarget(call);
      await transaction(async (db) => {
        const user = await findUserByEmail(db, email);
        if (user) await sendLink(db, user, 'recovery', redirectTo);
      });
      return Response.json({});
    },

    // Magic link / OTP sign-in (signInWithOtp): mails a link; unknown addresses are signed up first. The
    // refusals come in GoTrue's order: `create_user: false` for an unknown address (otp_disabled, whatever the
    // settings), the email provider switched off, then sign-up switched off for an address GoTrue would sign
    // up, which is an unknown one or one never confirmed (signup_disabled: GoTrue runs its sign-up for both).
    'POST /otp': async (call) => {
      const email = requireString(call.body, 'email');
      const redirectTo = redirectTarget(call);
      await transaction(async (db) => {
        const existing = await findUserByEmail(db, email);
        if (!existing && call.body.create_user === false) throw authErrors.otpDisabled();
        if (!config.emailEnabled) throw authErrors.emailProviderDisabled(422, 'Email logins are disabled');
        if (existing?.email_confirmed_at) return sendLink(db, existing, 'magiclink', redirectTo);
        if (config.disableSignup) throw authErrors.signupDisabled();
        if (existing) return sendLink(db, existing, 'magiclink', redirectTo);
        const user = await createUser(db, { email, emailConfirmed: false, userMetadata: objectField(call.body, 'data') });
        return sendLink(db, user, 'signup', redirectTo);
      });
      return Response.json({});
    },

    // The link in a mail: verifies the token and redirects with the session in the URL fragment.
    'GET /verify': async (call) => {
      const redirectTo = redirectTarget(call);
      const type = call.url.searchParams.get('type') ?? '';
      try {
        const session = await transaction(async (db) => {
          const { user, type: verified } = await consumeToken(db, { type, tokenHash: call.url.searchParams.get('token') ?? '' });
          if (isBanned(user)) throw authErrors.userBanned();
          return startSession(db, issuer, user, amrFor(verified), call.client);
        });
        const fragment = new URLSearchParams({
          access_token: session.access_token,
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: session.refresh_token,
          token_type: session.token_type,
          type,
        });
        return redirect(`${redirectTo}#${fragment}`);
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        const fragment = new URLSearchParams({
          error: 'access_denied',
          error_code: error.errorCode,
          error_description: error.errorCode === 'otp_expired' ? 'Email link is invalid or has expired' : error.message,
        });
        return redirect(`${redirectTo}#${fragment}`);
      }
    },

    'POST /verify': async (call) => {
      const session = await transaction(async (db) => {
        const { user, type } = await consumeToken(db, {
          type: requireString(call.body, 'type'),
          tokenHash: stringField(call.body, 'token_hash'),
          email: stringField(call.body, 'email'),
          token: stringField(call.body, 'token'),
        });
        if (isBanned(user)) throw authErrors.userBanned();
        return startSession(db, issuer, user, amrFor(type), call.client);
      });
      return Response.json(session);
    },

    'POST /invite': async (call) => {
      await requireAdmin(call);
      const email = requireString(call.body, 'email');
      const redirectTo = redirectTarget(call);
      const user = await transaction(async (db) => {
        const existing = await findUserByEmail(db, email);
        if (existing?.email_confirmed_at) throw authErrors.emailExists();
        const invited = existing ?? (await createUser(db, { email, emailConfirmed: false, invited: true, userMetadata: objectField(call.body, 'data') }));
        await sendLink(db, invited, 'invite', redirectTo);
        return (await findUserById(db, invited.id))!;
      });
      return Response.json(await userJson(config.db, user));
    },

    'GET /admin/users': async (call) => {
      await requireAdmin(call);
      const page = positiveInt(call.url.searchParams.get('page'), 1);
      const perPage = positiveInt(call.url.searchParams.get('per_page'), 50);
      const { rows } = await config.db.query<UserRow & { total: string }>(
        `select *, count(*) over () as total from auth.users order by created_at desc, id limit $1 offset $2`,
        [perPage, (page - 1) * perPage],
      );
      const total = rows.length > 0 ? Number(rows[0]!.total) : Number((await config.db.query('select count(*) from auth.users')).rows[0].count);
      const users = await Promise.all(rows.map((row) => userJson(config.db, row)));
      const lastPage = Math.max(1, Math.ceil(total / perPage));
      const links = [];
      if (page < lastPage) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
      links.push(`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`);
      return Response.json({ users, aud: 'authenticated' }, { headers: { 'x-total-count': String(total), link: links.join(', ') } });
    },

    'POST /admin/users': async (call) => {
      await requireAdmin(call);
      const email = requireString(call.body, 'email');
      const user = await transaction(async (db) => {
        const created = await createUser(db, {
          email,
          password: stringField(call.body, 'password'),
          emailConfirmed: call.body.email_confirm === true,
          userMetadata: objectField(call.body, 'user_metadata') ?? objectField(call.body, 'data'),
          appMetadata: objectField(call.body, 'app_metadata'),
        });
        const banDuration = stringField(call.body, 'ban_duration');
        return banDuration ? updateUser(db, created, { banDuration }) : created;
      });
      return Response.json(await userJson(config.db, user));
    },

    'GET /admin/users/:id': async (call, id) => {
      await requireAdmin(call);
      const user = await findUserById(config.db, id ?? '');
      if (!user) throw authErrors.userNotFound();
      return Response.json(await userJson(config.db, user));
    },

    'PUT /admin/users/:id': async (call, id) => {
      await requireAdmin(call);
      const updated = await transaction(async (db) => {
        const user = await findUserById(db, id ?? '');
        if (!user) throw authErrors.userNotFound();
        const changed = await updateUser(db, user, {
          email: stringField(call.body, 'email'),
          password: stringField(call.body, 'password'),
          userMetadata: objectField(call.body, 'user_metadata'),
          appMetadata: objectField(call.body, 'app_metadata'),
          emailConfirmed: call.body.email_confirm === true,
          banDuration: stringField(call.body, 'ban_duration'),
        });
        // A ban ends the user's sessions, as in GoTrue; their refresh tokens stop working at once.
        if (changed.banned_until && changed.banned_until > new Date()) await db.query('delete from auth.sessions where user_id = $1', [changed.id]);
        return changed;
      });
      return Response.json(await userJson(config.db, updated));
    },

    'DELETE /admin/users/:id': async (call, id) => {
      await requireAdmin(call);
      const user = await findUserById(config.db, id ?? '');
      if (!user) throw authErrors.userNotFound();
      await config.db.query('delete from auth.users where id = $1', [user.id]);
      return Response.json({});
    },

    'POST /admin/generate_link': async (call) => {
      await requireAdmin(call);
      const type = requireString(call.body, 'type');
      const email = requireString(call.body, 'email');
      const redirectTo = redirectTarget(call);
      const result = await transaction(async (db) => {
        let user = await findUserByEmail(db, email);
        let verificationType: VerificationType;
        if (type === 'signup') {
          if (user?.email_confirmed_at) throw authErrors.emailExists();
          user ??= await createUser(db, { email, password: requireString(call.body, 'password'), emailConfirmed: false, userMetadata: objectField(call.body, 'data') });
          verificationType = 'signup';
        } else if (type === 'invite') {
          if (user?.email_confirmed_at) throw authErrors.emailExists();
          user ??= await createUser(db, { email, emailConfirmed: false, invited: true, userMetadata: objectField(call.body, 'data') });
          verificationType = 'invite';
        } else if (type === 'magiclink') {
          // GoTrue signs an unknown address up instead of failing.
          verificationType = user ? 'magiclink' : 'signup';
          user ??= await createUser(db, { email, emailConfirmed: false, userMetadata: objectField(call.body, 'data') });
        } else if (type === 'recovery') {
          if (!user) throw authErrors.userNotFound();
          verificationType = 'recovery';
        } else {
          throw authErrors.validation(`Invalid email action link type requested: ${type}`);
        }
        const { otp, hashedToken } = await issueToken(db, user, verificationType);
        return { user: (await findUserById(db, user.id))!, otp, hashedToken, verificationType };
      });
      return Response.json({
        ...(await userJson(config.db, result.user)),
        action_link: actionLink(config.apiUrl, result.hashedToken, result.verificationType, redirectTo),
        email_otp: result.otp,
        hashed_token: result.hashedToken,
        verification_type: result.verificationType,
        redirect_to: redirectTo,
      });
    },
  };

  return async function handle(call: AuthRequest): Promise<Response> {
    const { request } = call;
    let response: Response;
    try {
      const url = new URL(request.url);
      const [route, id] = matchRoute(request.method, call.path);
      const handler = routes[route];
      if (!handler) throw Object.keys(routes).some((r) => r.endsWith(` ${route.split(' ')[1]}`)) ? authErrors.methodNotAllowed() : authErrors.notFound();
      const body = await readBody(request);
      response = await handler({ ...call, url, body }, id);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return authErrorResponse(request, error);
    }
    if (request.headers.get('x-supabase-api-version')) response.headers.set('x-supabase-api-version', API_VERSION);
    return response;
  };
}

/** Verifies the bearer token of a request (GoTrue's `requireAuthentication`). */
async function requireClaims(call: Call): Promise<Record<string, unknown>> {
  const header = call.request.headers.get('authorization') ?? '';
  const match = /^bearer\s+(\S+)$/i.exec(header);
  if (!match) throw authErrors.noAuthorization();
  const result = await verifyJwt(match[1]!);
  if ('failure' in result) throw authErrors.badJwt(result.failure === 'expired' ? 'token has invalid claims: token is expired' : result.message);
  return result.claims;
}

/** Maps `METHOD /path` to a route key, pulling the user id out of `/admin/users/<id>`. */
function matchRoute(method: string, path: string): [string, string | undefined] {
  const user = /^\/admin\/users\/([^/]+)\/?$/.exec(path);
  if (user) return [`${method} /admin/users/:id`, decodeURIComponent(user[1]!)];
  return [`${method} ${path.replace(/\/$/, '') || '/'}`, undefined];
}

async function readBody(request: Request): Promise<Record<string, unknown>> {
  if (request.method === 'GET' || request.method === 'HEAD') return {};
  const text = await request.text();
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON: expected an object');
  return parsed as Record<string, unknown>;
}

function amrFor(type: VerificationType) {
  return type === 'signup' ? ('email/signup' as const) : type;
}

function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: { location } });
}

function stringField(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  return typeof value === 'string' ? value : undefined;
}

function requireString(body: Record<string, unknown>, key: string): string {
  const value = stringField(body, key);
  if (!value) throw authErrors.validation(`${key === 'email' ? 'An email address' : `"${key}"`} is required`);
  return value;
}

function objectField(body: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = body[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function positiveInt(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
