import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIST, BUILD_HOOK_TIMEOUT_MS, ensureBuilt, htmlFiles, pageHtml, publicHtmlFiles, resolvesToFile, ROOT, visibleText } from './support/built-site';

beforeAll(ensureBuilt, BUILD_HOOK_TIMEOUT_MS);

const officeHours = ['Monday - Friday', '9:00 AM - 6:00 PM EST', 'Saturday', '10:00 AM - 2:00 PM EST', 'Sunday', 'Closed'];
const serviceTitles = ['Search Engine Optimization', 'Google My Business', 'Web Design', 'Pay-Per-Click Advertising', 'Analytics & Reporting', 'Content Marketing'];
const contentJson = (file: string) => JSON.parse(readFileSync(join(ROOT, 'src/content', file), 'utf8'));

describe('every page reads fully without JavaScript', () => {
  it.each<[string, string[]]>([
    [
      '/',
      [
        'Grow Your Business With Proven Marketing',
        'premier marketing agency',
        '245%',
        'Growth in Visibility',
        '189%',
        'ROI Increase',
        'Schedule Free Consultation',
        'View Our Services',
        ...serviceTitles,
        'Why Choose Us',
        'Proven Results',
        'Dedicated Experts',
        'Full Transparency',
        'Tailored Strategies',
        'Sarah Johnson',
        'Marcus Williams',
        'Elena Rodriguez',
        'Get In Touch',
        ...officeHours,
      ],
    ],
    ['/about', ['Google My Business', 'Search Engine Optimization', 'Paid Advertising', 'Our Values', 'Results First', 'Honest Partnership', 'Always Learning', 'free 30-minute consultation']],
    ['/services', [...serviceTitles, 'Discovery', 'Strategy', 'Execution', 'Optimization', 'Frequently Asked Questions']],
    ['/services/social-media-advertising', ['Social Media Advertising', 'How Our Social Media Advertising Service Works', 'Key Benefits', 'Reporting & Insights']],
    ['/booking', ['Schedule Your Consultation']],
    ['/contact', ["Let's Connect and Grow Together", ...officeHours, 'within 24 hours', 'free 30-minute consultation']],
    ['/privacy', ['Privacy Policy', 'Information We Collect', 'Changes and Contact']],
    ['/terms', ['Terms of Service', 'Governing Law', 'laws of the State of Georgia']],
    ['/case-studies', ['Case Studies', 'Tripling demo requests with search']],
    ['/404', ['404', 'Oops! Page not found', 'Return to Home', 'All Services', 'Go to the Blog', 'Contact Us']],
    ['/service-not-found', ['Service Not Found', 'Return to Home']],
    ['/post-not-found', ['Article Not Found', 'Go to the Blog', 'Search Articles', 'Return to Home']],
  ])('%s', (route, texts) => {
    const text = visibleText(pageHtml(route));
    for (const expected of texts) expect(text, `${route} should show "${expected}"`).toContain(expected);
  });

  it('shows every services FAQ question and answer on /services', () => {
    const text = visibleText(pageHtml('/services'));
    const faqs = contentJson('faqs.json').filter((f: { page: string }) => f.page === 'services');
    expect(faqs).toHaveLength(5);
    for (const faq of faqs) {
      expect(text).toContain(faq.question);
      expect(text).toContain(faq.answer);
    }
  });

  it('puts the FAQ in <details> elements of one group', () => {
    const html = pageHtml('/services');
    expect(html.match(/<details name="faq-services"/g)).toHaveLength(5);
  });

  it.each(['seo', 'gmb', 'web-design', 'ppc', 'social-media-advertising', 'analytics', 'content'])('builds /services/%s with its details and benefits', (id) => {
    const service = contentJson('services.json').find((s: { id: string }) => s.id === id);
    const text = visibleText(pageHtml(`/services/${id}`));
    expect(text).toContain(`How Our ${service.title} Service Works`);
    expect(text).toContain(service.details);
    for (const benefit of service.benefits) expect(text).toContain(benefit);
    expect(pageHtml(`/services/${id}`)).toContain('href="/case-studies"');
  });

  it('shows all nine privacy and thirteen terms sections', () => {
    for (const doc of contentJson('legal.json')) {
      const text = visibleText(pageHtml(`/${doc.id}`));
      doc.sections.forEach((section: { heading: string; body: string[] }, index: number) => {
        expect(text).toContain(`${index + 1}. ${section.heading}`);
        for (const paragraph of section.body) expect(text).toContain(paragraph);
      });
    }
  });
});

