/**
 * The blog as the build generates it from the seeded local backend: the shared `dist/` (scale-pro), plus
 * builds of the evergreen organization into temporary folders, with the database and without it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBlogRows } from '../../src/lib/site/posts.ts';
import { astroBuild, BUILD_HOOK_TIMEOUT_MS, DIST, ensureBuilt, hasPage, htmlFiles, netlifyFile, pageHtml, visibleText } from './support/built-site';
import { backend, seed, serviceClient, withDatabase } from './support/db-fixtures';

const cardCount = (html: string) => (html.match(/<article class="flex flex-col overflow-hidden/g) ?? []).length;
const headingOf = (html: string) => visibleText(html.match(/<h2[^>]*data-list-heading[^>]*>([\s\S]*?)<\/h2>/)?.[1] ?? '').trim();

/** What the anon visitor may see of an organization, straight from Postgres. */
async function publishedSlugs(organizationId: string): Promise<string[]> {
  return withDatabase(async (db) => {
    const { rows } = await db.query<{ slug: string }>(
      `select slug from public.blog_posts where organization_id = $1 and status = 'published' and published_at <= now() order by published_at desc`,
      [organizationId],
    );
    return rows.map((row) => row.slug);
  });
}

// First in the file: its two builds against an unreachable database each wait out supabase-js's retries (7 s)
// holding the build lock, which the other files' builds wait for; at the start of the suite the files beside this
// one are still busy with work of their own, later they would all sit idle behind it.
describe('the evergreen blog, built with and without the database', () => {
  const work = mkdtempSync(join(tmpdir(), 'blog-build-'));
  const snapshots = join(work, 'snapshots');
  const live = join(work, 'live');
  const evergreen = { SITE_ORG: 'evergreen-landscaping', BLOG_SNAPSHOT_DIR: snapshots, PUBLIC_SUPABASE_URL: backend.url };
  /** Nothing listens on port 9 (discard): the database is unreachable. */
  const offline = { ...evergreen, PUBLIC_SUPABASE_URL: 'http://127.0.0.1:9' };

  // Published at 11:12 PM in New York (Evergreen's time zone, its publishing queue's), 04:12 the next day in UTC.
  const lateSlug = `late-in-new-york-${Date.now().toString(36)}`;

  beforeAll(async () => {
    const { error } = await serviceClient().from('blog_posts').insert({
      organization_id: seed.evergreen, title: 'Late in New York', slug: lateSlug, content: '<p>Just before midnight.</p>', status: 'published', published_at: '2026-11-20T04:12:00Z',
    });
    expect(error).toBeNull();
    const build = await astroBuild(live, evergreen);
    expect(build.status, build.output).toBe(0);
  }, BUILD_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await serviceClient().from('blog_posts').delete().eq('organization_id', seed.evergreen).eq('slug', lateSlug);
    rmSync(work, { recursive: true, force: true });
  });

  it("dates a post in the organization's time zone on its page, its card and in search: 11:12 PM in New York is that day", () => {
    const dated = (html: string) => [...html.matchAll(/<time datetime="2026-11-20T04:12:00.000Z">([^<]+)<\/time>/gi)].map((match) => match[1]);
    expect(dated(pageHtml(`/blog/${lateSlug}`, live))).toEqual(['November 19, 2026']);
    expect(dated(pageHtml('/blog', live))).toEqual(['November 19, 2026']);
    // The search result's card carries the zone with the date (Pagefind's metadata).
    expect(pageHtml(`/blog/${lateSlug}`, live)).toContain('&quot;timeZone&quot;:&quot;America/New_York&quot;');
  });

  it('shows only its own posts and offers no category without published posts (no pill, no page)', async () => {
    const slugs = await publishedSlugs(seed.evergreen);
    expect(cardCount(pageHtml('/blog', live))).toBe(slugs.length);
    expect(pageHtml('/blog', live)).not.toContain('seo-strategies-that-actually-work-in-2026');
    expect(pageHtml('/blog', live)).not.toContain('/blog/category/lead-generation');
    expect(existsSync(join(live, 'blog', 'category', 'lead-generation', 'index.html'))).toBe(false);
  });

  it('fails loudly when the database cannot be reached', async () => {
    const build = await astroBuild(join(work, 'offline'), offline);
    expect(build.status).not.toBe(0);
    expect(build.output).toMatch(/Cannot read organizations from http:\/\/127\.0\.0\.1:9/);
    expect(existsSync(join(work, 'offline', 'blog', 'index.html'))).toBe(false);
  }, BUILD_HOOK_TIMEOUT_MS);

  it('builds from the last good snapshot when told to, and says so', async () => {
    const build = await astroBuild(join(work, 'snapshot'), { ...offline, BLOG_USE_SNAPSHOT: '1' });
    expect(build.status, build.output).toBe(0);
    expect(build.output).toContain('BLOG_USE_SNAPSHOT=1');
    // The first failed read waited out the retries; the build's later reads did not ask the database again.
    expect(build.output).toContain('could not be read earlier in this build');
    // The same page. Only asset file names may differ: the islands' code carries the backend's URL (the
    // header checks for a stored session under its key), and this build was pointed at an unreachable one.
    const withoutHashes = (html: string) => html.replace(/(\/_astro\/[\w.-]+?)\.[\w-]{8}\.(js|css)/g, '$1.$2');
    expect(withoutHashes(pageHtml('/blog', join(work, 'snapshot')))).toBe(withoutHashes(pageHtml('/blog', live)));
  }, BUILD_HOOK_TIMEOUT_MS);
});

