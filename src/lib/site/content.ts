/**
 * The only place pages read the static content collections: each list comes back sorted by `order`
 * and filtered to what the page shows.
 */
import { getCollection, getEntry, type CollectionEntry, type CollectionKey } from 'astro:content';

async function sorted<C extends CollectionKey>(name: C, keep: (entry: CollectionEntry<C>) => boolean = () => true) {
  const entries = (await getCollection(name, keep)) as (CollectionEntry<C> & { data: { order: number } })[];
  return entries.sort((a, b) => a.data.order - b.data.order);
}

/** Every service: each has a detail page at `/services/{id}`. */
export const allServices = () => sorted('services');
/** The six services shown as cards. */
export const serviceCards = () => sorted('services', (s) => s.data.card);
/** One service by id, or undefined. */
export const serviceById = (id: string) => getEntry('services', id);

/** The four-step overview on /services, or the five-step process on each service detail page. */
export const processSteps = (flow: 'services' | 'service-detail') => sorted('processSteps', (s) => s.data.flow === flow);
/** The FAQ of a page. */
export const faqs = (page: 'services' | 'contact') => sorted('faqs', (f) => f.data.page === page);
export const whyChooseUs = () => sorted('whyChooseUs');
export const testimonials = () => sorted('testimonials');
/** The three highlight cards the about page shows (of six). */
export const aboutHighlights = () => sorted('aboutHighlights', (h) => h.data.featured);
export const values = () => sorted('values');
export const officeHours = () => sorted('officeHours');
export const webTemplates = () => sorted('webTemplates');
/** Hero badges or about counters. */
export const stats = (placement: 'hero' | 'about') => sorted('stats', (s) => s.data.placement === placement);
export const caseStudies = () => sorted('caseStudies');

/** A legal document (privacy or terms); throws when missing, since its page cannot be built without it. */
export async function legalDocument(id: 'privacy' | 'terms') {
  const entry = await getEntry('legal', id);
  if (!entry) throw new Error(`Legal document "${id}" is missing from src/content/legal.json`);
  return entry;
}
