import type { Config } from '@netlify/functions';
import { imageProblem, inspectImage, sha256Hex } from '../../src/lib/image-file.ts';
import { findMediaBySha, MEDIA_BUCKET } from '../../src/lib/media-library.ts';
import { adminEndpoint } from '../../src/lib/server/admin-endpoint.ts';
import { message } from '../../src/lib/server/http.ts';
import { recordStoredImage, removeStoredFile } from '../../src/lib/server/media-records.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { MediaRegistrationSchema } from '../../src/schemas/media.ts';

/**
 * POST /api/admin/media `{ organization_id, storage_path, file_name }` with the caller's bearer token: an
 * active editor or admin adds the file they just uploaded to the organization's folder to the Media Library.
 * The row is the system's: type, dimensions and SHA-256 come from the stored bytes, the uploader is the
 * caller. Answers 201 `{ media, reused: false }`, or 200 `{ media, reused: true }` when the same image is
 * already in the library (the new upload is then removed); 404 when nothing was uploaded there, 409 when the
 * file is already in the library, 422 (and the file removed) when it is not an accepted image.
 */
export default (req: Request): Promise<Response> =>
  adminEndpoint(
    req,
    MediaRegistrationSchema,
    'Adding the file to the library',
    async ({ organization_id, storage_path, file_name }, caller) => {
      const client = serviceClient();
      const { data: known } = await client.from('media').select('id').eq('storage_path', storage_path).maybeSingle();
      if (known) return message(409, 'This file is already in the library.');
      const { data: blob, error } = await client.storage.from(MEDIA_BUCKET).download(storage_path);
      if (error || !blob) return message(404, 'No uploaded file at that path. Upload the file first.');
      const bytes = new Uint8Array(await blob.arrayBuffer());
      const info = inspectImage(bytes);
      const problem = imageProblem(file_name, bytes);
      if (problem || !info) {
        await removeStoredFile(client, storage_path);
        return message(422, problem ?? `${file_name} is not an image`);
      }
      const sha256 = await sha256Hex(bytes);
      const existing = await findMediaBySha(client, organization_id, sha256);
      if (existing) {
        await removeStoredFile(client, storage_path);
        return Response.json({ media: existing, reused: true }, { status: 200 });
      }
      const recorded = await recordStoredImage(client, {
        organizationId: organization_id, storagePath: storage_path, info, sha256, fileName: file_name, altText: '', source: 'upload', createdBy: caller.id,
      });
      return Response.json(recorded, { status: recorded.reused ? 200 : 201 });
    },
    { role: 'editor' },
  );

export const config: Config = { path: '/api/admin/media', method: 'POST' };
