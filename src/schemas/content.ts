/**
 * Zod schemas of the static content collections (`src/content.config.ts` loads the JSON files under
 * `src/content/` with them). Kept apart from the config so tests can validate the files directly.
 */
import { z } from './zod.ts';

/** Display position in a list; collections are sorted by it. */
const order = z.number().int().positive();

/** A service: a card (six are) and a detail page at /services/{id} (all seven). */
export const ServiceSchema = z.object({
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
  });

/** A step of a process. */
export const ProcessStepSchema = z.object({
    /** Which page's process: the four-step services overview or the five-step service detail. */
    flow: z.enum(['services', 'service-detail']),
    order,
    title: z.string(),
    description: z.string(),
  });

/** A frequently asked question. */
export const FaqSchema = z.object({
    /** The page whose FAQ lists the question. */
    page: z.enum(['services', 'contact']),
    order,
    question: z.string(),
    answer: z.string(),
  });

/** A why-choose-us card on the home page. */
export const WhyChooseUsCardSchema = z.object({ order, icon: z.string(), title: z.string(), description: z.string() });

/** A client testimonial. */
export const TestimonialSchema = z.object({
    order,
    name: z.string(),
    /** Job title and company. */
    role: z.string(),
    content: z.string(),
    /** Stars out of five; the site's testimonials are all rated 5. */
    rating: z.number().int().min(1).max(5),
  });

/** An about-page highlight card. */
export const AboutHighlightSchema = z.object({
    order,
    /** The about page shows three highlight cards out of the six. */
    featured: z.boolean(),
    title: z.string(),
    description: z.string(),
  });

/** A value statement on the about page. */
export const ValueStatementSchema = z.object({ order, title: z.string(), description: z.string() });

/** A row of office hours. */
export const OfficeHoursSchema = z.object({ order, days: z.string(), hours: z.string() });

/** A Web Templates link in the header (external, opens in a new tab). */
export const WebTemplateSchema = z.object({ order, name: z.string(), description: z.string(), url: z.url() });

/** A counter: a hero badge or an about figure. */
export const StatSchema = z.object({
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
  });

/** A case study on /case-studies. */
export const CaseStudySchema = z.object({
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
  });

/** A legal document (privacy, terms). */
export const LegalDocumentSchema = z.object({
    title: z.string(),
    /** Date of the latest version, shown as "Last updated". */
    updated: z.coerce.date(),
    intro: z.string(),
    sections: z.array(z.object({ heading: z.string(), body: z.array(z.string()).min(1) })).min(1),
  });
