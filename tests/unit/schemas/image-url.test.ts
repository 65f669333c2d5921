import { describe, expect, it } from 'vitest';
import { imageUrlProblem } from '../../../src/schemas/image-url.ts';
import { IMAGE_URL_CASES } from '../../fixtures/image-urls.ts';

describe('imageUrlProblem', () => {
  it.each(IMAGE_URL_CASES)('%s: %s', (url, problem) => {
    expect(imageUrlProblem(url)).toBe(problem);
  });
});
