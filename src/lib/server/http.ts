/** Request reading and error answers shared by the functions. */

/** An error that becomes an HTTP answer with a message for the user. */
export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * Netlify's limit for a synchronous function's request body. The local servers enforce it as well, in front
 * of netlify-cli (netlify/local/body-limit-proxy.ts), so a larger body gets the same 413 there.
 */
export const FUNCTION_BODY_LIMIT_BYTES = 6_000_000;

/** The text of a 413 answer, the same from a function and from the local servers. */
export function bodyTooLargeText(maxBytes: number): string {
  return `The request body is larger than ${maxBytes} bytes.`;
}

/**
 * Reads a body of at most `maxBytes`, stopping as soon as the limit is passed, so a huge body is never held in
 * memory. Throws 413 when too large.
 */
export async function readBytes(req: Request, { maxBytes }: { maxBytes: number }): Promise<Uint8Array> {
  const tooLarge = () => new HttpError(413, bodyTooLargeText(maxBytes));
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/** Reads a body of at most `maxBytes` as text (readBytes). Throws 413 when too large. */
export async function readText(req: Request, { maxBytes }: { maxBytes: number }): Promise<string> {
  return new TextDecoder().decode(await readBytes(req, { maxBytes }));
}

/** Reads a JSON body of at most `maxBytes` (readText). Throws 413 when too large and 400 when not JSON. */
export async function readJson(req: Request, { maxBytes }: { maxBytes: number }): Promise<unknown> {
  const text = await readText(req, { maxBytes });
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body must be JSON.');
  }
}

/** A JSON answer `{ message }`, the shape every function uses for errors and confirmations. */
export function message(status: number, text: string): Response {
  return Response.json({ message: text }, { status });
}

/** A short id for one failure, shown to the caller and written next to the details in the log. */
export function failureReference(): string {
  return crypto.randomUUID().slice(0, 8);
}

/**
 * A failure on our side whose text is for the log only (Postgres' and Supabase's messages name tables,
 * constraints and values). `reference` is the one already given to the failure elsewhere (a delivery
 * record, say), so the log, the record and the answer agree.
 */
export class InternalError extends Error {
  readonly reference: string;
  constructor(detail: string, reference: string = failureReference()) {
    super(detail);
    this.reference = reference;
  }
}

/**
 * The 500 answer to any unexpected failure: `{ message: '<text> (reference ab12cd34)', reference }`. The
 * failure's own text goes to the function log with the same reference, never to the caller.
 */
export function serverError(text: string, failure: unknown): Response {
  const reference = failure instanceof InternalError ? failure.reference : failureReference();
  console.error(`${text} (reference ${reference}):`, failure instanceof Error ? failure.message : String(failure));
  return Response.json({ message: `${text} (reference ${reference})`, reference }, { status: 500 });
}
