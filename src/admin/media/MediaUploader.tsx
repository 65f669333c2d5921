import { useId, useRef, useState, type DragEvent } from 'react';
import { MEDIA_ACCEPT, MEDIA_LIMIT_TEXT, MediaError, type UploadStage, uploadMedia } from '../../lib/back-office/media';
import { type MediaItem } from '../../lib/media-library';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { cn } from '../components/ui/cn';

/** One file of a batch and where it is. */
interface QueuedFile {
  key: string;
  name: string;
  state: 'queued' | UploadStage | 'done' | 'failed';
  message?: string;
}

const STATE_TEXT: Record<QueuedFile['state'], string> = {
  queued: 'Waiting',
  checking: 'Checking',
  uploading: 'Uploading',
  saving: 'Saving',
  done: 'Uploaded',
  failed: 'Failed',
};

/**
 * Upload by picking or dropping several files. The drop zone is itself the button that opens the picker, so
 * the keyboard reaches both. Files go one after another (a shared 2-core machine or a phone uplink gains
 * nothing from parallel uploads) and each shows where it is; a refused file says why and the rest go on.
 */
export function MediaUploader({ organizationId, onUploaded }: { organizationId: string; onUploaded: (media: MediaItem) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const [queue, setQueue] = useState<QueuedFile[]>([]);
  const busy = queue.some((file) => file.state !== 'done' && file.state !== 'failed');

  function set(key: string, change: Partial<QueuedFile>) {
    setQueue((current) => current.map((file) => (file.key === key ? { ...file, ...change } : file)));
  }

  async function upload(files: File[]) {
    if (files.length === 0) return;
    const batch = files.map((file) => ({ file, key: crypto.randomUUID() }));
    setQueue((current) => [...current.filter((file) => file.state !== 'done'), ...batch.map(({ file, key }) => ({ key, name: file.name, state: 'queued' as const }))]);
    const client = supabaseBrowser();
    for (const { file, key } of batch) {
      try {
        const outcome = await uploadMedia(client, organizationId, file, (stage) => set(key, { state: stage }));
        set(key, { state: 'done', message: outcome.reused ? 'Already in the library' : undefined });
        onUploaded(outcome.media);
      } catch (error) {
        console.error(error);
        set(key, { state: 'failed', message: error instanceof MediaError ? error.message : `${file.name} could not be uploaded. Try again.` });
      }
    }
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void upload([...event.dataTransfer.files]);
  }

  return (
    <div className="space-y-3">
      <button
        type="button"
        onClick={() => input.current?.click()}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        aria-describedby={hintId}
        className={cn(
          'flex w-full flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed border-border px-4 py-6 text-center hover:bg-muted focus-visible:outline-2 focus-visible:outline-primary',
          dragging && 'border-primary bg-muted',
        )}
      >
        <span className="font-medium">Upload images</span>
        <span className="text-sm text-muted-foreground">Drop files here or choose them</span>
      </button>
      <p id={hintId} className="text-xs text-muted-foreground">
        {MEDIA_LIMIT_TEXT}. Several at once are fine.
      </p>
      <input
        ref={input}
        type="file"
        multiple
        accept={MEDIA_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-label="Choose images to upload"
        data-testid="media-file-input"
        onChange={(event) => {
          void upload([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
      {queue.length > 0 && (
        <ul aria-label="Uploads" aria-live="polite" aria-busy={busy} className="space-y-1 text-sm">
          {queue.map((file) => (
            <li key={file.key} className="flex flex-wrap items-baseline justify-between gap-2 rounded-md bg-muted px-3 py-1.5">
              <span className="truncate font-medium">{file.name}</span>
              <span className={cn(file.state === 'failed' ? 'text-red-700 dark:text-red-400' : 'text-muted-foreground')}>
                {file.state === 'failed' ? file.message : file.message ?? `${STATE_TEXT[file.state]}${file.state === 'done' ? '' : '...'}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
