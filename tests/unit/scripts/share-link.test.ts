import { afterEach, describe, expect, it, vi } from 'vitest';
import { shareLink } from '../../../src/scripts/share-link';

const URL = 'https://example.com/blog/a-post';
const refused = (name: string) => () => Promise.reject(new DOMException('refused', name));

/** The browser's share sheet and clipboard as each case has them; `copied` records what reached the clipboard. */
function browserWith(share: (() => Promise<void>) | undefined, writeText: (text: string) => Promise<void>) {
  const copied: string[] = [];
  vi.stubGlobal('navigator', { share, clipboard: { writeText: (text: string) => writeText(text).then(() => void copied.push(text)) } });
  return copied;
}

describe('shareLink: what the share button and its plain script show', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['the share sheet shares', () => Promise.resolve(), '', []],
    ['the visitor dismisses the sheet', refused('AbortError'), '', []],
    ['the sheet is refused: the link is copied instead', refused('NotAllowedError'), 'Link copied', [URL]],
    ['no share sheet: the link is copied', undefined, 'Link copied', [URL]],
  ] as const)('%s', async (_case, share, answer, copied) => {
    const clipboard = browserWith(share, () => Promise.resolve());
    expect(await shareLink('A post', URL)).toBe(answer);
    expect(clipboard).toEqual(copied);
  });

  it('gives the link to copy by hand when the clipboard refuses', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    browserWith(undefined, refused('NotAllowedError'));
    expect(await shareLink('A post', URL)).toBe(`Copy this link: ${URL}`);
  });
});
