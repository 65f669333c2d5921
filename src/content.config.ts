/**
 * Static content of the public site: one collection per concept, each validated by a zod schema at build
 * time. Organization data (name, contact details, social links, embeds) is not here: it comes from the
 * database through `src/lib/organizations.ts`.
 */
import { defineCollection } from 'astro:content';
import { file } from 'astro/loaders';
import { z } from 'astro/zod';

/** Display position in a list; collections are sorted by it. */
const order = z.number().int().positive();

const services = defineCollection({
  loader: file('src/content/services.json'),
  schema: z.object({
    order,
    /** Shown as a card on the home and services pages (six are); every service has a detail page. */
    card: z.boolean(),
    title: z.string(),
    /** One-sentence summary for cards and the detail hero. */
    description: z.string(),
    /** Name of an icon in `src/components/ui/Icon.astro`. */
    icon: z.string(),
    category: z.enum(['organic', 'creative', 'paid', 'analytics']),
    /** 'How Our {title} Service Works' paragraph. */
    details: z.string(),
    /** Key Benefits list. */
    benefits: z.array(z.string()).min(1),
  }),
});

const processSteps = defineCollection({
  loader: file('src/content/process-steps.json'),
  schema: z.object({
    /** Which page's process: the four-step services overview or the five-step service detail. */
    flow: z.enum(['services', 'service-detail']),
    order,
    title: z.string(),
    description: z.string(),
  }),
});

const faqs = defineCollection({
  loader: file('src/content/faqs.json'),
  schema: z.object({
    /** The page whose FAQ lists the question. */
    page: z.enum(['services', 'contact']),
    order,
    question: z.string(),
    answer: z.string(),
  }),
});

const whyChooseUs = defineCollection({
  loader: file('src/content/why-choose-us.json'),
  schema: z.object({ order, icon: z.string(), title: z.string(), description: z.string() }),
});

const testimonials = defineCollection({
  loader: file('src/content/testimonials.json'),
  schema: z.object({
    order,
    name: z.string(),
    /** Job title and company. */
    role: z.string(),
    content: z.string(),
    /** Stars out of five; the spec's testimonials are all rated 5. */
    rating: z.number().int().min(1).max(5),
  }),
});

const aboutHighlights = defineCollection({
  loader: file('src/content/about-highlights.json'),
  schema: z.object({
    order,
    /** The about page shows three highlight cards out of the six. */
    featured: z.boolean(),
    title: z.string(),
    description: z.string(),
  }),
});

const values = defineCollection({
  loader: file('src/content/values.json'),
  schema: z.object({ order, title: z.string(), description: z.string() }),
});

const officeHours = defineCollection({
  loader: file('src/content/office-hours.json'),
  schema: z.object({ order, days: z.string(), hours: z.string() }),
});

const webTemplates = defineCollection({
  loader: file('src/content/web-templates.json'),
  schema: z.object({ order, name: z.string(), description: z.string(), url: z.url() }),
});

const stats = defineCollection({
  loader: file('src/content/stats.json'),
  schema: z.object({
    /** Hero badges float over the hero image; about counters sit in the about section. */
    placement: z.enum(['hero', 'about']),
    order,
    /** Final value the counter animates up to. */
    value: z.number().int().nonnegative(),
    suffix: z.string(),
    label: z.string(),
    /** Where a hero badge floats over the image. */
    position: z.enum(['top-left', 'bottom-right', 'inline']),
    /** Entrance delay in ms, so badges appear one after the other. */
    delay: z.number().int().nonnegative(),
  }),
});

const caseStudies = defineCollection({
  loader: file('src/content/case-studies.json'),
  schema: z.object({
    order,
    /** Kind of client, anonymized. */
    client: z.string(),
    /** Id of the service the study shows (a `services` entry). */
    service: z.string(),
    title: z.string(),
    challenge: z.string(),
    approach: z.string(),
    result: z.string(),
    /** The headline number. */
    metric: z.string(),
  }),
});

const legal = defineCollection({
  loader: file('src/content/legal.json'),
  schema: z.object({
    title: z.string(),
    /** Date of the latest version, shown as "Last updated". */
    updated: z.coerce.date(),
    intro: z.string(),
    sections: z.array(z.object({ heading: z.string(), body: z.array(z.string()).min(1) })).min(1),
  }),
});

export const collections = {
  services,
  processSteps,
  faqs,
  whyChooseUs,
  testimonials,
  aboutHighlights,
  values,
  officeHours,
  webTemplates,
  stats,
  caseStudies,
  legal,
};
