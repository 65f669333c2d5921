/**
 * PostgREST-shaped errors: every failure leaves as `{code, details, hint, message}` with PostgREST 12's
 * status codes, so supabase-js reports the same `error` object here as against a hosted project.
 */

/** An error body as PostgREST sends it. */
export type ErrorBody = { code: string; details: unknown; hint: string | null; message: string };

/** An error we raise ourselves (PGRST### codes) or translate from Postgres, with its HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;

  constructor(status: number, body: Partial<ErrorBody> & { code: string; message: string }, headers: Record<string, string> = {}) {
    super(body.message);
    this.status = status;
    this.body = { code: body.code, details: body.details ?? null, hint: body.hint ?? null, message: body.message };
    this.headers = headers;
  }
}

/** PGRST100: the query string does not parse. */
export function parseError(message: string, details: string | null = null): ApiError {
  return new ApiError(400, { code: 'PGRST100', message, details });
}

/** The fields node-postgres exposes on a server error. */
type PgError = { code?: string; message: string; detail?: string; hint?: string };

function isPgError(error: unknown): error is PgError {
  return error instanceof Error && typeof (error as PgError).code === 'string' && (error as PgError).code!.length === 5;
}

/**
 * HTTP status for a SQLSTATE, from PostgREST's table ("HTTP status codes" in its errors reference).
 * `PT###` lets a function choose the status itself (`raise sqlstate 'PT402'`).
 */
export function statusForSqlState(code: string, role: string): number {
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2));
  const exact: Record<string, number> = {
    '23503': 409, '23505': 409, '25006': 405, '42883': 404, '42P01': 404, '42P17': 500, 'P0001': 400,
  };
  const known = exact[code];
  if (known !== undefined) return known;
  if (code === '42501') return role === 'anon' ? 401 : 403;
  const byClass: Record<string, number> = {
    '08': 503, '09': 500, '0L': 403, '0P': 403, '25': 500, '28': 403, '2D': 500, '38': 500, '39': 500,
    '3B': 500, '40': 500, '53': 503, '54': 500, '55': 500, '57': 500, '58': 500, F0: 500, HV: 500, P0: 500,
    XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

/** Turns anything thrown while serving a request into the Response PostgREST would send. */
export function errorResponse(error: unknown, role: string): Response {
  if (error instanceof ApiError) {
    return Response.json(error.body, { status: error.status, headers: error.headers });
  }
  if (isPgError(error)) {
    const body: ErrorBody = {
      code: error.code!, details: error.detail ?? null, hint: error.hint ?? null, message: error.message,
    };
    return Response.json(body, { status: statusForSqlState(error.code!, role) });
  }
  const message = error instanceof Error ? error.message : String(error);
  return Response.json({ code: 'PGRST000', details: null, hint: null, message }, { status: 500 });
}
