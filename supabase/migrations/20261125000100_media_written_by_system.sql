-- The Media Library's rows are written by the system, and a library file changes only with its row.
--
-- * public.media kept the default grants of a new table (ALL to anon and authenticated): an editor's REST
--   PATCH could rewrite who uploaded a file, its path, size, type, hash and date. The defaults are revoked;
--   members may change only what a person edits (the name and the alt text). Rows are added by the system
--   alone: the back office's upload goes through POST /api/admin/media, which reads the stored object and
--   writes path, size, type, dimensions and SHA-256 from its bytes (src/lib/server/media-records.ts); the
--   writing tool's images go through the same code. So a hash in the table is always the file's own, and the
--   writing tool's deduplication cannot be steered to another file.
-- * Storage: an editor may still upload a new file into the organization's folder (the function then
--   describes it) and remove a file that no row describes (an abandoned upload, or a file whose row was just
--   deleted); a file that a row describes cannot be removed, replaced (upsert) or moved through the Storage
--   API. Deleting a library file is one path: the row first (logged `media_deleted`, featured images cleared),
--   then the file. No row points at a missing file.
-- * Hashes written by browsers before this migration cannot be trusted: they are cleared (those files are
--   simply not matched as duplicates).

-- THE TABLE'S GRANTS -----------------------------------------------------------------------------------------

revoke all on table public.media from anon, authenticated;
grant select on table public.media to anon, authenticated;
grant update (file_name, alt_text) on table public.media to authenticated;
grant delete on table public.media to authenticated;
grant all on table public.media to service_role;

drop policy "Editors add media" on public.media;

update public.media set sha256 = null where source = 'upload' and created_by is not null and sha256 is not null;

-- THE FILES --------------------------------------------------------------------------------------------------

/** True when a row of the Media Library describes the object (whoever asks: the row may be invisible to them). */
create function private.is_library_file(p_name text) returns boolean
language sql stable security definer set search_path = ''
as $$ select exists (select 1 from public.media m where m.storage_path = p_name) $$;
revoke execute on function private.is_library_file(text) from public, anon;
grant execute on function private.is_library_file(text) to authenticated, service_role;

drop policy "Editors replace their organization's media" on storage.objects;
drop policy "Editors remove their organization's media" on storage.objects;
create policy "Editors remove their organization's files that no library row describes" on storage.objects
  for delete to authenticated
  using (bucket_id = 'media' and private.is_org_editor(private.media_folder_organization(name)) and not private.is_library_file(name));

-- THE LOG ------------------------------------------------------------------------------------------------------

/**
 * An upload or a deletion in the activity log (the webhook's uploads say so); seeding ('bulk') logs nothing.
 * An upload is the uploader's (the row's created_by: the function writes rows as the service role); a
 * deletion is the caller's.
 */
create or replace function private.log_media_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_media public.media := case when tg_op = 'DELETE' then old else new end;
begin
  if private.post_change() = 'bulk' then
    return null;
  end if;
  if tg_op = 'DELETE' and not exists (select 1 from public.organizations o where o.id = old.organization_id) then
    return null;
  end if;
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  values (
    case when tg_op = 'DELETE' then private.current_active_user_id() else coalesce(private.current_active_user_id(), new.created_by) end,
    v_media.organization_id,
    case when tg_op = 'DELETE' then 'media_deleted' else 'media_uploaded' end,
    'media', v_media.id::text,
    jsonb_build_object('file_name', v_media.file_name)
      || case when v_media.source = 'webhook' then jsonb_build_object('via', 'webhook') else '{}' end
  );
  return null;
end;
$$;
