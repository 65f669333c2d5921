import { describe, expect, it } from 'vitest';
import { stockPhotoSrcset, stockPhotoUrl } from '../../../src/lib/images';

const photo = 'https://images.unsplash.com/photo-1?auto=format&fit=crop&q=80';

describe('stock photo URLs', () => {
  it('sets the width and keeps the other parameters', () => {
    expect(stockPhotoUrl(photo, 400)).toBe('https://images.unsplash.com/photo-1?auto=format&fit=crop&q=80&w=400');
  });

  it('lists the 400/800/1200/1600 variants', () => {
    expect(stockPhotoSrcset(photo).split(', ').map((c) => c.split(' ')[1])).toEqual(['400w', '800w', '1200w', '1600w']);
  });
});
