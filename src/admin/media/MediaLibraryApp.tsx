import BackOfficeShell from '../BackOfficeShell';
import { MediaLibrary } from './MediaLibrary';

/** /admin/media: the organization's Media Library (client-only island); viewers see it read-only. */
export default function MediaLibraryApp() {
  return (
    <BackOfficeShell title="Media Library">
      {(access) => (
        <>
          <h2 className="mb-6 text-2xl font-bold">Media Library</h2>
          <MediaLibrary organizationId={access.organization.id} canEdit={access.canEdit} />
        </>
      )}
    </BackOfficeShell>
  );
}