describe('head and header', () => {
  it.each(['/privacy', '/terms', '/404', '/service-not-found', '/post-not-found', '/auth'])('%s is noindex', (route) => {
    expect(pageHtml(route)).toMatch(/<meta name="robots" content="noindex, nofollow"/);
  });

  it.each(['/', '/about', '/services', '/contact'])('%s is indexable', (route) => {
    expect(pageHtml(route)).not.toMatch(/name="robots"/);
  });

  it('has the header links, the templates opening in new tabs, and the footer on every public page', () => {
    for (const file of publicHtmlFiles()) {
      const html = readFileSync(join(DIST, file), 'utf8');
      for (const href of ['/services', '/booking', '/about', '/blog', '/contact', '/privacy', '/terms']) expect(html, file).toContain(`href="${href}"`);
      expect(html.match(/target="_blank" rel="noopener noreferrer"[^>]*>\s*<span[^>]*>(Landscape|Painters)/g) ?? [], file).not.toHaveLength(0);
      expect(visibleText(html), file).toContain('Book Now');
      expect(visibleText(html), file).toContain(`© ${new Date().getFullYear()}`);
      expect(html, file).toContain('placeholder="Your email address"');
    }
  });

  it('names the organization it was built for on every page, back office included, and offers no organization switcher', () => {
    for (const file of htmlFiles()) {
      const html = readFileSync(join(DIST, file), 'utf8');
      expect(html, file).toMatch(/<html lang="en" data-organization-id="10000000-0000-4000-8000-000000000001" data-organization-name="Scale Pro Marketing"/);
      expect(html, file).not.toMatch(/Switch Organization|OrganizationSwitcher/);
    }
  });

  it('keeps the no-flash theme script in the head of every page', () => {
    for (const file of htmlFiles()) expect(readFileSync(join(DIST, file), 'utf8'), file).toMatch(/<head>[\s\S]*localStorage\.getItem\('theme'\)[\s\S]*<\/head>/);
  });

  it("gives every image of / its size (no layout shift), in a <picture> of the site's own AVIF and WebP variants", () => {
    const html = pageHtml('/');
    const pictures = html.match(/<picture>[\s\S]*?<\/picture>/g) ?? [];
    expect(pictures.length).toBeGreaterThan(0);
    expect((html.match(/<img\b[^>]*>/g) ?? []).length).toBe(pictures.length);
    for (const picture of pictures) {
      const types = [...picture.matchAll(/<source [^>]*type="([^"]+)"/g)].map((m) => m[1]);
      expect(types).toEqual(['image/avif', 'image/webp']);
      for (const [, srcset] of picture.matchAll(/srcset="([^"]+)"/g)) {
        expect(srcset).toMatch(/^\/_astro\/\S+ 400w, \/_astro\/\S+ 800w, \/_astro\/\S+ 1200w, \/_astro\/\S+ 1600w$/);
      }
      const img = picture.match(/<img\b[^>]*>/)![0];
      expect(img).toMatch(/ src="\/_astro\//);
      expect(img).toMatch(/width="\d+"/);
      expect(img).toMatch(/height="\d+"/);
    }
    expect(html).not.toMatch(/<(img|source)\b[^>]*(src|srcset)="https?:/);
  });
});

describe('links', () => {
  /** Pages of other issues that will exist before this branch lands. */
  const builtElsewhere = new Set(['/blog']);

  it('every internal link of every built page resolves to a built file', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of htmlFiles()) {
      const html = readFileSync(join(DIST, file), 'utf8');
      for (const [, href] of html.matchAll(/\shref="([^"]*)"/g)) {
        if (!href!.startsWith('/') || href!.startsWith('//')) continue;
        if (href!.startsWith('#') || builtElsewhere.has(href!.split(/[?#]/)[0]!)) continue;
        checked += 1;
        if (!resolvesToFile(href!)) broken.push(`${file}: ${href}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  it('has in-page anchors for the home contact section and form', () => {
    const html = pageHtml('/');
    expect(html).toContain('id="contact"');
    expect(html).toContain('id="contact-form"');
  });
});

describe('the IndexNow key file', () => {
  it('is at /{key}.txt, holding the key, once (the key the search engines read on the site)', () => {
    const keyFiles = readdirSync(DIST).filter((name) => /^[a-f0-9]{32}\.txt$/.test(name));
    expect(keyFiles).toHaveLength(1);
    expect(readFileSync(join(DIST, keyFiles[0]!), 'utf8')).toBe(keyFiles[0]!.replace('.txt', ''));
  });
});
