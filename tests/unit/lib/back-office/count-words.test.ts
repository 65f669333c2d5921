import { describe, expect, it } from 'vitest';
import { countWords } from '../../../../src/lib/back-office/count-words';

describe('countWords', () => {
  it.each([
    [0, 'view', undefined, '0 views'],
    [1, 'view', undefined, '1 view'],
    [2, 'view', undefined, '2 views'],
    [21, 'post', undefined, '21 posts'],
    [1200, 'view', undefined, '1,200 views'],
    [1, 'person', 'people', '1 person'],
    [3, 'person', 'people', '3 people'],
    [1, 'change', undefined, '1 change'],
  ])('%i %s', (count, singular, plural, expected) => {
    expect(countWords(count, singular, plural)).toBe(expected);
  });
});
