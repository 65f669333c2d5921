/**
 * The admin preview is the published result: /admin/blog/preview/<id> renders a post with the public post
 * page's article (PostArticle) and typography (article.css). A draft with a heading, lists, a table, code
 * and a rule is written through REST with the service role; the seeded admin opens its preview; then the
 * same sanitized body is put into a public post page's article body, and every element's computed style
 * must equal the preview's, in light and in dark mode. The draft is removed afterwards.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SCALE_PRO_ID, service } from './support/backend';
import { openDashboard } from './support/sign-in';

// Signed in as the seed admin from the start (its sign-in is the setup project's; none of these signs out).
test.use({ signedInAs: 'seed admin' });

const PUBLIC_POST = '/blog/seo-strategies-that-actually-work-in-2026';
const slug = `e2e-preview-typography-${crypto.randomUUID().slice(0, 8)}`;
const content = [
  '<h2>A section</h2>',
  '<p>Intro with <code>inline code</code> and <a href="https://example.com">a link</a>.</p>',
  '<h3>A subsection</h3>',
  '<ul><li>First</li><li>Second<ul><li>Nested</li></ul></li></ul>',
  '<ol><li>One</li><li>Two</li></ol>',
  '<h4>A detail</h4>',
  '<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Starter</td><td>$9</td></tr><tr><td>Pro</td><td>$29</td></tr></tbody></table>',
  '<pre><code>const answer = 42;</code></pre>',
  '<blockquote><p>Quoted.</p></blockquote>',
  '<hr>',
  '<p>The end.</p>',
].join('\n');
const ELEMENTS = ['h2', 'h3', 'h4', 'p', 'p code', 'a', 'ul', 'ul ul', 'ol', 'li', 'table', 'th', 'td', 'tbody tr:nth-child(2) td', 'pre', 'pre code', 'blockquote', 'hr'];
const PROPERTIES = [
  'font-size', 'font-weight', 'font-style', 'font-family', 'line-height', 'color', 'background-color', 'margin-top', 'margin-bottom',
  'padding-top', 'padding-left', 'list-style-type', 'border-top-width', 'border-top-style', 'border-top-color', 'border-left-width',
  'display', 'overflow-x', 'text-decoration-line', 'border-radius',
];
let postId = '';

test.beforeAll(async () => {
  const { data, error } = await service
    .from('blog_posts')
    .insert({ organization_id: SCALE_PRO_ID, title: 'Preview typography check', slug, content, status: 'draft', tags: ['Typography'] })
    .select('id')
    .single();
  if (error) throw new Error(`creating the post failed: ${error.message}`);
  postId = data.id;
});

test.afterAll(async () => {
  await service.from('blog_posts').delete().eq('slug', slug);
});

/** Computed styles of each element of ELEMENTS (the first match) inside the article body, and the body's width. */
function articleStyles(page: Page) {
  return page.locator('.article-body').evaluate(
    (body, { elements, properties }) => ({
      width: body.getBoundingClientRect().width,
      styles: Object.fromEntries(
        elements.map((selector) => {
          const element = body.querySelector(selector);
          if (!element) return [selector, null];
          const style = getComputedStyle(element);
          return [selector, Object.fromEntries(properties.map((property) => [property, style.getPropertyValue(property)]))];
        }),
      ),
    }),
    { elements: ELEMENTS, properties: PROPERTIES },
  );
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the admin preview styles headings, lists and tables as the public post page does (${colorScheme})`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme });
    await openDashboard(page);
    await page.goto(`/admin/blog/preview/${postId}`);
    const body = page.getByTestId('post-body');
    await expect(body.getByRole('table')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Preview typography check' })).toBeVisible();
    await expect(page.getByText('1 min read')).toBeVisible();
    await expect(page.getByText('Uncategorized')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Tags' }).getByRole('link', { name: 'Typography', exact: true })).toHaveAttribute('href', '/blog/tag/typography');
    await expect(page.getByTestId('post-status')).toHaveText('draft');
    const sanitizedBody = await body.innerHTML();
    const preview = await articleStyles(page);
    // Unstyled, a heading would have the body text's size and a list no marker: the stylesheet is there.
    expect(preview.styles.h2?.['font-size']).toBe('24px');
    expect(preview.styles.ul?.['list-style-type']).toBe('disc');
    expect(preview.styles.th?.['border-top-style']).toBe('solid');

    await page.goto(PUBLIC_POST);
    if (colorScheme === 'dark') await expect(page.locator('html')).toHaveClass(/dark/);
    else await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.locator('.article-body').evaluate((element, html) => (element.innerHTML = html), sanitizedBody);
    const published = await articleStyles(page);
    expect(preview).toEqual(published);
  });
}
