import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { shapePostContent } from '../../../../src/lib/post-content.ts';
import { checkMediaFile, formatBytes, formatDimensions, MEDIA_ACCEPT, MEDIA_LIMIT_TEXT, MEDIA_MAX_BYTES, MediaError, inlineImageTag, insertBlock, sharedDetailsNote, usageByMedia } from '../../../../src/lib/back-office/media.ts';

const image = (format: 'jpeg' | 'png' | 'webp' | 'avif' | 'gif') =>
  sharp({ create: { width: 30, height: 20, channels: 3, background: '#0f766e' } })[format]().toBuffer().then((b) => new Uint8Array(b));

describe('checkMediaFile', () => {
  it.each([
    ['jpeg', 'photo.jpg', 'image/jpeg'],
    ['png', 'logo.png', 'image/png'],
    ['webp', 'hero.webp', 'image/webp'],
    ['avif', 'cover.avif', 'image/avif'],
    ['gif', 'spinner.gif', 'image/gif'],
    // The content decides, not the name or the type the browser guessed from it.
    ['png', 'renamed.jpg', 'image/png'],
  ] as const)('takes a %s file named %s as %s, with its size in pixels', async (format, name, mimeType) => {
    const file = new File([await image(format)], name, { type: 'image/jpeg' });
    expect((await checkMediaFile(file)).info).toMatchObject({ mimeType, width: 30, height: 20 });
  });

  it.each([
    ['a text file', () => new File(['just words'], 'photo.txt', { type: 'text/plain' }), 'photo.txt is not an image (JPEG, PNG, WebP, AVIF or GIF)'],
    ['a text file named like an image', () => new File(['just words'], 'fake.png', { type: 'image/png' }), 'fake.png is not an image (JPEG, PNG, WebP, AVIF or GIF)'],
    ['an SVG', () => new File(['<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'], 'icon.svg'), 'icon.svg is not an image (JPEG, PNG, WebP, AVIF or GIF)'],
    ['a file over the limit', () => new File([new Uint8Array(MEDIA_MAX_BYTES + 1)], 'big.jpg'), 'big.jpg is larger than 5 MB'],
    ['an empty file', () => new File([], 'empty.gif'), 'empty.gif is empty'],
  ])('refuses %s with a clear message', async (_name, file, message) => {
    const refusal = checkMediaFile(file());
    await expect(refusal).rejects.toBeInstanceOf(MediaError);
    await expect(refusal).rejects.toThrow(message);
  });

  it('takes a file of exactly 5 MB', async () => {
    const png = await image('png');
    const padded = new File([png, new Uint8Array(MEDIA_MAX_BYTES - png.length)], 'limit.png');
    await expect(checkMediaFile(padded)).resolves.toMatchObject({ info: { mimeType: 'image/png' } });
  });
});

describe('helpers', () => {
  it('states the limit the bucket enforces, and the picker offers the five types', () => {
    expect(MEDIA_MAX_BYTES).toBe(5_242_880);
    expect(MEDIA_LIMIT_TEXT).toBe('JPEG, PNG, WebP, AVIF or GIF, up to 5 MB each');
    expect(MEDIA_ACCEPT).toBe('image/jpeg,image/png,image/webp,image/avif,image/gif');
  });

  it.each([
    [512, '512 B'],
    [34 * 1024, '34 KB'],
    [1536 * 1024, '1.5 MB'],
    [5 * 1024 * 1024, '5 MB'],
    [12 * 1024 * 1024, '12 MB'],
  ])('formatBytes(%i) = %s', (size, text) => expect(formatBytes(size)).toBe(text));

  it('formats dimensions, or null when unknown', () => {
    expect(formatDimensions({ width: 1200, height: 800 })).toBe('1200 × 800');
    expect(formatDimensions({ width: null, height: null })).toBeNull();
  });

  it('groups usage by file', () => {
    const use = (media_id: string, post_id: string) => ({ media_id, post_id, post_title: post_id, post_status: 'draft', in_content: false });
    const grouped = usageByMedia([use('m1', 'a'), use('m2', 'b'), use('m1', 'c')]);
    expect(grouped.get('m1')?.map((u) => u.post_id)).toEqual(['a', 'c']);
    expect(grouped.get('m3')).toBeUndefined();
  });
});

describe('sharedDetailsNote', () => {
  const use = (post_id: string, in_content: boolean) => ({ media_id: 'm1', post_id, post_title: post_id, post_status: 'published', in_content });
  it('says before saving that the details change in every post that shows the image, counting each post once', () => {
    expect(sharedDetailsNote([])).toBeNull();
    expect(sharedDetailsNote([use('a', false)])).toBe('Saving changes the alt text and caption in the post that uses this image too.');
    expect(sharedDetailsNote([use('a', false), use('a', true), use('b', true)])).toBe('Saving changes the alt text and caption in the 2 posts that use this image.');
  });
});

describe('an image put in the text from the library', () => {
  const URL_ = 'http://127.0.0.1:54321/storage/v1/object/public/media/org/chart.png';

  it('is an <img> with its alt text (escaped), its size and lazy loading', () => {
    expect(inlineImageTag({ alt_text: ' A "big" <chart> & more ', width: 1200, height: 800 }, URL_)).toBe(
      `<img src="${URL_}" alt="A &quot;big&quot; &lt;chart> &amp; more" width="1200" height="800" loading="lazy">`,
    );
    expect(inlineImageTag({ alt_text: '', width: null, height: null }, URL_)).toBe(`<img src="${URL_}" alt="" loading="lazy">`);
  });

  it('goes in as a paragraph of its own where the caret is, or in place of the selection, the caret after it', () => {
    expect(insertBlock('', 0, 0, '<img>')).toEqual({ text: '<img>\n', caret: 5 });
    expect(insertBlock('First.\n\nSecond.', 6, 6, '<img>')).toEqual({ text: 'First.\n\n<img>\n\nSecond.', caret: 13 });
    expect(insertBlock('Keep this. Drop this. And this.', 11, 22, '<img>')).toEqual({ text: 'Keep this.\n\n<img>\n\nAnd this.', caret: 17 });
    expect(insertBlock('End.', 4, 4, '<img>')).toEqual({ text: 'End.\n\n<img>\n', caret: 11 });
  });

  it('keeps its size and lazy loading through the shaping of Markdown and HTML alike', async () => {
    const tag = inlineImageTag({ alt_text: 'A chart', width: 1200, height: 800 }, URL_);
    for (const format of ['markdown', 'html'] as const) {
      const { content } = await shapePostContent(insertBlock('Before.', 7, 7, tag).text, format);
      expect(content).toContain(`<img src="${URL_}" alt="A chart" width="1200" height="800" loading="lazy" />`);
    }
  });
});
