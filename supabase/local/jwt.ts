/**
 * JSON Web Tokens of the local backend: HS256 with the Supabase CLI's well-known local secret, so the
 * anon and service_role keys of `supabase start` (kept in src/lib/server/service-config.ts) are valid here, and
 * user access tokens carry the claims GoTrue issues.
 */
import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';

const secret = new TextEncoder().encode(LOCAL_SUPABASE.jwtSecret);

/** Lifetime of a user access token in seconds (GoTrue's `jwt_expiry` default). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

/** The claims GoTrue puts in a user's access token. */
export interface AccessTokenClaims extends JWTPayload {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  email: string;
  phone: string;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  role: string;
  aal: 'aal1';
  amr: { method: string; timestamp: number }[];
  session_id: string;
  is_anonymous: boolean;
}

/** Signs claims with the local secret and GoTrue's header (`alg` HS256, `typ` JWT). */
export function signJwt(claims: JWTPayload): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
}

/** Why a token was refused: PostgREST and GoTrue word expiry differently from other failures. */
export type JwtFailure = 'expired' | 'invalid';

/** Verifies signature and expiry; returns the payload, or the reason it is not acceptable. */
export async function verifyJwt(token: string): Promise<{ claims: JWTPayload } | { failure: JwtFailure; message: string }> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    return { claims: payload };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { failure: 'expired', message: 'JWT expired' };
    const message = error instanceof Error ? error.message : String(error);
    return { failure: 'invalid', message };
  }
}
