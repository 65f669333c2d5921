import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as schemas from '../../src/schemas/content';

/** A data file under src/content/, validated by its collection's schema (what the build does). */
function load<S extends z.ZodObject>(file: string, schema: S): (z.output<S> & { id: string })[] {
  const raw: unknown = JSON.parse(readFileSync(new URL(`../../src/content/${file}`, import.meta.url), 'utf8'));
  return z.array(schema.extend({ id: z.string() })).parse(raw) as (z.output<S> & { id: string })[];
}

const services = load('services.json', schemas.ServiceSchema);
const steps = load('process-steps.json', schemas.ProcessStepSchema);
const faqs = load('faqs.json', schemas.FaqSchema);
const testimonials = load('testimonials.json', schemas.TestimonialSchema);
const legal = load('legal.json', schemas.LegalDocumentSchema);
const officeHours = load('office-hours.json', schemas.OfficeHoursSchema);
const byOrder = <T extends { order: number }>(list: T[]) => [...list].sort((a, b) => a.order - b.order);

describe('content collections', () => {
  it.each<[string, number, number]>([
    ['service cards', services.filter((s) => s.card).length, 6],
    ['service detail pages', services.length, 7],
    ['why-choose-us cards', load('why-choose-us.json', schemas.WhyChooseUsCardSchema).length, 4],
    ['testimonials', testimonials.length, 3],
    ['services FAQs', faqs.filter((f) => f.page === 'services').length, 5],
    ['contact FAQs', faqs.filter((f) => f.page === 'contact').length, 3],
    ['services process steps', steps.filter((s) => s.flow === 'services').length, 4],
    ['service detail process steps', steps.filter((s) => s.flow === 'service-detail').length, 5],
    ['about highlights (of six)', load('about-highlights.json', schemas.AboutHighlightSchema).filter((h) => h.featured).length, 3],
    ['values', load('values.json', schemas.ValueStatementSchema).length, 3],
    ['web templates', load('web-templates.json', schemas.WebTemplateSchema).length, 2],
    ['hero badges', load('stats.json', schemas.StatSchema).filter((s) => s.placement === 'hero').length, 2],
  ])('has %s: %i', (_name, actual, expected) => expect(actual).toBe(expected));

  it('has the seven service detail pages', () => {
    expect(services.map((s) => s.id).sort()).toEqual(['analytics', 'content', 'gmb', 'ppc', 'seo', 'social-media-advertising', 'web-design']);
  });

  it('rates every testimonial 5', () => expect(testimonials.map((t) => t.rating)).toEqual([5, 5, 5]));

  it('has the four-step and five-step processes in order', () => {
    const titles = (flow: string) => byOrder(steps.filter((s) => s.flow === flow)).map((s) => s.title);
    expect(titles('services')).toEqual(['Discovery', 'Strategy', 'Execution', 'Optimization']);
    expect(titles('service-detail')).toEqual(['Discovery & Analysis', 'Strategy Development', 'Implementation', 'Monitoring & Optimization', 'Reporting & Insights']);
  });

  it('has nine privacy sections and thirteen terms sections under Georgia law', () => {
    const sections = (id: string) => legal.find((doc) => doc.id === id)!.sections;
    expect(sections('privacy')).toHaveLength(9);
    expect(sections('terms')).toHaveLength(13);
    expect(sections('terms').some((s) => s.body.join(' ').includes('laws of the State of Georgia'))).toBe(true);
  });

  it('gives the office hours', () => {
    expect(byOrder(officeHours).map((r) => `${r.days}: ${r.hours}`)).toEqual([
      'Monday - Friday: 9:00 AM - 6:00 PM EST',
      'Saturday: 10:00 AM - 2:00 PM EST',
      'Sunday: Closed',
    ]);
  });

  it('links every case study to a service that exists', () => {
    for (const study of load('case-studies.json', schemas.CaseStudySchema)) expect(services.map((s) => s.id)).toContain(study.service);
  });

  it('rejects an entry that breaks its schema', () => {
    expect(schemas.TestimonialSchema.safeParse({ order: 1, name: 'A', role: 'B', content: 'C', rating: 6 }).success).toBe(false);
  });
});