describe('the scale-pro blog in dist/', () => {
  let slugs: string[];
  beforeAll(async () => {
    await ensureBuilt();
    slugs = await publishedSlugs(seed.scalePro);
  }, BUILD_HOOK_TIMEOUT_MS);

  it('has a page per published post and no drafts, future posts or other organizations\' posts', async () => {
    expect(slugs.length).toBeGreaterThanOrEqual(16);
    for (const slug of slugs) expect(hasPage(`/blog/${slug}`), slug).toBe(true);
    const evergreen = await publishedSlugs(seed.evergreen);
    expect(evergreen.length).toBeGreaterThan(0);
    for (const slug of [...evergreen, 'ai-search-and-your-website', 'video-content-on-a-budget', 'holiday-marketing-plan', 'referral-program-ideas']) {
      expect(hasPage(`/blog/${slug}`), slug).toBe(false);
    }
  });

  it('lists 6 posts per page, newest first, with numbered pages', () => {
    const pages = Math.ceil(slugs.length / 6);
    const routes = ['/blog', ...Array.from({ length: pages - 1 }, (_, i) => `/blog/page/${i + 2}`)];
    const listed = routes.flatMap((route) => {
      const html = pageHtml(route);
      expect(headingOf(html)).toBe('Latest Articles');
      return [...html.matchAll(/<h3 class="mt-3 text-xl font-bold"><a href="\/blog\/([^"]+)"/g)].map((m) => m[1]);
    });
    expect(listed).toEqual(slugs);
    expect(cardCount(pageHtml('/blog'))).toBe(6);
    expect(cardCount(pageHtml(routes.at(-1)!))).toBe(slugs.length - 6 * (pages - 1));
    expect(hasPage(`/blog/page/${pages + 1}`)).toBe(false);
    const first = pageHtml('/blog');
    expect(first).toMatch(/<a href="\/blog" aria-current="page" aria-label="Page 1"/);
    expect(first).toContain(`href="/blog/page/${pages}"`);
    expect(first).toMatch(/<a href="\/blog\/page\/2" rel="next"/);
  });

  it('builds category pages with their posts, heading and active pill', async () => {
    const html = pageHtml('/blog/category/local-seo');
    expect(headingOf(html)).toBe('Local SEO Articles');
    expect(cardCount(html)).toBe(2);
    expect(html).toMatch(/<a href="\/blog\/category\/local-seo" aria-current="page"/);
    expect(html).toContain('href="/blog/google-business-profile-checklist"');
    expect(html).toContain('href="/blog/how-to-win-the-local-map-pack"');
    // A page for every category visitors are offered: one with published posts, not waiting for review.
    const categories = await withDatabase(async (db) =>
      (
        await db.query<{ slug: string; offered: boolean }>(
          `select c.slug, not c.needs_review and exists (select 1 from public.blog_posts p where p.category_id = c.id and p.status = 'published') as offered
           from public.blog_categories c where c.organization_id = $1`,
          [seed.scalePro],
        )
      ).rows,
    );
    expect(categories.filter((category) => category.offered).length).toBeGreaterThan(0);
    for (const { slug, offered } of categories) expect(hasPage(`/blog/category/${slug}`), slug).toBe(offered);
  });

  it('builds tag pages with at most 3 tags per card', () => {
    const html = pageHtml('/blog/tag/google-ads');
    expect(headingOf(html)).toBe('Articles tagged with "Google Ads"');
    expect(cardCount(html)).toBe(1);
    expect(hasPage('/blog/tag/seo')).toBe(true);
    for (const card of pageHtml('/blog').split('<article').slice(1).map((rest) => rest.slice(0, rest.indexOf('</article>')))) {
      expect((card.match(/href="\/blog\/tag\//g) ?? []).length).toBeLessThanOrEqual(3);
    }
  });

  it('renders a post page with its parts, sanitized body and Article JSON-LD', () => {
    const html = pageHtml('/blog/seo-strategies-that-actually-work-in-2026');
    const text = visibleText(html);
    for (const expected of ['SEO Strategies That Actually Work in 2026', 'SEO Strategies', 'October 28, 2026', '2 min read', 'Alex Morgan', 'Founder & SEO Strategist', 'Start with search intent', 'Related Articles', 'More from SEO Strategies', 'Back to Blog']) {
      expect(text).toContain(expected);
    }
    // Tags read as their names, linked to their pages.
    expect(html).toMatch(/<a href="\/blog\/tag\/google"[^>]*>Google<\/a>/);
    expect(text).not.toContain('#Google');
    expect(html).toContain('data-pagefind-body');
    expect(html).not.toMatch(/<script>alert|onerror=/);
    const jsonLd = JSON.parse(html.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)![1]!);
    expect(jsonLd).toMatchObject({ '@type': 'Article', headline: 'SEO Strategies That Actually Work in 2026', author: { name: 'Alex Morgan' } });
    expect(html).toMatch(/<link rel="canonical" href="[^"]+\/blog\/seo-strategies-that-actually-work-in-2026">/);
    expect(html).toMatch(/<meta property="og:type" content="article">/);
    expect(html).toMatch(/<meta name="twitter:card" content="summary_large_image">/);
    expect((html.match(/data-pagefind-body/g) ?? []).length).toBe(1);
  });

  it('shows 2 related posts, same category first', () => {
    const html = pageHtml('/blog/seo-strategies-that-actually-work-in-2026');
    const related = html.slice(html.indexOf('id="related-heading"'));
    const links = [...related.matchAll(/<h3 class="mt-3 text-xl font-bold"><a href="\/blog\/([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual(['keyword-research-without-expensive-tools', 'technical-seo-audit-in-one-afternoon']);
  });

  it('leaves a meta-refresh page and a forced 301 at the seeded old slug', () => {
    const html = pageHtml('/blog/seo-strategies-2025');
    expect(html).toMatch(/<meta http-equiv="refresh" content="0;url=\/blog\/seo-strategies-that-actually-work-in-2026">/);
    expect(html).toMatch(/<link rel="canonical" href="[^"]+\/blog\/seo-strategies-that-actually-work-in-2026">/);
    expect(netlifyFile('_redirects')).toContain('/blog/seo-strategies-2025 /blog/seo-strategies-that-actually-work-in-2026 301!');
  });

  it('publishes an RSS feed of the published posts', () => {
    const rss = readFileSync(join(DIST, 'rss.xml'), 'utf8');
    const links = [...rss.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((m) => new URL(m[1]!).pathname);
    expect(links).toEqual(slugs.map((slug) => `/blog/${slug}`));
    expect(rss).toContain('<title>Scale Pro Marketing Blog</title>');
    // Readers get the post's own title, not its SEO title (the seed's PPC post has one, written with the site's name).
    expect(rss).toContain('<title>PPC Advertising: Maximizing Your Return on Ad Spend</title>');
    expect(rss).not.toContain('PPC That Pays');
  });

  it("titles a post's page with its SEO title, else its title, and the site's name once", () => {
    expect(pageHtml('/blog/ppc-advertising-maximizing-roi')).toContain('<title>PPC That Pays: Getting More From Every Click | Scale Pro Marketing</title>');
    expect(pageHtml('/blog/seo-strategies-that-actually-work-in-2026')).toContain('<title>SEO Strategies That Actually Work in 2026 | Scale Pro Marketing</title>');
  });

  it('lists posts and categories in the sitemap, without legal, tag, search or moved pages', () => {
    const sitemap = readdirSync(DIST).filter((file) => /^sitemap-\d+\.xml$/.test(file)).map((file) => readFileSync(join(DIST, file), 'utf8')).join('');
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(paths).toContain('/blog');
    expect(paths).toContain('/blog/category/local-seo');
    for (const slug of slugs) expect(paths).toContain(`/blog/${slug}`);
    for (const path of paths) expect(path).not.toMatch(/^\/(privacy|terms)$|^\/blog\/tag\/|^\/blog\/search$|^\/blog\/seo-strategies-2025$/);
  });

  it('lists exactly the built pages search engines may index: none marked noindex, the back office and sign-in included', () => {
    const sitemap = readdirSync(DIST).filter((file) => /^sitemap-\d+\.xml$/.test(file)).map((file) => readFileSync(join(DIST, file), 'utf8')).join('');
    const listed = new Set([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname));
    const noindex = htmlFiles()
      .filter((file) => /<meta name="robots" content="noindex/.test(readFileSync(join(DIST, file), 'utf8')))
      .map((file) => `/${file.replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '')}`.replace(/(.)\/$/, '$1'));
    expect(noindex).toEqual(expect.arrayContaining(['/auth', '/admin', '/admin/blog', '/privacy', '/docs/zimmwriter-webhook-setup', '/docs/wordpress-publishing-tools', '/blog/search']));
    for (const path of noindex) expect(listed.has(path), path).toBe(false);
    for (const path of listed) expect(hasPage(path), path).toBe(true);
  });

  it('has a robots.txt that names the sitemap and keeps crawlers out of the back office and sign-in', () => {
    const robots = readFileSync(join(DIST, 'robots.txt'), 'utf8');
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Disallow: \/admin$/m);
    expect(robots).toMatch(/^Disallow: \/auth$/m);
    expect(robots).toMatch(/^Sitemap: https?:\/\/[^/]+\/sitemap-index\.xml$/m);
    expect(existsSync(join(DIST, 'sitemap-index.xml'))).toBe(true);
  });

  it('sends /blog/page/1 to /blog with a 301', () => {
    expect(netlifyFile('_redirects')).toMatch(/^\/blog\/page\/1 \/blog 301!$/m);
  });

  it('indexes only post pages with Pagefind', () => {
    const entry = JSON.parse(readFileSync(join(DIST, 'pagefind/pagefind-entry.json'), 'utf8'));
    expect(entry.languages.en.page_count).toBe(slugs.length);
  });
});

describe('an organization read at build time', () => {
  it('reads only posts whose publication time has passed, even before RLS applies it', async () => {
    const organization = { id: seed.scalePro, name: 'Scale Pro Marketing', slug: 'scale-pro', domain: null, settings: {} };
    const env = { PUBLIC_SUPABASE_URL: backend.url };
    const rows = await readBlogRows(organization, env, new Date('2026-09-10T00:00:00Z'));
    expect(rows.posts.length).toBeGreaterThan(0);
    for (const post of rows.posts) expect(Date.parse(post.published_at!)).toBeLessThanOrEqual(Date.parse('2026-09-10T00:00:00Z'));
    expect(rows.posts.map((post) => post.slug)).not.toContain('seo-strategies-that-actually-work-in-2026');
  });
});

describe('a blog larger than its feed', () => {
  const work = mkdtempSync(join(tmpdir(), 'blog-feed-'));
  const since = new Date().toISOString();
  const run = Date.now();
  let slugs: string[];

  beforeAll(async () => {
    const service = serviceClient();
    const rows = Array.from({ length: 60 }, (_, i) => ({
      organization_id: seed.evergreen,
      title: `Feed test article ${i + 1}`,
      slug: `feed-test-${run}-${i + 1}`,
      content: '<p>Lawn care through the seasons.</p>',
      status: 'published',
      published_at: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
    }));
    const inserted = await service.from('blog_posts').insert(rows);
    expect(inserted.error).toBeNull();
    slugs = await publishedSlugs(seed.evergreen);
    const build = await astroBuild(work, { SITE_ORG: 'evergreen-landscaping', BLOG_SNAPSHOT_DIR: join(work, '.snapshots'), PUBLIC_SUPABASE_URL: backend.url });
    expect(build.status, build.output).toBe(0);
  }, BUILD_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    const service = serviceClient();
    await service.from('blog_posts').delete().eq('organization_id', seed.evergreen).like('slug', `feed-test-${run}-%`);
    await service.from('site_rebuild_requests').delete().eq('organization_id', seed.evergreen).gte('requested_at', since);
    rmSync(work, { recursive: true, force: true });
  });

  it('carries the newest 50 posts with full links; the sitemap still lists every post', () => {
    expect(slugs.length).toBeGreaterThan(60);
    const rss = readFileSync(join(work, 'rss.xml'), 'utf8');
    const links = [...rss.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((m) => m[1]!);
    expect(links).toHaveLength(50);
    for (const link of links) expect(link).toMatch(/^https?:\/\/[^/]+\/blog\/[\w-]+$/);
    expect(links.map((link) => new URL(link).pathname)).toEqual(slugs.slice(0, 50).map((slug) => `/blog/${slug}`));
    const sitemap = readdirSync(work).filter((file) => /^sitemap-\d+\.xml$/.test(file)).map((file) => readFileSync(join(work, file), 'utf8')).join('');
    const paths = new Set([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname));
    for (const slug of slugs) expect(paths.has(`/blog/${slug}`), slug).toBe(true);
  });

  it('dates each post and list page in the sitemap as the database has them, and the index by its newest page', async () => {
    const { data } = await serviceClient().from('blog_posts').select('slug, published_at, updated_at').eq('organization_id', seed.evergreen).eq('status', 'published').lte('published_at', new Date().toISOString()).order('published_at', { ascending: false });
    const rows = data as { slug: string; published_at: string; updated_at: string }[];
    const lastmod = (row: (typeof rows)[number]) => new Date(Math.max(Date.parse(row.published_at), Date.parse(row.updated_at))).toISOString();
    const sitemap = readdirSync(work).filter((file) => /^sitemap-\d+\.xml$/.test(file)).map((file) => readFileSync(join(work, file), 'utf8')).join('');
    const dated = new Map([...sitemap.matchAll(/<loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?/g)].map((m) => [new URL(m[1]!).pathname, m[2] ?? null]));
    for (const row of rows) expect(dated.get(`/blog/${row.slug}`), row.slug).toBe(lastmod(row));
    const newest = (list: typeof rows) => list.map(lastmod).sort().at(-1);
    expect(dated.get('/blog')).toBe(newest(rows.slice(0, 6)));
    expect(dated.get('/blog/page/2')).toBe(newest(rows.slice(6, 12)));
    // Marketing pages carry no date rather than a made-up one.
    expect(dated.get('/about')).toBeNull();
    const index = readFileSync(join(work, 'sitemap-index.xml'), 'utf8');
    expect(index).toContain(`<lastmod>${newest(rows)}</lastmod>`);
  });
});
