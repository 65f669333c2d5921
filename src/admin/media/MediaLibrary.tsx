import { useCallback, useState } from 'react';
import { formatBytes, formatDimensions, formatMediaDate, listMedia, mediaUsage, type MediaUse, usageByMedia } from '../../lib/back-office/media';
import { countWords } from '../../lib/back-office/count-words';
import { type MediaItem, mediaPublicUrl } from '../../lib/media-library';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { Button } from '../components/ui/Button';
import { DialogFooter } from '../components/ui/Dialog';
import { Input } from '../components/ui/Input';
import { Skeleton } from '../components/ui/Skeleton';
import { cn } from '../components/ui/cn';
import { MediaDetail } from './MediaDetail';
import { MediaUploader } from './MediaUploader';
import { useDebounced } from '../use-debounced';
import { useLoad } from '../use-load';

export interface MediaLibraryProps {
  organizationId: string;
  /** Editors and admins upload, describe and delete; viewers only look. */
  canEdit: boolean;
  /** Picker mode (the post editor): choosing a file calls this. */
  onPick?: (media: MediaItem) => void;
}

/** How long typing in the search box pauses before the list is asked again (ms). */
const SEARCH_DELAY_MS = 300;

function usedByText(uses: MediaUse[] | undefined): string {
  const count = uses?.length ?? 0;
  return count === 0 ? 'Not used' : `Used by ${countWords(count, 'post')}`;
}

/**
 * The organization's Media Library: upload (editors and admins), search, a grid of thumbnails with their
 * facts (the selected one ringed and checked), and the chosen file's details. The page /admin/media and the
 * post editor's picker both show it; the picker adds a footer that stays at the bottom of the dialog, with
 * the selection and Use this image, so choosing never needs a scroll past the grid (on a phone the details
 * come after it).
 */
export function MediaLibrary({ organizationId, canEdit, onPick }: MediaLibraryProps) {
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const client = supabaseBrowser();
  // Typing pauses before the list is asked again; clearing the box asks at once.
  const query = useDebounced(search, search ? SEARCH_DELAY_MS : 0);
  const library = useLoad(async () => {
    const [items, uses] = await Promise.all([listMedia(client, organizationId, query), mediaUsage(client, organizationId)]);
    return { items, usage: usageByMedia(uses) };
  }, [client, organizationId, query], [organizationId]);
  const items = library.value?.items ?? null;
  const usage = library.value?.usage ?? new Map<string, MediaUse[]>();
  const selected = items?.find((item) => item.id === selectedId) ?? null;
  const setItems = library.update;
  const changeItems = (change: (items: MediaItem[]) => MediaItem[]) => setItems((value) => ({ ...value, items: change(value.items) }));

  const uploaded = useCallback((media: MediaItem) => {
    setItems((value) => ({ ...value, items: [media, ...value.items.filter((item) => item.id !== media.id)] }));
    setSelectedId(media.id);
  }, [setItems]);

  return (
    <>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-4">
          {canEdit && <MediaUploader organizationId={organizationId} onUploaded={uploaded} />}
          <Input type="search" aria-label="Search images" placeholder="Search by name or alt text" value={search} onChange={(event) => setSearch(event.target.value)} />
          {library.state === 'error' ? (
            <ErrorState message="The Media Library could not be loaded." onRetry={library.reload} />
          ) : items === null ? (
            <Skeleton rows={3} label="Loading images..." />
          ) : items.length === 0 ? (
            <EmptyState title={search ? 'No images match your search' : 'No images yet'} hint={!search && canEdit ? 'Upload the first one above.' : undefined} />
          ) : (
            <ul aria-label="Images" className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-4">
              {items.map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    onClick={() => setSelectedId(item.id)}
                    onDoubleClick={onPick ? () => onPick(item) : undefined}
                    aria-pressed={item.id === selectedId}
                    className={cn(
                      'relative flex w-full flex-col overflow-hidden rounded-lg border border-border bg-background text-left hover:bg-muted focus-visible:outline-2 focus-visible:outline-primary',
                      item.id === selectedId && 'border-primary bg-muted ring-2 ring-primary ring-offset-2 ring-offset-background',
                    )}
                  >
                    {item.id === selectedId && (
                      <span aria-hidden="true" data-testid="selected-mark" className="absolute top-2 right-2 flex h-7 w-7 items-center justify-center rounded-full bg-primary text-base font-bold text-primary-foreground shadow">
                        ✓
                      </span>
                    )}
                    <img src={mediaPublicUrl(item.storage_path)} alt={item.alt_text} loading="lazy" className="aspect-[4/3] w-full bg-muted object-cover" />
                    <span className="space-y-0.5 p-2 text-xs">
                      <span className="block truncate text-sm font-medium">{item.file_name}</span>
                      <span className="block text-muted-foreground">{[formatBytes(item.size_bytes), formatDimensions(item)].filter(Boolean).join(' · ')}</span>
                      <span className="block text-muted-foreground">{formatMediaDate(item.created_at)}</span>
                      <span className="block text-muted-foreground">{usedByText(usage.get(item.id))}</span>
                      {!item.alt_text.trim() && <span className="block text-amber-700 dark:text-amber-400">No alt text</span>}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <aside aria-label="Image details" className="min-w-0">
          {selected ? (
            <MediaDetail
              key={selected.id}
              media={selected}
              organizationId={organizationId}
              canEdit={canEdit}
              onChanged={(media) => changeItems((current) => current.map((item) => (item.id === media.id ? media : item)))}
              onDeleted={(media) => {
                changeItems((current) => current.filter((item) => item.id !== media.id));
                setSelectedId(null);
                library.reload();
              }}
            />
          ) : (
            <p className="text-sm text-muted-foreground">Select an image to see its details.</p>
          )}
        </aside>
      </div>
      {onPick && (
        <DialogFooter>
          <p className="min-w-0 flex-1 truncate text-sm text-muted-foreground" aria-live="polite">
            {selected ? <>Selected: <span className="font-medium text-foreground">{selected.file_name}</span></> : 'Select an image.'}
          </p>
          <Button onClick={() => selected && onPick(selected)} disabled={!selected}>
            Use this image
          </Button>
        </DialogFooter>
      )}
    </>
  );
}
