/**
 * The served site sends the security headers of the build's `_headers` (src/integrations/security-headers.ts)
 * on every kind of path: a page, the back office, a page served for a rewritten path and a 404.
 */
import { expect, test } from './fixtures';

test('every kind of page is served with the CSP and the other security headers', async ({ request }) => {
  for (const path of ['/', '/admin', '/admin/blog/preview/00000000-0000-4000-8000-000000000000', '/no-such-page']) {
    const response = await request.get(path);
    expect([200, 404], path).toContain(response.status());
    const headers = response.headers();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).toContain("object-src 'none'");
    expect(csp, path).toMatch(/script-src 'self' [^;]*'sha256-/);
    expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy'], path).toContain('camera=()');
    expect(headers['strict-transport-security'], path).toBe('max-age=63072000; includeSubDomains');
  }
});
