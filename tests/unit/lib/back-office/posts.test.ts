import { describe, expect, it } from 'vitest';
import { arrivalSender } from '../../../../src/lib/back-office/posts.ts';

describe('who sent a post that arrived from outside', () => {
  it.each([
    ['a post written in the back office', { deliveries: [], author: null }, null],
    ['the writing tool\'s webhook', { deliveries: [{ source: 'webhook', sender: null }], author: null }, { label: 'ZimmWriter', title: 'Delivered by ZimmWriter, the writing tool' }],
    ['a publishing tool, by its application password and member', { deliveries: [{ source: 'webhook', sender: 'Jasper' }], author: { full_name: 'Jordan Lee' } },
      { label: 'Jasper', title: 'Sent by a publishing tool with the application password "Jasper" of Jordan Lee' }],
  ])('%s', (_case, post, expected) => {
    expect(arrivalSender(post)).toEqual(expected);
  });
});
