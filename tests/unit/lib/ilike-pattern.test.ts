import { describe, expect, it } from 'vitest';
import { ilikePattern, likeLiteral } from '../../../src/lib/ilike-pattern.ts';

describe('search terms as ilike patterns', () => {
  it('escapes LIKE\'s wildcards and escape, so a term matches as typed', () => {
    expect(likeLiteral('50% off_now\\')).toBe('50\\% off\\_now\\\\');
    expect(likeLiteral('plain words')).toBe('plain words');
  });

  it('quotes the term for an or() filter, so commas, parentheses and quotes cannot break it', () => {
    expect(ilikePattern('Smith, John (CEO)')).toBe('"*Smith, John (CEO)*"');
    expect(ilikePattern('say "hi"')).toBe('"*say \\"hi\\"*"');
    expect(ilikePattern('100%')).toBe('"*100\\\\%*"');
  });
});
