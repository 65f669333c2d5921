import { describe, expect, it } from 'vitest';
import { basicCredentials } from '../../../../src/lib/server/application-passwords.ts';
import { requestRoute } from '../../../../src/lib/server/wordpress-api.ts';
import { gmtOffsetHours, wpDate, wpError, wpInstant, wpLocalDate } from '../../../../src/lib/server/wordpress-rest.ts';
import { WpPostInputSchema } from '../../../../src/schemas/wordpress.ts';
import { discoveryLink } from '../../../../src/lib/wordpress-discovery.ts';

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('basicCredentials', () => {
  it('reads the e-mail before the first colon and the password after it, spaces kept', () => {
    expect(basicCredentials(basic('editor@scale-pro.test:abcd EFGH 1234 ijkl MNOP 6789'))).toEqual({ login: 'editor@scale-pro.test', password: 'abcd EFGH 1234 ijkl MNOP 6789' });
    expect(basicCredentials(basic('a@b.test:pass:with:colons'))).toEqual({ login: 'a@b.test', password: 'pass:with:colons' });
    expect(basicCredentials(`basic   ${Buffer.from('a@b.test:x').toString('base64')}  `)).toEqual({ login: 'a@b.test', password: 'x' });
  });

  it('is null without credentials or for another scheme, and an empty pair for a Basic header that names none', () => {
    expect(basicCredentials(null)).toBeNull();
    expect(basicCredentials('Bearer abc.def')).toBeNull();
    expect(basicCredentials(basic('no colon here'))).toEqual({ login: '', password: '' });
  });
});

describe('requestRoute', () => {
  const route = (address: string) => requestRoute(new URL(address, 'https://www.example.com'));
  it('takes the path after /wp-json, or the rest_route parameter, as one clean route', () => {
    expect(route('/wp-json')).toBe('/');
    expect(route('/wp-json/')).toBe('/');
    expect(route('/wp-json/wp/v2/posts/')).toBe('/wp/v2/posts');
    expect(route('/wp-json//wp/v2//users/me')).toBe('/wp/v2/users/me');
    expect(route('/wp-json/?rest_route=/wp/v2/users/me')).toBe('/wp/v2/users/me');
    expect(route('/wp-json/?rest_route=%2Fwp%2Fv2%2Fposts')).toBe('/wp/v2/posts');
  });
});

describe("WordPress's answers", () => {
  it('shapes an error as { code, message, data: { status } } with that status', async () => {
    const answer = wpError(401, 'rest_not_logged_in', 'You are not currently logged in.');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await answer.json()).toEqual({ code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } });
  });

  it('announces the API at the site root', () => {
    expect(discoveryLink('https://www.example.com')).toBe('<https://www.example.com/wp-json/>; rel="https://api.w.org/"');
  });
});

describe("WordPress's dates, in the site's time zone", () => {
  it('answers `date` as the wall time in the zone and `date_gmt` in UTC: 11:12 PM in New York is that day there', () => {
    expect(wpLocalDate('2026-11-29T04:12:00Z', 'America/New_York')).toBe('2026-11-28T23:12:00');
    expect(wpDate('2026-11-29T04:12:00Z')).toBe('2026-11-29T04:12:00');
    // Summer time moves the wall time, not the instant.
    expect(wpLocalDate('2026-07-01T03:00:00Z', 'America/New_York')).toBe('2026-06-30T23:00:00');
    expect(wpLocalDate(null, 'America/New_York')).toBeNull();
  });

  it('reads a wall time a client sends in the zone the field means, and a date with a zone as that instant', () => {
    const date = (text: string) => WpPostInputSchema.parse({ date: text }).date!;
    expect(wpInstant(date('2026-11-28T23:12:00'), 'America/New_York')).toBe('2026-11-29T04:12:00.000Z');
    expect(wpInstant(date('2026-11-28 23:12'), 'America/New_York')).toBe('2026-11-29T04:12:00.000Z');
    expect(wpInstant(date('2026-11-28T23:12:00'), 'UTC')).toBe('2026-11-28T23:12:00.000Z');
    expect(wpInstant(date('2026-11-28T23:12:00+01:00'), 'America/New_York')).toBe('2026-11-28T22:12:00.000Z');
    expect(wpInstant(date('0001-01-01T00:00:00'), 'Asia/Tokyo')).toBe('0001-01-01T00:00:00.000Z');
    expect(wpInstant(date('9999-12-31T23:59:59'), 'America/New_York')).toBe('9999-12-31T23:59:59.999Z');
    for (const bad of ['2026-02-30T10:00:00', '2026-13-01T10:00:00', 'next tuesday']) expect(WpPostInputSchema.safeParse({ date: bad }).success).toBe(false);
  });

  it("names the zone's offset from UTC in hours, as the API index's gmt_offset", () => {
    expect(gmtOffsetHours('America/New_York', new Date('2026-12-01T12:00:00Z'))).toBe(-5);
    expect(gmtOffsetHours('America/New_York', new Date('2026-07-01T12:00:00Z'))).toBe(-4);
    expect(gmtOffsetHours('Asia/Kolkata', new Date('2026-12-01T12:00:00Z'))).toBe(5.5);
    expect(gmtOffsetHours('UTC')).toBe(0);
  });
});
