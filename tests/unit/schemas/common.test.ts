import { describe, expect, it } from 'vitest';
import { slugify } from '../../../src/lib/slug.ts';
import { EmailSchema, HttpUrlSchema, SlugSchema } from '../../../src/schemas/common.ts';

describe('SlugSchema', () => {
  it.each(['scale-pro', 'seo-2026', 'a'])('accepts %s', (slug) => {
    expect(SlugSchema.safeParse(slug).success).toBe(true);
  });
  it.each(['Scale-Pro', '-lead', 'trail-', 'double--hyphen', 'with space', '', 'x'.repeat(201)])('refuses %j', (slug) => {
    expect(SlugSchema.safeParse(slug).success).toBe(false);
  });
});

describe('EmailSchema', () => {
  it('trims and lower-cases', () => {
    expect(EmailSchema.parse('  Admin@Scale-Pro.TEST ')).toBe('admin@scale-pro.test');
  });
  it.each(['plain', 'a@b', 'a@-b.com', 'a b@c.com', `${'a'.repeat(250)}@b.com`])('refuses %j', (email) => {
    expect(EmailSchema.safeParse(email).success).toBe(false);
  });
});

describe('HttpUrlSchema', () => {
  it.each(['https://example.com', 'http://localhost:8888/path?q=1'])('accepts %s', (url) => {
    expect(HttpUrlSchema.safeParse(url).success).toBe(true);
  });
  it.each(['javascript:alert(1)', 'ftp://example.com', 'https://', 'example.com'])('refuses %s', (url) => {
    expect(HttpUrlSchema.safeParse(url).success).toBe(false);
  });
});

describe('slugify', () => {
  it.each([
    ['SEO Strategies That Actually Work in 2026', 'seo-strategies-that-actually-work-in-2026'],
    ['  --Hello, World!--  ', 'hello-world'],
    ['Café & Crème', 'cafe-creme'],
  ])('%j becomes %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
    expect(SlugSchema.safeParse(slug).success).toBe(true);
  });
});
