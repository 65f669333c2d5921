/**
 * The functions' 500 answer (src/lib/server/http.ts serverError): a generic text and a reference for the
 * caller, the failure's own text (Postgres', Supabase's) only in the log under the same reference.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failureReference, InternalError, serverError } from '../../../../src/lib/server/http.ts';

const POSTGRES_TEXT = 'new row for relation "blog_posts" violates check constraint "blog_posts_content_check"';

afterEach(() => vi.restoreAllMocks());

describe('serverError', () => {
  it.each<[string, unknown, string | null]>([
    ['a Postgres error passed on as an Error', new Error(`receive_arrival failed: ${POSTGRES_TEXT}`), null],
    ['an InternalError with the reference of its delivery record', new InternalError(POSTGRES_TEXT, 'ab12cd34'), 'ab12cd34'],
    ['an InternalError with a reference of its own', new InternalError(POSTGRES_TEXT), null],
    ['something thrown that is not an Error', POSTGRES_TEXT, null],
  ])('answers %s with a generic text and a reference, and logs the details', async (_case, failure, givenReference) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = serverError('Could not store the post', failure);

    expect(response.status).toBe(500);
    const body = (await response.json()) as { message: string; reference: string };
    expect(body.reference).toMatch(/^[0-9a-f]{8}$/);
    if (givenReference) expect(body.reference).toBe(givenReference);
    expect(body).toEqual({ message: `Could not store the post (reference ${body.reference})`, reference: body.reference });
    expect(JSON.stringify(body)).not.toMatch(/blog_posts|constraint|relation/);

    const logged = log.mock.calls.map((args) => args.join(' ')).join('\n');
    expect(logged).toContain(body.reference);
    expect(logged).toContain(POSTGRES_TEXT);
  });

  it('gives each failure its own reference', () => {
    const references = new Set(Array.from({ length: 200 }, () => failureReference()));
    expect(references.size).toBe(200);
    for (const reference of references) expect(reference).toMatch(/^[0-9a-f]{8}$/);
  });
});
