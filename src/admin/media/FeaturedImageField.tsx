import { useState } from 'react';
import type { FeaturedMedia } from '../../lib/back-office/posts';
import { formatDimensions } from '../../lib/back-office/media';
import { mediaPublicUrl } from '../../lib/media-library';
import { Button } from '../components/ui/Button';
import { MediaLibraryDialog } from './MediaLibraryDialog';

export interface FeaturedImageFieldProps {
  organizationId: string;
  media: FeaturedMedia | null;
  /** A featured image address saved before the library (shown until replaced or removed). */
  legacyUrl: string;
  onChoose: (media: FeaturedMedia) => void;
  onRemove: () => void;
}

/**
 * The post editor's featured image: the image chosen from the Media Library with its alt text (which the post
 * card, the post page and its social image use), Choose from library (the library as a picker, where
 * uploading works too) and Remove. Only editors and admins open the editor, so the picker can upload.
 */
export function FeaturedImageField({ organizationId, media, legacyUrl, onChoose, onRemove }: FeaturedImageFieldProps) {
  const [picking, setPicking] = useState(false);
  const url = media ? mediaPublicUrl(media.storage_path) : legacyUrl || null;
  return (
    <fieldset className="space-y-3 rounded-lg border border-border p-4" data-testid="featured-image">
      <legend className="px-1 font-semibold">Featured image</legend>
      {url ? (
        <div className="flex flex-wrap items-start gap-4">
          <img src={url} alt={media?.alt_text ?? ''} className="h-24 w-36 rounded-md bg-muted object-cover" />
          <div className="min-w-0 flex-1 space-y-1 text-sm">
            {media ? (
              <>
                <p>
                  <span className="font-medium">Alt text: </span>
                  {media.alt_text.trim() ? media.alt_text : <span className="text-amber-700 dark:text-amber-400">none yet: describe it in the library</span>}
                </p>
                {formatDimensions(media) && <p className="text-muted-foreground">{formatDimensions(media)}</p>}
              </>
            ) : (
              <p className="break-all text-muted-foreground">An image by address, saved before the Media Library: {legacyUrl}</p>
            )}
          </div>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">No featured image: the post shows the placeholder.</p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => setPicking(true)}>
          Choose from library
        </Button>
        {url && (
          <Button variant="outline" size="sm" onClick={onRemove}>
            Remove
          </Button>
        )}
      </div>
      <MediaLibraryDialog
        open={picking}
        onClose={() => setPicking(false)}
        organizationId={organizationId}
        canEdit
        onPick={(chosen) => {
          onChoose({ id: chosen.id, storage_path: chosen.storage_path, alt_text: chosen.alt_text, width: chosen.width, height: chosen.height });
          setPicking(false);
        }}
      />
    </fieldset>
  );
}
