import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeArticleHtml } from '../../../src/lib/sanitize-html.ts';
import { readingTimeMinutes } from '../../../src/lib/reading-time.ts';

/** What an embedded player always gets. */
const PLAYER = 'referrerpolicy="strict-origin-when-cross-origin" loading="lazy"';

/**
 * The tags of sanitized HTML with their attributes (entities in values decoded). sanitize-html writes one
 * canonical form (`<tag name="value">`, quotes and angle brackets in values escaped), which this reads.
 */
function tagsOf(html: string): { tag: string; attributes: [string, string][] }[] {
  const decode = (value: string) =>
    value
      .replace(/&#x([0-9a-f]+);?/gi, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);?/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return [...html.matchAll(/<([a-zA-Z][^\s/>]*)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*\/?>/g)].map(([, tag, attributes]) => ({
    tag: (tag ?? '').toLowerCase(),
    attributes: [...(attributes ?? '').matchAll(/\s+([^\s=/>]+)(?:="([^"]*)")?/g)].map(([, name, value]) => [(name ?? '').toLowerCase(), decode(value ?? '')]),
  }));
}

/** The guarantees every sanitized article keeps, whatever went in. */
function expectHarmless(html: string) {
  for (const { tag, attributes } of tagsOf(html)) {
    expect(['script', 'style', 'svg', 'math', 'form', 'input', 'button', 'base', 'meta', 'link', 'object', 'embed', 'template', 'noscript']).not.toContain(tag);
    for (const [name, value] of attributes) {
      expect(name, `${tag} ${name}`).not.toMatch(/^on|^style$|^srcdoc$|^formaction$|^xlink:href$|^sandbox$/);
      if (['href', 'src'].includes(name)) {
        // Browsers ignore control characters and spaces in a scheme; what is left must be a safe scheme or none.
        // eslint-disable-next-line no-control-regex
        expect(value.replace(/[\x00-\x20]+/g, ''), `${tag} ${name}`).toMatch(/^(?:https?:|mailto:|tel:|#|[^:]*$)/i);
      }
      if (name === 'srcset') expect(value, `${tag} srcset`).not.toMatch(/(?:^|,)\s*(?![a-z]+:\/\/)[a-z]+:/i);
      if (name === 'id' || (tag === 'a' && name === 'name')) expect(value).toMatch(/^user-content-./);
    }
    if (tag === 'a' && attributes.some(([name]) => name === 'target')) {
      expect(attributes.find(([name]) => name === 'rel')?.[1].split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    }
  }
  // Stored HTML is sanitized again by the build: that must change nothing.
  expect(sanitizeArticleHtml(html)).toBe(html);
}

describe('sanitizeArticleHtml', () => {
  it.each([
    // Scripts, styles and active content.
    ['script elements and their contents', '<p>a</p><script>alert(1)</script>', '<p>a</p>'],
    ['script with a src', '<script src="https://evil.test/x.js"></script><p>t</p>', '<p>t</p>'],
    ['style elements and attributes', '<style>p{}</style><p style="color:red">t</p>', '<p>t</p>'],
    ['style with an import', '<style>@import url("https://evil.test/x.css");</style><p>t</p>', '<p>t</p>'],
    ['object, embed and applet', '<object data="x.swf"></object><embed src="x.swf"><applet code="x"></applet><p>t</p>', '<p>t</p>'],
    ['textarea contents', '<textarea><script>alert(1)</script></textarea><p>t</p>', '<p>t</p>'],
    ['template contents as markup', '<template><img src="x" onerror="alert(1)"></template>', '<img src="x" />'],
    ['noscript wrapping a title that closes it', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>', '<p></p>'],
    ['comments and CDATA', '<p>a<!-- <img src=x onerror=alert(1)> --></p><![CDATA[<script>x</script>]]><p>b</p>', '<p>a</p><p>b</p>'],
    // Event handlers, in every casing and spacing.
    ['event handler attributes', '<img src="https://cdn.example.com/a.png" onerror="alert(1)" alt="A" />', '<img src="https://cdn.example.com/a.png" alt="A" />'],
    ['event handlers in any casing', '<img src="https://a.test/a.png" ONERROR="a()" OnLoad="b()" oNmOuSeOvEr="c()">', '<img src="https://a.test/a.png" />'],
    ['event handlers with spaces and slashes', '<img src="x" onerror  =  "alert(1)" / onload=alert(2)>', '<img src="x" />'],
    ['event handlers after a slash', '<img/src="x"/onerror="alert(1)">', '<img src="x" />'],
    ['event handlers on links', '<a href="https://x.test"/onclick=alert(1) onfocus="x()" autofocus>x</a>', '<a href="https://x.test">x</a>'],
    ['event handlers on allowed blocks', '<p onclick="x()" ONMOUSEENTER="y()">t</p>', '<p>t</p>'],
    // Link schemes, with entities and whitespace tricks.
    ['javascript: links', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['javascript: in mixed case', '<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['javascript: after spaces', '<a href="   javascript:alert(1)">x</a>', '<a>x</a>'],
    ['javascript: with a tab entity', '<a href="jav&#x09;ascript:alert(1)">x</a>', '<a>x</a>'],
    ['javascript: with a newline entity', '<a href="java&#x0A;script:alert(1)">x</a>', '<a>x</a>'],
    ['javascript: with a control character', '<a href="\u0001javascript:alert(1)">x</a>', '<a>x</a>'],
    ['javascript: with a NUL', '<a href="java\u0000script:alert(1)">x</a>', '<a>x</a>'],
    ['javascript: as decimal entities', '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>', '<a>x</a>'],
    ['javascript: as hex entities', '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">x</a>', '<a>x</a>'],
    ['javascript: with a named colon entity', '<a href="javascript&colon;alert(1)">x</a>', '<a>x</a>'],
    [
      // Left as the literal text it is here (the ampersands escaped): a harmless relative link.
      'javascript: as zero-padded entities without semicolons',
      '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
      '<a href="&amp;#0000106&amp;#0000097&amp;#0000118&amp;#0000097&amp;#0000115&amp;#0000099&amp;#0000114&amp;#0000105&amp;#0000112&amp;#0000116&amp;#0000058alert(1)">x</a>',
    ],
    ['vbscript: links', '<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
    ['VBScript: with entities', '<a href="VB&#x53;cript:msgbox(1)">x</a>', '<a>x</a>'],
    ['data: links', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>', '<a>x</a>'],
    ['data: links in upper case after a space', '<a href=" DATA:text/html,<script>alert(1)</script>">x</a>', '<a>x</a>'],
    ['protocol-relative links', '<a href="//evil.test/x">x</a>', '<a>x</a>'],
    // Images.
    ['data: images', '<img src="data:image/png;base64,AAAA" />', '<img />'],
    ['javascript: image sources', '<img src="javascript:alert(1)">', '<img />'],
    ['javascript: in srcset, keeping the safe candidate', '<img srcset="javascript:alert(1) 1x, https://a.test/b.png 2x">', '<img srcset="https://a.test/b.png 2x" />'],
    ['srcset of only unsafe candidates', '<img srcset="javascript:alert(1) 1x, data:image/png;base64,AAAA 2x, mailto:a@b.test 3x">', '<img />'],
    // SVG and MathML, mutation-XSS classics included.
    ['svg with script', '<svg onload="alert(1)"><script>alert(1)</script></svg><p>t</p>', '<p>t</p>'],
    ['svg links', '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>', '<a>x</a>'],
    ['svg animate setting an href', '<svg><animate attributeName="href" values="javascript:alert(1)"/><a><text>x</text></a></svg>', '<a>x</a>'],
    ['math with a javascript: link', '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>', 'x'],
    [
      'math/mglyph/style namespace confusion',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
      '<table></table>',
    ],
    [
      'math/mglyph/style with a comment hiding markup in a title',
      '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=alert(1)&gt;">',
      '<table><img title="--&gt;&lt;img src=1 onerror=alert(1)&gt;" /></table>',
    ],
    [
      'nested forms with svg/style namespace confusion',
      '<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=alert(1) src>">',
      '<img />"&gt;',
    ],
    ['xmp raw text', '<xmp><img src=x onerror=alert(1)></xmp>', '<img src="x" />'],
    // Forms and document-level elements.
    ['forms and inputs', '<form action="/x"><input name="a" /></form><p>t</p>', '<p>t</p>'],
    ['buttons with formaction', '<form action="https://evil.test"><button formaction="javascript:alert(1)">go</button></form><p>t</p>', 'go<p>t</p>'],
    ['base elements', '<base href="https://evil.test/"><p>t</p>', '<p>t</p>'],
    ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)"><p>t</p>', '<p>t</p>'],
    ['meta set-cookie', '<meta http-equiv="set-cookie" content="a=b"><p>t</p>', '<p>t</p>'],
    ['link elements', '<link rel="stylesheet" href="https://evil.test/x.css"><p>t</p>', '<p>t</p>'],
    // Iframes.
    ['iframes from other hosts', '<iframe src="https://evil.example.com/x"></iframe><p>t</p>', '<p>t</p>'],
    ['iframes from a look-alike host', '<iframe src="https://www.youtube.com.evil.test/embed/abc"></iframe><p>t</p>', '<p>t</p>'],
    ['iframes with the player host as user info', '<iframe src="https://www.youtube.com@evil.test/embed/abc"></iframe><p>t</p>', '<p>t</p>'],
    ['iframes from a subdomain of a player host', '<iframe src="https://evil.player.vimeo.com/video/1"></iframe><p>t</p>', '<p>t</p>'],
    ['iframes over http', '<iframe src="http://www.youtube.com/embed/abc"></iframe><p>t</p>', '<p>t</p>'],
    ['protocol-relative iframes', '<iframe src="//www.youtube.com/embed/abc"></iframe><p>t</p>', '<p>t</p>'],
    ['javascript: iframes', '<iframe src="javascript:alert(1)"></iframe><p>t</p>', '<p>t</p>'],
    ['iframes without a source', '<iframe srcdoc="<script>alert(1)</script>"></iframe><p>t</p>', '<p>t</p>'],
    ['srcdoc next to an allowed source', '<iframe srcdoc="<script>alert(1)</script>" src="https://www.youtube.com/embed/abc"></iframe>', `<iframe src="https://www.youtube.com/embed/abc" ${PLAYER}></iframe>`],
  ])('removes %s', (_case, dirty, clean) => {
    const result = sanitizeArticleHtml(dirty);
    expect(result).toBe(clean);
    expectHarmless(result);
  });

  it.each([
    ['headings, lists and emphasis', '<h2>Title</h2><ul><li><strong>a</strong> <em>b</em></li></ul>'],
    ['tables', '<table><thead><tr><th scope="col">h</th></tr></thead><tbody><tr><td colspan="2">d</td></tr></tbody></table>'],
    ['https links', '<a href="https://example.com/page" title="t">x</a>'],
    ['relative links', '<a href="/blog/other-post">x</a>'],
    ['mail links', '<a href="mailto:hello@example.com">mail</a>'],
    ['phone links', '<a href="tel:+14045550100">call</a>'],
    ['the top-of-page link', '<a href="#">top</a>'],
    ['YouTube embeds', `<iframe src="https://www.youtube.com/embed/abc123" title="Video" allowfullscreen ${PLAYER}></iframe>`],
    ['privacy-enhanced YouTube embeds', `<iframe src="https://www.youtube-nocookie.com/embed/abc123" title="Video" ${PLAYER}></iframe>`],
    ['Vimeo embeds', `<iframe src="https://player.vimeo.com/video/123" title="Video" allow="autoplay; fullscreen; picture-in-picture" ${PLAYER}></iframe>`],
    ['images over https', '<img src="https://cdn.example.com/a.png" alt="A" width="640" height="480" />'],
    ['image sets over https', '<img src="https://cdn.example.com/a.png" srcset="https://cdn.example.com/a.png 1x, https://cdn.example.com/a@2x.png 2x" alt="A" />'],
    ['prefixed ids and the links to them', '<h2 id="user-content-intro">Intro</h2><p><a href="#user-content-intro">back</a></p>'],
  ])('keeps %s', (_case, html) => {
    expect(sanitizeArticleHtml(html)).toBe(html);
    expectHarmless(html);
  });

  it.each([
    ['a heading id and the table of contents linking to it', '<a href="#intro">Intro</a><h2 id="intro">Intro</h2>', '<a href="#user-content-intro">Intro</a><h2 id="user-content-intro">Intro</h2>'],
    ['an id that would clobber a global', '<img src="https://a.test/a.png" id="location" /><p id="main">t</p>', '<img src="https://a.test/a.png" id="user-content-location" /><p id="user-content-main">t</p>'],
    ['an old-style named anchor', '<a name="faq">FAQ</a><a href=" #faq">to FAQ</a>', '<a name="user-content-faq">FAQ</a><a href="#user-content-faq">to FAQ</a>'],
  ])('prefixes %s with user-content-', (_case, dirty, clean) => {
    expect(sanitizeArticleHtml(dirty)).toBe(clean);
    expectHarmless(clean);
  });

  it.each([
    ['_blank', '<a href="https://example.com" target="_blank" rel="opener">x</a>', '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>'],
    ['_self', '<a href="https://example.com" target="_self">x</a>', '<a href="https://example.com" target="_self" rel="noopener noreferrer">x</a>'],
    ['_top', '<a href="https://example.com" target="_top" rel="noreferrer">x</a>', '<a href="https://example.com" target="_top" rel="noopener noreferrer">x</a>'],
    ['a named window, keeping nofollow', '<a href="https://example.com" target="promo" rel="NoFollow Opener sponsored">x</a>', '<a href="https://example.com" target="promo" rel="nofollow sponsored noopener noreferrer">x</a>'],
    ['an empty target', '<a href="https://example.com" target="">x</a>', '<a href="https://example.com" rel="noopener noreferrer">x</a>'],
  ])('gives a link with target %s rel="noopener noreferrer"', (_case, dirty, clean) => {
    expect(sanitizeArticleHtml(dirty)).toBe(clean);
    expectHarmless(clean);
  });

  it('drops an empty id', () => {
    expect(sanitizeArticleHtml('<p id="">t</p>')).toBe('<p>t</p>');
  });

  it('leaves rel alone on a link without target', () => {
    expect(sanitizeArticleHtml('<a href="https://example.com" rel="nofollow">x</a>')).toBe('<a href="https://example.com" rel="nofollow">x</a>');
  });

  it.each([
    ['YouTube embed code', 'accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share', 'accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture'],
    ['Vimeo embed code', 'autoplay; fullscreen; picture-in-picture; clipboard-write; encrypted-media; web-share', 'autoplay; fullscreen; picture-in-picture; clipboard-write; encrypted-media'],
    ['powerful features', 'camera; microphone; geolocation; payment; usb; autoplay', 'autoplay'],
    ['origin lists after a feature', "autoplay *; Fullscreen 'src'; encrypted-media https://evil.test", 'autoplay; fullscreen; encrypted-media'],
    ['repeated features and stray separators', ';;autoplay;autoplay ; ', 'autoplay'],
    ['nothing allowed (attribute dropped)', 'camera; display-capture', null],
  ])('reduces an iframe allow of %s to the allowed permissions', (_case, allow, kept) => {
    const result = sanitizeArticleHtml(`<iframe src="https://www.youtube.com/embed/abc" allow="${allow}"></iframe>`);
    expect(result).toBe(`<iframe src="https://www.youtube.com/embed/abc"${kept === null ? '' : ` allow="${kept}"`} ${PLAYER}></iframe>`);
    expectHarmless(result);
  });

  it('replaces an iframe referrer policy, loading and sandbox with its own', () => {
    const result = sanitizeArticleHtml('<iframe src="https://player.vimeo.com/video/1" referrerpolicy="unsafe-url" loading="eager" sandbox="allow-top-navigation" id="v"></iframe>');
    expect(result).toBe(`<iframe src="https://player.vimeo.com/video/1" id="user-content-v" ${PLAYER}></iframe>`);
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
