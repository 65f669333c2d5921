/**
 * Who is calling, as the server established it from the API key and the JWT: the Postgres role a request
 * runs as and the JWT claims that `auth.uid()` / `auth.jwt()` read back through `request.jwt.claims`.
 */
export type RequestAuth = {
  role: 'anon' | 'authenticated' | 'service_role';
  claims: Record<string, unknown>;
};
