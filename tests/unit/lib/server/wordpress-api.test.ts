import { describe, expect, it } from 'vitest';
import { basicCredentials } from '../../../../src/lib/server/application-passwords.ts';
import { requestRoute } from '../../../../src/lib/server/wordpress-api.ts';
import { wpError } from '../../../../src/lib/server/wordpress-rest.ts';
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
