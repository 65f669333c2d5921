import { type Dispatch, type ReactNode, type SetStateAction, useMemo, useRef, useState } from 'react';
import { inlineImageTag, insertBlock } from '../../../lib/back-office/media';
import { type MediaItem, mediaPublicUrl } from '../../../lib/media-library';
import type { TaxonomyCategory } from '../../../lib/back-office/blog-taxonomy';
import { timeZoneLabel } from '../../../lib/back-office/zoned-time';
import { postPageTitle } from '../../../lib/post-display';
import { slugify } from '../../../lib/slug';
import { type ContentFormat, uniqueTags } from '../../../schemas/post';
import { Button } from '../../components/ui/Button';
import { Field, Input, Textarea } from '../../components/ui/Input';
import { Select } from '../../components/ui/Select';
import { FeaturedImageField } from '../../media/FeaturedImageField';
import { MediaLibraryDialog } from '../../media/MediaLibraryDialog';
import type { PostForm } from './post-form';

/** SEO length guides shown under the meta fields. */
const META_TITLE_GUIDE = 60;
const META_DESCRIPTION_GUIDE = 160;

const FORMAT_OPTIONS = [
  { value: 'markdown', label: 'Markdown' },
  { value: 'html', label: 'HTML' },
];

const CONTENT_HINTS: Record<ContentFormat, string> = {
  markdown: 'Markdown: ## headings, **bold**, - lists, [links](https://example.com), `code`. The preview shows the published result.',
  html: 'HTML, kept as written; unsafe markup is removed. The preview shows the published result.',
};

export interface PostFieldsProps {
  form: PostForm;
  setForm: Dispatch<SetStateAction<PostForm>>;
  /** A new post: its slug follows the title until the user edits it (a saved post keeps its URL). */
  isNew: boolean;
  organizationId: string;
  /** The site's name, which the page's title carries (the Meta Title counts it). */
  organizationName: string;
  categories: readonly TaxonomyCategory[];
  /** The category the select shows: the post's, else the organization's default. */
  categoryId: string;
  timeZone: string;
  scheduleError: string | null;
  /** The Schedule (or Reschedule) button, when the post can be scheduled: the Publish at field shows with it. */
  scheduleButton: ReactNode;
}

