-- MEDIA CAPTIONS, AND DELETES FROM PUBLISHING TOOLS.
--
-- 1. A Media Library file keeps a caption (`media.caption`, plain text up to 500 characters, as WordPress's
--    attachment caption), written in the library's detail panel or by a publishing tool (`caption` on upload or
--    update); the library and the API show it. The site does not print captions under featured images, as
--    WordPress's own themes do not.
-- 2. A publishing tool deletes a file (`DELETE /wp-json/wp/v2/media/{id}?force=true`) as the back office's Media
--    Library does: the row goes (posts showing it as their featured image lose it, which asks for the rebuild a
--    published one needs), the audit log names the password's member and the password, and the function then
--    removes the stored object. Only an active editor or admin's live password may (the library's own rule).

alter table public.media add column caption text not null default '' check (char_length(caption) <= 500);
-- Editors describe a file in the library under "Editors describe media", as its alt text.
grant update (caption) on table public.media to authenticated;
comment on column public.media.caption is 'The file''s caption (plain text), as WordPress keeps an attachment''s; shown in the library and the API.';

-- The audit names a tool's member and password for a delete; otherwise as 20261125000100 made it.
create or replace function private.log_media_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_media public.media := case when tg_op = 'DELETE' then old else new end;
  v_password text := nullif(current_setting('app.post_change_password', true), '');
begin
  if private.post_change() = 'bulk' then
    return null;
  end if;
  if tg_op = 'DELETE' and not exists (select 1 from public.organizations o where o.id = old.organization_id) then
    return null;
  end if;
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  values (
    case when tg_op = 'DELETE' then coalesce(private.current_active_user_id(), private.post_change_member())
         else coalesce(private.current_active_user_id(), new.created_by) end,
    v_media.organization_id,
    case when tg_op = 'DELETE' then 'media_deleted' else 'media_uploaded' end,
    'media', v_media.id::text,
    jsonb_build_object('file_name', v_media.file_name)
      || case when v_media.source = 'webhook' then jsonb_build_object('via', 'webhook') else '{}' end
      || case when tg_op = 'DELETE' and v_password is not null then jsonb_build_object('application_password', v_password) else '{}' end
  );
  return null;
end;
$$;

/**
 * Deletes file p_media_id of p_organization_id for the member of application password p_application_password_id
 * (checked again: live, an active editor or admin there; 42501 otherwise; P0002 when the organization has no such
 * file), logged as theirs. Answers the stored object's path, for the caller to remove, and the rebuilds already
 * due (`{ storage_path, batches }`, as delete_arrived_post). Service role only.
 */
create function public.delete_arrived_media(
  p_organization_id uuid,
  p_media_id uuid,
  p_application_password_id uuid,
  p_quiet_window_ms integer default 60000,
  p_at_once boolean default true
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member uuid;
  v_name text;
  v_path text;
  v_batches jsonb;
begin
  select pw.user_id, pw.name into v_member, v_name from private.publishing_password(p_organization_id, p_application_password_id) pw;
  if v_member is null then
    raise exception 'delete_arrived_media: this application password may not delete here' using errcode = '42501';
  end if;
  perform set_config('app.post_change', 'webhook', true);
  perform set_config('app.post_change_member', v_member::text, true);
  perform set_config('app.post_change_password', v_name, true);
  delete from public.media m where m.id = p_media_id and m.organization_id = p_organization_id returning m.storage_path into v_path;
  perform set_config('app.post_change', '', true);
  perform set_config('app.post_change_member', '', true);
  perform set_config('app.post_change_password', '', true);
  if v_path is null then
    raise exception 'delete_arrived_media: no file % here', p_media_id using errcode = 'P0002';
  end if;
  select coalesce(jsonb_agg(to_jsonb(b)), '[]'::jsonb) into v_batches
  from public.claim_due_site_rebuilds(p_quiet_window_ms, p_organization_id, p_at_once) b;
  return jsonb_build_object('storage_path', v_path, 'batches', v_batches);
end;
$$;
revoke execute on function public.delete_arrived_media(uuid, uuid, uuid, integer, boolean) from public, anon, authenticated;
grant execute on function public.delete_arrived_media(uuid, uuid, uuid, integer, boolean) to service_role;
