/**
 * Who a request to the local backend acts as, decided by the server from the `Authorization` bearer
 * token (or the `apikey` header) before any handler runs. The REST handler switches to `role` with
 * `set local role` and publishes `claims` as `request.jwt.claims`, as PostgREST does.
 */
export interface RequestAuth {
  /** The Postgres role the request runs as: the JWT's `role` claim. */
  role: 'anon' | 'authenticated' | 'service_role';
  /** The verified JWT payload, exactly as signed. */
  claims: Record<string, unknown>;
}