/** The post's fields: title and slug, excerpt, content and its format, category, tags, featured image, SEO and schedule. */
export function PostFields({ form, setForm, isNew, organizationId, organizationName, categories, categoryId, timeZone, scheduleError, scheduleButton }: PostFieldsProps) {
  const pageTitle = postPageTitle(form.title, form.meta_title, organizationName);
  const [tagInput, setTagInput] = useState('');
  // The slug follows the title until the user edits it (or when editing a post, which keeps its URL).
  const [slugTouched, setSlugTouched] = useState(!isNew);
  const categoryOptions = useMemo(() => categories.map((category) => ({ value: category.id, label: category.name })), [categories]);

  function update<K extends keyof PostForm>(key: K, value: PostForm[K]) {
    setForm((current) => ({ ...current, [key]: value }));
  }

  const contentRef = useRef<HTMLTextAreaElement>(null);
  const [pickingImage, setPickingImage] = useState(false);

  /** A library image in the text where the caret is (or in place of the selection), as a paragraph of its own. */
  function insertImage(media: MediaItem) {
    setPickingImage(false);
    const textarea = contentRef.current;
    const start = textarea?.selectionStart ?? form.source.length;
    const inserted = insertBlock(form.source, start, textarea?.selectionEnd ?? start, inlineImageTag(media, mediaPublicUrl(media.storage_path)));
    update('source', inserted.text);
    // After React has put the new text in: the caret after the image, for typing on.
    requestAnimationFrame(() => {
      textarea?.focus();
      textarea?.setSelectionRange(inserted.caret, inserted.caret);
    });
  }

  function addTag() {
    const tag = tagInput.trim();
    if (tag) update('tags', uniqueTags([...form.tags, tag]));
    setTagInput('');
  }

  return (
    <>
      <Field label="Title *">
        {(field) => (
          <Input
            {...field}
            value={form.title}
            required
            onChange={(event) => {
              const title = event.target.value;
              setForm((current) => ({ ...current, title, slug: slugTouched ? current.slug : slugify(title) }));
            }}
          />
        )}
      </Field>
      <Field label="URL Slug" hint="Created from the title; lower-case words joined by hyphens.">
        {(field) => (
          <Input
            {...field}
            value={form.slug}
            onChange={(event) => {
              setSlugTouched(event.target.value !== '');
              update('slug', event.target.value);
            }}
            onBlur={() => form.slug && update('slug', slugify(form.slug))}
          />
        )}
      </Field>
      <Field label="Excerpt">
        {(field) => <Textarea {...field} rows={3} value={form.excerpt} onChange={(event) => update('excerpt', event.target.value)} />}
      </Field>
      <Field label="Content format">
        {(field) => (
          <Select
            {...field}
            className="w-full"
            options={FORMAT_OPTIONS}
            value={form.format}
            onChange={(event) => update('format', event.target.value as ContentFormat)}
          />
        )}
      </Field>
      <Field label="Content *" hint={CONTENT_HINTS[form.format]}>
        {(field) => (
          <Textarea
            {...field}
            ref={contentRef}
            rows={15}
            className="font-mono"
            value={form.source}
            required
            onChange={(event) => update('source', event.target.value)}
          />
        )}
      </Field>
      <div className="-mt-2">
        <Button variant="outline" size="sm" onClick={() => setPickingImage(true)}>
          Insert image from library
        </Button>
      </div>
      <MediaLibraryDialog open={pickingImage} onClose={() => setPickingImage(false)} organizationId={organizationId} canEdit onPick={insertImage} />
      <Field label="Category">
        {(field) => (
          <Select
            {...field}
            className="w-full"
            options={categoryOptions}
            value={categoryId}
            onChange={(event) => update('category_id', event.target.value)}
          />
        )}
      </Field>
      <Field label="Tags" hint="Type a tag and press Enter; click a tag to remove it.">
        {(field) => (
          <Input
            {...field}
            value={tagInput}
            onChange={(event) => setTagInput(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                addTag();
              }
            }}
          />
        )}
      </Field>
      {form.tags.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Tags">
          {form.tags.map((tag) => (
            <li key={tag}>
              <Button
                variant="outline"
                size="sm"
                aria-label={`Remove tag ${tag}`}
                onClick={() => update('tags', form.tags.filter((t) => t !== tag))}
              >
                {tag} ×
              </Button>
            </li>
          ))}
        </ul>
      )}
      <FeaturedImageField
        organizationId={organizationId}
        media={form.featured_media}
        legacyUrl={form.featured_image_url}
        onChoose={(media) => setForm((current) => ({ ...current, featured_media: media, featured_image_url: '' }))}
        onRemove={() => setForm((current) => ({ ...current, featured_media: null, featured_image_url: '' }))}
      />
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5" checked={form.sticky} onChange={(event) => update('sticky', event.target.checked)} aria-describedby="sticky-hint" />
        <span>
          <span className="font-medium">Stick to the top of the blog</span>
          <span id="sticky-hint" className="block text-xs text-muted-foreground">
            Shown first on the blog&apos;s first page once published, whatever its date.
          </span>
        </span>
      </label>
      <fieldset className="space-y-4 rounded-lg border border-border p-4">
        <legend className="px-1 font-semibold">SEO Settings</legend>
        <Field label="Meta Title" hint={`${pageTitle.length}/${META_TITLE_GUIDE} characters in the page's title: ${pageTitle}`}>
          {(field) => <Input {...field} value={form.meta_title} onChange={(event) => update('meta_title', event.target.value)} />}
        </Field>
        <Field label="Meta Description" hint={`${form.meta_description.length}/${META_DESCRIPTION_GUIDE} characters`}>
          {(field) => (
            <Textarea {...field} rows={3} value={form.meta_description} onChange={(event) => update('meta_description', event.target.value)} />
          )}
        </Field>
      </fieldset>
      {scheduleButton && (
        <fieldset className="space-y-2 rounded-lg border border-border p-4">
          <legend className="px-1 font-semibold">Schedule</legend>
          <Field label="Publish at" hint={`${timeZone} time (${timeZoneLabel(timeZone)})`} error={scheduleError ?? undefined}>
            {(field) => <Input {...field} type="datetime-local" value={form.scheduleAt} onChange={(event) => update('scheduleAt', event.target.value)} />}
          </Field>
          {scheduleButton}
        </fieldset>
      )}
    </>
  );
}
