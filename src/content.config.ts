/**
 * Static content of the public site: one collection per concept, each validated by its zod schema
 * (`src/schemas/content.ts`) at build time. Organization data (name, contact details, social links,
 * embeds) is not here: it comes from the database through `src/lib/site/organizations.ts`.
 */
import { defineCollection } from 'astro:content';
import { file } from 'astro/loaders';
import * as schemas from './schemas/content.ts';

/** Collection name → its data file under `src/content/`. */
export const collections = {
  services: defineCollection({ loader: file('src/content/services.json'), schema: schemas.ServiceSchema }),
  processSteps: defineCollection({ loader: file('src/content/process-steps.json'), schema: schemas.ProcessStepSchema }),
  faqs: defineCollection({ loader: file('src/content/faqs.json'), schema: schemas.FaqSchema }),
  whyChooseUs: defineCollection({ loader: file('src/content/why-choose-us.json'), schema: schemas.WhyChooseUsCardSchema }),
  testimonials: defineCollection({ loader: file('src/content/testimonials.json'), schema: schemas.TestimonialSchema }),
  aboutHighlights: defineCollection({ loader: file('src/content/about-highlights.json'), schema: schemas.AboutHighlightSchema }),
  values: defineCollection({ loader: file('src/content/values.json'), schema: schemas.ValueStatementSchema }),
  officeHours: defineCollection({ loader: file('src/content/office-hours.json'), schema: schemas.OfficeHoursSchema }),
  webTemplates: defineCollection({ loader: file('src/content/web-templates.json'), schema: schemas.WebTemplateSchema }),
  stats: defineCollection({ loader: file('src/content/stats.json'), schema: schemas.StatSchema }),
  caseStudies: defineCollection({ loader: file('src/content/case-studies.json'), schema: schemas.CaseStudySchema }),
  legal: defineCollection({ loader: file('src/content/legal.json'), schema: schemas.LegalDocumentSchema }),
};
