/**
 * WordPress's login-approval flow for application passwords, as tools that connect through it call it (Ulysses,
 * Ghost Writr, Docswrite): the tool reads the page's address from the API index
 * (`authentication.application-passwords.endpoints.authorization`), opens it with `app_name`, `app_id`,
 * `success_url` and `reject_url`; the member approves, an application password is made, and the browser goes to
 * `success_url` with `site_url`, `user_login` and `password` added; a refusal goes to `reject_url` (else
 * `success_url`) with `success=false`. Without `success_url`, the page shows the password to copy.
 *
 * The addresses follow WordPress's rules: a valid URL with a host, never `javascript:` or `data:` (nor the other
 * schemes a browser runs or reads locally); `http:` only to this machine (localhost, 127.0.0.1, ::1), since the
 * password travels in the address; an app's own scheme (`ulysses://…`) is fine. `app_id`, when given, is a UUID.
 */
import { z } from '../../schemas/zod';

/** A tool's request, checked. */
export interface AuthorizationRequest {
  appName: string;
  appId: string | null;
  successUrl: string | null;
  rejectUrl: string | null;
}

export type AuthorizationRequestCheck = { ok: true; request: AuthorizationRequest } | { ok: false; message: string };

/** Schemes that run or read something in the browser instead of reaching an app. */
const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What is wrong with a return address, in WordPress's words, or null when it may be used. */
function addressProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a valid URL.';
  }
  if (REFUSED_SCHEMES.has(url.protocol) || !url.host) return 'must be a valid URL.';
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return 'must be served over a secure connection (https).';
  return null;
}

const address = (label: string) =>
  z
    .string()
    .trim()
    .max(2000, `The ${label} is too long.`)
    .superRefine((value, context) => {
      const problem = addressProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: `The ${label} ${problem}` });
    })
    .optional();

const AuthorizationQuerySchema = z.object({
  app_name: z.string().trim().max(200, 'The application name is too long.').optional(),
  app_id: z.guid('The application ID must be a UUID.').optional(),
  success_url: address('success URL (success_url)'),
  reject_url: address('reject URL (reject_url)'),
});

/** Reads and checks the page's query; the first problem is said as it is. */
export function readAuthorizationRequest(query: URLSearchParams): AuthorizationRequestCheck {
  const given = Object.fromEntries([...query].filter(([, value]) => value.trim() !== ''));
  const parsed = AuthorizationQuerySchema.safeParse(given);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]!.message };
  const { app_name: appName = '', app_id: appId = null, success_url: successUrl = null, reject_url: rejectUrl = null } = parsed.data;
  return { ok: true, request: { appName, appId, successUrl, rejectUrl } };
}

/** Where an approval sends the browser: `success_url` with the site, the user name and the new password added. */
export function approvalRedirect(successUrl: string, grant: { siteUrl: string; userLogin: string; password: string }): string {
  const url = new URL(successUrl);
  url.searchParams.set('site_url', grant.siteUrl);
  url.searchParams.set('user_login', grant.userLogin);
  url.searchParams.set('password', grant.password);
  return url.href;
}

/** Where a refusal sends the browser: `reject_url` (else `success_url`) with `success=false`; null when neither was given. */
export function rejectionRedirect(request: AuthorizationRequest): string | null {
  const target = request.rejectUrl ?? request.successUrl;
  if (!target) return null;
  const url = new URL(target);
  url.searchParams.set('success', 'false');
  return url.href;
}
