import { describe, expect, it } from 'vitest';
import { autoExcerpt, EXCERPT_LENGTH, ledeOf, postExcerpt } from '../../../src/lib/excerpt.ts';
import { proseBlocks } from '../../../src/lib/sanitize-html.ts';

describe('proseBlocks', () => {
  it.each<[string, string, string[]]>([
    ['headings are not prose', '<h2>Intro</h2><p>An HTML article with a <a href="/x">link</a>.</p>', ['An HTML article with a link.']],
    ['each paragraph and list item is a block', '<p>One</p><ul><li>Two</li><li><p>Three</p></li></ul>', ['One', 'Two', 'Three']],
    ['code, captions and tables are left out', '<pre><code>npm i</code></pre><figure><img src="a.png"><figcaption>Cap</figcaption></figure><table><tr><td>Cell</td></tr></table><p>Text</p>', ['Text']],
    ['entities decoded, whitespace collapsed', '<p>Tom &amp; Jerry &lt;3\n   friends</p>', ['Tom & Jerry <3 friends']],
    ['inline markup never splits a word', '<p><b>Bold</b>ness</p>', ['Boldness']],
    ['nothing but headings: no blocks', '<h1>A</h1><h2>B</h2>', []],
  ])('%s', (_, html, blocks) => expect(proseBlocks(html)).toEqual(blocks));
});

describe('autoExcerpt', () => {
  it.each<[string, string, string]>([
    ['never glues a heading onto the text', '<h2>Intro</h2><p>An HTML article with a link.</p>', 'An HTML article with a link.'],
    ['keeps paragraphs apart as sentences', '<p>First point</p><p>Second point.</p>', 'First point. Second point.'],
    ['keeps a paragraph’s own ending', '<p>Ready?</p><p>Go!</p><p>Steps:</p><ul><li>One</li></ul>', 'Ready? Go! Steps: One'],
    ['a Markdown-rendered list reads as sentences', '<ul><li>Fast</li><li>Cheap</li></ul>', 'Fast. Cheap'],
    ['no running text: empty', '<h2>Only a heading</h2>', ''],
  ])('%s', (_, html, excerpt) => expect(autoExcerpt(html)).toBe(excerpt));

  it('cuts at a word boundary with an ellipsis, never mid-word or after a comma', () => {
    const excerpt = autoExcerpt(`<p>${'word, '.repeat(60)}</p>`);
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_LENGTH + 1);
    expect(excerpt).toMatch(/ word…$/);
  });
});

describe('postExcerpt', () => {
  it('uses a hand-written excerpt as written, else the automatic one', () => {
    expect(postExcerpt('  My summary. ', '<p>Body</p>')).toBe('My summary.');
    expect(postExcerpt(null, '<h2>Intro</h2><p>Body</p>')).toBe('Body');
    expect(postExcerpt('   ', '<p>Body</p>')).toBe('Body');
  });
});

describe('ledeOf', () => {
  const body = '<h2>Intro</h2><p>Local SEO brings customers to your door.</p><p>Here is how.</p>';
  it.each<[string, string | null, string | null]>([
    ['no excerpt: no lede', null, null],
    ['a blank excerpt: no lede', '  ', null],
    ['a hand-written summary the body does not begin with: the lede', 'Five steps to rank in your city.', 'Five steps to rank in your city.'],
    ['the first paragraph sent again as the excerpt: no lede', 'Local SEO brings customers to your door.', null],
    ['the same words, other case and punctuation: no lede', 'local SEO brings customers to your door', null],
    ['the body’s beginning cut short with an ellipsis: no lede', 'Local SEO brings customers…', null],
    ['an automatic excerpt is the body’s beginning: no lede', autoExcerpt(body), null],
  ])('%s', (_, excerpt, lede) => expect(ledeOf(excerpt, body)).toBe(lede));
});
