import { describe, expect, it } from 'vitest';
import { addressKey, skipReason, visitorAddress } from '../../../../src/lib/server/post-views';

// Counting itself (salted hash, dedup, rate limits) lives in SQL: tests/integration/post-views.test.ts, which
// also recomputes the stored hash from the day's salt.
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const headers = (entries: Record<string, string>) => new Headers(entries);

describe('skipReason', () => {
  it.each<[string, string]>([
    ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ['bingbot', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'],
    ['AhrefsBot', 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)'],
    ['Yahoo Slurp', 'Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)'],
    ['Baidu spider', 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)'],
    ['a crawler', 'Mozilla/5.0 (compatible; SomeCrawler/1.0)'],
    ['HeadlessChrome', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36'],
    ['Lighthouse', `${CHROME} Chrome-Lighthouse`],
    ['PageSpeed Insights', 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) Google Page Speed Insights PageSpeed'],
    ['WebPageTest', `${CHROME} PTST/240101.123456`],
    ['Facebook link previews', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'],
    ['Slack link previews', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
    ['WhatsApp link previews', 'WhatsApp/2.23.20.0'],
    ['a generic preview fetcher', 'Mozilla/5.0 LinkPreview/1.0'],
    ['curl', 'curl/8.5.0'],
    ['python-requests', 'python-requests/2.32.0'],
    ['Go', 'Go-http-client/2.0'],
    ['no user agent', ''],
    ['a blank user agent', '   '],
  ])('skips %s as a bot', (_name, userAgent) => {
    expect(skipReason(headers({ 'user-agent': userAgent }))).toBe('bot');
  });

  it.each<[string, string]>([
    ['Chrome on Windows', CHROME],
    ['Safari on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'],
    ['Firefox on Linux', 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0'],
    ['a Cubot phone (contains "bot")', 'Mozilla/5.0 (Linux; Android 12; CUBOT KINGKONG 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'],
  ])('counts %s', (_name, userAgent) => {
    expect(skipReason(headers({ 'user-agent': userAgent }))).toBeNull();
  });

  it.each<[string, Record<string, string>]>([
    ['Sec-Purpose: prefetch', { 'sec-purpose': 'prefetch' }],
    ['Sec-Purpose: prefetch;prerender', { 'sec-purpose': 'prefetch;prerender' }],
    ['Sec-Purpose: prefetch;anonymous-client-ip', { 'sec-purpose': 'prefetch;anonymous-client-ip' }],
    ['Purpose: prefetch', { purpose: 'prefetch' }],
    ['X-Moz: prefetch', { 'x-moz': 'prefetch' }],
  ])('skips a request with %s as a prefetch', (_name, entries) => {
    expect(skipReason(headers({ 'user-agent': CHROME, ...entries }))).toBe('prefetch');
  });
});

describe('visitorAddress', () => {
  it.each<[string, Record<string, string>, string | undefined, string]>([
    ['the function context’s address first', { 'x-nf-client-connection-ip': '203.0.113.9' }, '198.51.100.7', '198.51.100.7'],
    ['else Netlify’s client address header', { 'x-nf-client-connection-ip': '203.0.113.9' }, undefined, '203.0.113.9'],
    ['never x-forwarded-for, which the client writes', { 'x-forwarded-for': '198.51.100.1' }, undefined, 'unknown'],
    ['never a value that is not an address', { 'x-nf-client-connection-ip': 'evil' }, 'also evil', 'unknown'],
  ])('%s', (_case, entries, contextIp, address) => {
    expect(visitorAddress(headers({ ...entries, 'user-agent': CHROME }), contextIp)).toBe(address);
  });

  it('ignores the user agent: the same address is the same visitor', () => {
    const from = (agent: string) => visitorAddress(headers({ 'user-agent': agent, 'x-nf-client-connection-ip': '203.0.113.9' }));
    expect(from(CHROME)).toBe(from('Mozilla/5.0 (Macintosh) Safari/605'));
  });
});

describe('addressKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::ffff:cb00:7109', '203.0.113.9'],
  ])('keys %s as %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});
