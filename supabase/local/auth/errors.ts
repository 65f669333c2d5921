/**
 * GoTrue's error responses. Without an `X-Supabase-Api-Version` request header GoTrue answers
 * `{code: <status>, error_code, msg}`; clients that send version 2024-01-01 or later (supabase-js does)
 * get `{code: <error code>, msg}` and the version echoed in the response header, which is how supabase-js
 * knows to read `code`. Both shapes are produced here from one thrown `AuthError`.
 */

/** The API version supabase-js negotiates (GoTrue's only dated version so far). */
export const API_VERSION = '2024-01-01';

/** An error a handler throws to answer with GoTrue's status, error code and message. */
export class AuthError extends Error {
  readonly status: number;
  readonly errorCode: string;
  constructor(status: number, errorCode: string, message: string) {
    super(message);
    this.status = status;
    this.errorCode = errorCode;
  }
}

/**
 * A refusal whose writes must stay: the transaction commits, then the request fails with `error`. GoTrue's
 * `storage.NewCommitWithError`, used where refusing is itself a change (a reused refresh token revokes its
 * session's tokens, a wrong code counts against the token it guessed at).
 */
export class CommitWithError extends Error {
  readonly error: AuthError;
  constructor(error: AuthError) {
    super(error.message);
    this.error = error;
  }
}

/** The errors GoTrue returns for the situations this backend handles, with GoTrue's wording. */
export const authErrors = {
  invalidCredentials: () => new AuthError(400, 'invalid_credentials', 'Invalid login credentials'),
  emailNotConfirmed: () => new AuthError(400, 'email_not_confirmed', 'Email not confirmed'),
  userBanned: () => new AuthError(400, 'user_banned', 'User is banned'),
  refreshTokenNotFound: () => new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
  refreshTokenAlreadyUsed: () => new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  sessionNotFound: () => new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userNotFoundFromJwt: () => new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist'),
  userNotFound: () => new AuthError(404, 'user_not_found', 'User not found'),
  noAuthorization: () => new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token'),
  badJwt: (detail: string) => new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`),
  missingSub: () => new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim'),
  notAdmin: () => new AuthError(403, 'not_admin', 'User not allowed'),
  signupDisabled: () => new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance'),
  otpDisabled: () => new AuthError(422, 'otp_disabled', 'Signups not allowed for otp'),
  /** The email provider switched off (`[auth.email] enable_signup = false`); GoTrue words and codes it per endpoint. */
  emailProviderDisabled: (status: 400 | 422, message: 'Email logins are disabled' | 'Email signups are disabled') =>
    new AuthError(status, 'email_provider_disabled', message),
  emailExists: () => new AuthError(422, 'email_exists', 'A user with this email address has already been registered'),
  weakPassword: (min: number) => new AuthError(422, 'weak_password', `Password should be at least ${min} characters.`),
  samePassword: () => new AuthError(422, 'same_password', 'New password should be different from the old password.'),
  otpExpired: () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid'),
  validation: (message: string) => new AuthError(400, 'validation_failed', message),
  unsupportedGrant: () => new AuthError(400, 'unsupported_grant_type', 'unsupported_grant_type'),
  notFound: () => new AuthError(404, 'not_found', 'Not Found'),
  methodNotAllowed: () => new AuthError(405, 'method_not_allowed', 'Method Not Allowed'),
};

/** Whether the client negotiated the dated error shape. */
function usesDatedErrors(request: Request): boolean {
  const version = request.headers.get('x-supabase-api-version');
  return version !== null && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= API_VERSION;
}

/** The JSON response for an `AuthError`, in the shape the client asked for. */
export function authErrorResponse(request: Request, error: AuthError): Response {
  if (usesDatedErrors(request)) {
    return Response.json(
      { code: error.errorCode, msg: error.message },
      { status: error.status, headers: { 'x-supabase-api-version': API_VERSION } },
    );
  }
  return Response.json({ code: error.status, error_code: error.errorCode, msg: error.message }, { status: error.status });
}
