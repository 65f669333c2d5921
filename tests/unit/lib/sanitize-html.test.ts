import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeArticleHtml } from '../../../src/lib/sanitize-html.ts';
import { readingTimeMinutes } from '../../../src/lib/reading-time.ts';

describe('sanitizeArticleHtml', () => {
  it.each([
    ['script elements and their contents', '<p>a</p><script>alert(1)</script>', '<p>a</p>'],
    ['event handler attributes', '<img src="https://cdn.example.com/a.png" onerror="alert(1)" alt="A" />', '<img src="https://cdn.example.com/a.png" alt="A" />'],
    ['javascript: links', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['encoded javascript: links', '<a href="jav&#x09;ascript:alert(1)">x</a>', '<a>x</a>'],
    ['data: images', '<img src="data:image/png;base64,AAAA" />', '<img />'],
    ['style elements and attributes', '<style>p{}</style><p style="color:red">t</p>', '<p>t</p>'],
    ['iframes from other hosts', '<iframe src="https://evil.example.com/x"></iframe><p>t</p>', '<p>t</p>'],
    ['forms and inputs', '<form action="/x"><input name="a" /></form><p>t</p>', '<p>t</p>'],
    ['svg with script', '<svg onload="alert(1)"><script>alert(1)</script></svg><p>t</p>', '<p>t</p>'],
  ])('removes %s', (_case, dirty, clean) => {
    expect(sanitizeArticleHtml(dirty)).toBe(clean);
  });

  it.each([
    ['headings, lists and emphasis', '<h2>Title</h2><ul><li><strong>a</strong> <em>b</em></li></ul>'],
    ['tables', '<table><thead><tr><th scope="col">h</th></tr></thead><tbody><tr><td colspan="2">d</td></tr></tbody></table>'],
    ['https links', '<a href="https://example.com/page" title="t">x</a>'],
    ['mail links', '<a href="mailto:hello@example.com">mail</a>'],
    ['YouTube embeds', '<iframe src="https://www.youtube.com/embed/abc123" title="Video" allowfullscreen></iframe>'],
    ['Vimeo embeds', '<iframe src="https://player.vimeo.com/video/123" title="Video"></iframe>'],
    ['images over https', '<img src="https://cdn.example.com/a.png" alt="A" width="640" height="480" />'],
  ])('keeps %s', (_case, html) => {
    expect(sanitizeArticleHtml(html)).toBe(html);
  });

  it('gives links that open a new tab rel="noopener noreferrer"', () => {
    expect(sanitizeArticleHtml('<a href="https://example.com" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });
});

describe('htmlToText', () => {
  it('drops tags and script contents and collapses whitespace', () => {
    expect(htmlToText('<h1>Hello</h1>\n<p>big   <b>world</b></p><script>var x</script>')).toBe('Hello big world');
  });

  it('keeps adjacent blocks and line breaks apart without splitting inline markup', () => {
    expect(htmlToText('<h2>Intro</h2><p>First<br>line</p><ul><li>one</li><li>two</li></ul>')).toBe('Intro First line one two');
    expect(htmlToText('<p><b>Bold</b>face and <a href="/x">li</a>nk</p>')).toBe('Boldface and link');
  });
});

describe('readingTimeMinutes', () => {
  it.each([
    [0, 1],
    [1, 1],
    [200, 1],
    [201, 2],
    [1000, 5],
    [200 * 700, 600],
  ])('%i words take %i minute(s)', (words, minutes) => {
    expect(readingTimeMinutes(`<p>${'word '.repeat(words)}</p>`)).toBe(minutes);
  });
});
