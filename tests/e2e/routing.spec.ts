import { expect, test } from './fixtures';

// What Netlify's routing does with the built site: our functions, not a framework catch-all, answer
// their paths, and unknown paths get the prerendered not-found pages with status 404.
test.describe('routing of the production-like server', () => {
  test('the writing-tool webhook answers an unknown token itself, as JSON 404', async ({ request }) => {
    const response = await request.post('/api/webhooks/zimmwriter/not-a-real-token', { data: { title: 'x', html: '<p>x</p>' } });
    expect(response.status()).toBe(404);
    expect(await response.json()).toEqual({ message: 'Unknown webhook token' });
  });

  test('the health function answers', async ({ request }) => {
    const response = await request.get('/api/health');
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  test('an unknown path gets the 404 page with status 404', async ({ request }) => {
    const response = await request.get('/no-such-page');
    expect(response.status()).toBe(404);
    const html = await response.text();
    expect(html).toContain('Oops! Page not found');
    // The tab and a bookmark say whose site it is, as every page's title does.
    expect(html).toContain('<title>Page Not Found | Scale Pro Marketing</title>');
  });

  test('every service page is linked from /services, and the home page keeps its six cards', async ({ request }) => {
    const services = await (await request.get('/services')).text();
    for (const id of ['seo', 'gmb', 'web-design', 'ppc', 'social-media-advertising', 'analytics', 'content']) {
      expect(services, id).toContain(`href="/services/${id}"`);
    }
    const home = await (await request.get('/')).text();
    expect(home.match(/>Learn more<span class="sr-only">/g)).toHaveLength(6);
  });

  test('an unknown service gets Service Not Found with status 404, even without JavaScript', async ({ request }) => {
    const response = await request.get('/services/no-such-service');
    expect(response.status()).toBe(404);
    const html = await response.text();
    expect(html).toContain('Service Not Found');
    expect(html).toContain('<title>Service Not Found | Scale Pro Marketing</title>');
  });

  test('a mistyped post address gets Article Not Found with status 404, leading to the blog', async ({ request }) => {
    const response = await request.get('/blog/no-such-articel');
    expect(response.status()).toBe(404);
    const html = await response.text();
    expect(html).toContain('Article Not Found');
    expect(html).toContain('<title>Article Not Found | Scale Pro Marketing</title>');
    expect(html).toContain('href="/blog"');
  });
});
