/**
 * Request and response helpers shared by the functions: bounded body reading and problem answers whose
 * message says what was wrong.
 */

/** A failure that becomes an HTTP answer with this status and message. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly details: unknown;
  constructor(status: number, message: string, details?: unknown) {
    super(message);
    this.name = 'HttpProblem';
    this.status = status;
    this.details = details;
  }
}

/** A JSON error answer: `{ error, details? }`. */
export function problem(status: number, message: string, details?: unknown, headers?: HeadersInit): Response {
  return Response.json(details === undefined ? { error: message } : { error: message, details }, { status, headers });
}

/**
 * The request body as text, refused with 413 when it is larger than maxBytes: by its declared
 * Content-Length before reading, and by the bytes actually read (a missing or false length is no way in).
 */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => new HttpProblem(413, `Body larger than ${maxBytes} bytes`);
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge();
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The request body parsed as JSON: 413 over maxBytes, 400 when it is not JSON. */
export async function readJsonBody(req: Request, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(req, maxBytes);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpProblem(400, `Body is not valid JSON: ${(error as Error).message}`);
  }
}
