import { useState } from 'react';
import {
  ALT_TEXT_MAX, CAPTION_MAX, deleteMedia, describeMedia, formatBytes, formatDimensions, formatMediaDate, MediaError, mediaUsage, type MediaUse, sharedDetailsNote,
} from '../../lib/back-office/media';
import { type MediaItem, mediaPublicUrl } from '../../lib/media-library';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { toast } from '../../stores/toast';
import { CopyButton } from '../components/ui/CopyButton';
import { Button } from '../components/ui/Button';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { Field, Input, Textarea } from '../components/ui/Input';
import { useLoad } from '../use-load';

export interface MediaDetailProps {
  media: MediaItem;
  organizationId: string;
  canEdit: boolean;
  onChanged: (media: MediaItem) => void;
  onDeleted: (media: MediaItem) => void;
}

function UsageList({ uses }: { uses: MediaUse[] }) {
  return (
    <ul className="list-disc space-y-0.5 pl-5">
      {uses.map((use) => (
        <li key={`${use.post_id}-${use.in_content}`}>
          <a className="underline" href={`/admin/blog/edit/${use.post_id}`}>{use.post_title}</a>{' '}
          <span className="text-muted-foreground">({use.in_content ? 'in the text' : 'featured image'}, {use.post_status})</span>
        </li>
      ))}
    </ul>
  );
}

/** One file: its preview and facts, where it is used, its URL, and (editors and admins) alt text, caption and delete. */
export function MediaDetail({ media, organizationId, canEdit, onChanged, onDeleted }: MediaDetailProps) {
  const url = mediaPublicUrl(media.storage_path);
  const [alt, setAlt] = useState(media.alt_text);
  const [caption, setCaption] = useState(media.caption);
  // Which posts use the file; an unreadable answer reads as none (deleting still asks first).
  const usage = useLoad(() => mediaUsage(supabaseBrowser(), organizationId, media.id), [organizationId, media.id]);
  const uses = usage.state === 'error' ? [] : (usage.value ?? null);
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const dimensions = formatDimensions(media);
  const changed = alt.trim() !== media.alt_text || caption.trim() !== media.caption;

  async function saveDetails() {
    setSaving(true);
    try {
      const saved = await describeMedia(supabaseBrowser(), media, { altText: alt, caption });
      onChanged(saved);
      toast({ title: 'Details saved', description: saved.file_name });
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: error instanceof MediaError ? error.message : "The image's details could not be saved.", variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    setDeleting(true);
    try {
      await deleteMedia(supabaseBrowser(), media);
      toast({ title: 'Image deleted', description: media.file_name });
      onDeleted(media);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: error instanceof MediaError ? error.message : 'The image could not be deleted.', variant: 'destructive' });
    } finally {
      setDeleting(false);
      setConfirming(false);
    }
  }

  return (
    <div className="space-y-4" data-testid="media-detail">
      <img src={url} alt={media.alt_text} className="max-h-64 w-full rounded-md bg-muted object-contain" />
      <div>
        <h3 className="break-all font-semibold">{media.file_name}</h3>
        <p className="text-sm text-muted-foreground">
          {[formatBytes(media.size_bytes), dimensions, media.mime_type.replace('image/', '').toUpperCase(), formatMediaDate(media.created_at)].filter(Boolean).join(' · ')}
        </p>
      </div>
      <Field label="Alt text" hint={alt.trim() ? `${alt.length}/${ALT_TEXT_MAX} characters` : 'Describe the image for people who cannot see it (recommended).'}>
        {(field) =>
          canEdit ? (
            <Textarea {...field} rows={3} maxLength={ALT_TEXT_MAX} value={alt} onChange={(event) => setAlt(event.target.value)} />
          ) : (
            <Textarea {...field} rows={3} value={media.alt_text} readOnly />
          )
        }
      </Field>
      <Field label="Caption" hint={caption.trim() ? `${caption.length}/${CAPTION_MAX} characters` : 'Optional: a line about the image, as publishing tools send it.'}>
        {(field) =>
          canEdit ? (
            <Textarea {...field} rows={2} maxLength={CAPTION_MAX} value={caption} onChange={(event) => setCaption(event.target.value)} />
          ) : (
            <Textarea {...field} rows={2} value={media.caption} readOnly />
          )
        }
      </Field>
      {canEdit && (
        <>
          {changed && uses && sharedDetailsNote(uses) && (
            <p role="note" data-testid="media-shared-details" className="text-sm text-amber-700 dark:text-amber-400">
              {sharedDetailsNote(uses)}
            </p>
          )}
          <Button size="sm" onClick={() => void saveDetails()} disabled={saving || !changed}>
            {saving ? 'Saving...' : 'Save details'}
          </Button>
        </>
      )}
      <Field label="URL">
        {(field) => (
          <div className="flex gap-2">
            <Input {...field} value={url} readOnly onFocus={(event) => event.target.select()} />
            <CopyButton text={url} label="image URL" />
          </div>
        )}
      </Field>
      <div className="text-sm">
        <p className="font-medium">Used by</p>
        {uses === null ? <p className="text-muted-foreground">Checking...</p> : uses.length === 0 ? <p className="text-muted-foreground">No posts</p> : <UsageList uses={uses} />}
      </div>
      {canEdit && (
        <Button variant="destructive" size="sm" onClick={() => setConfirming(true)} disabled={uses === null}>
          Delete image
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Delete ${media.file_name}?`}
        description={
          uses && uses.length > 0
            ? `${uses.length === 1 ? 'A post uses' : `${uses.length} posts use`} this image. Posts showing it as their featured image lose it; links in post text stop working.`
            : 'No post uses this image. The file is removed from the library and its URL stops working.'
        }
        confirmLabel="Delete"
        busyLabel="Deleting..."
        busy={deleting}
        destructive
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      >
        {uses && uses.length > 0 && <div className="text-sm"><UsageList uses={uses} /></div>}
      </ConfirmDialog>
    </div>
  );
}
