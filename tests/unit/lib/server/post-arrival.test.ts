import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { arrivalFields, DeliveryProblem } from '../../../../src/lib/server/post-arrival.ts';
import { POST_LIMITS } from '../../../../src/schemas/post.ts';

// No organization: the category is not mapped, so no backend is read.
const noBackend = {} as SupabaseClient;
const post = (text: string) => ({
  title: 'Growing', body: { text, format: 'markdown' as const, field: 'markdown' }, excerpt: null, slug: 'growing', category: null, tags: null,
  featuredMediaId: null, metaTitle: null, metaDescription: null,
});

describe('an arrival whose Markdown grows past the bound once rendered', () => {
  // Renders 760,000 characters of Markdown: 2 s of a core alone, more beside the other suites.
  it('is refused naming its field, before anything reaches the database', { timeout: 30_000 }, async () => {
    // 760,000 characters of Markdown, 2,090,000 of HTML.
    const source = '*a* '.repeat(190_000);
    expect(source.length).toBeLessThanOrEqual(POST_LIMITS.content);
    const refused = await arrivalFields(noBackend, null, post(source)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DeliveryProblem);
    expect((refused as DeliveryProblem).message).toBe('Invalid payload: markdown: Too long once rendered as HTML (at most 2,000,000 characters)');
  });

  it('is kept when its HTML stays within the bound', async () => {
    const fields = await arrivalFields(noBackend, null, post('*a* '.repeat(1_000)));
    expect(fields.content!.length).toBeLessThanOrEqual(POST_LIMITS.content);
  });
});
