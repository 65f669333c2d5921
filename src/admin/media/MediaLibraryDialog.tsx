import { type MediaItem } from '../../lib/media-library';
import { Dialog } from '../components/ui/Dialog';
import { MediaLibrary } from './MediaLibrary';

/** The Media Library in a dialog: the post editor's picker ("Choose from library"), where uploading works too. */
export function MediaLibraryDialog({
  open,
  onClose,
  organizationId,
  canEdit,
  onPick,
}: {
  open: boolean;
  onClose: () => void;
  organizationId: string;
  canEdit: boolean;
  onPick: (media: MediaItem) => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Media Library"
      description="Select an image, then Use this image."
      className="w-[min(72rem,calc(100vw-2rem))]! max-h-[calc(100dvh-2rem)] overflow-y-auto"
    >
      <MediaLibrary organizationId={organizationId} canEdit={canEdit} onPick={onPick} />
    </Dialog>
  );
}
