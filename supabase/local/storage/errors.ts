/**
 * Storage API errors as hosted storage-api sends them: `{statusCode, code, error, message}` with the status
 * code as a string and storage-api's error code (supabase-js' `exists()` reads `NoSuchKey`), so supabase-js reports the same `error.message` here as against a hosted project.
 */

/** An error the storage handler answers with. */
export class StorageError extends Error {
  readonly status: number;
  readonly statusCode: string;
  readonly error: string;
  readonly code: string;

  constructor(status: number, statusCode: string, code: string, error: string, message: string) {
    super(message);
    this.status = status;
    this.statusCode = statusCode;
    this.code = code;
    this.error = error;
  }
}

// Hosted storage-api answers most refusals with HTTP 400 and the meaningful code in `statusCode`.
export const bucketNotFound = () => new StorageError(400, '404', 'NoSuchBucket', 'Bucket not found', 'Bucket not found');
export const objectNotFound = () => new StorageError(400, '404', 'NoSuchKey', 'not_found', 'Object not found');
export const duplicate = () => new StorageError(400, '409', 'ResourceAlreadyExists', 'Duplicate', 'The resource already exists');
export const invalidKey = (key: string) => new StorageError(400, '400', 'InvalidKey', 'InvalidKey', `Invalid key: ${key}`);
export const invalidRequest = (message: string) => new StorageError(400, '400', 'InvalidRequest', 'InvalidRequest', message);
export const rlsRefused = () => new StorageError(400, '403', 'AccessDenied', 'Unauthorized', 'new row violates row-level security policy');
export const tooLarge = () => new StorageError(413, '413', 'EntityTooLarge', 'Payload too large', 'The object exceeded the maximum allowed size');
export const mimeRefused = (type: string) => new StorageError(415, '415', 'InvalidMimeType', 'invalid_mime_type', `mime type ${type} is not supported`);
export const invalidJwt = (message: string) => new StorageError(400, '400', 'InvalidJWT', 'InvalidJWT', message);

type PgError = { code?: string; message: string };

/** Turns what a request threw into hosted's error body; Postgres' refusals keep hosted's wording. */
export function storageErrorResponse(error: unknown): Response {
  let known: StorageError | undefined = error instanceof StorageError ? error : undefined;
  const code = (error as PgError | undefined)?.code;
  if (!known && code === '23505') known = duplicate();
  if (!known && code === '42501') known = rlsRefused();
  if (!known && code === '23503') known = bucketNotFound();
  if (!known) throw error;
  return Response.json({ statusCode: known.statusCode, code: known.code, error: known.error, message: known.message }, { status: known.status });
}
