-- The Media Library: uploaded images that belong to an organization, and featured images chosen from them.
--
-- * Storage bucket `media` (public: the built site links its files; 5 MB; JPEG, PNG, WebP, AVIF, GIF).
--   Every object lives under its organization's folder, `<organization id>/<file>`; row-level security on
--   storage.objects lets an organization's editors and admins write there and its members list it. Other
--   organizations, viewers' writes and anonymous callers are refused by the Storage API itself.
-- * public.media: one row per file (name, type, size, dimensions, alt text, SHA-256, who and when). A row
--   can only describe an object that exists in the organization's folder; its size and type are copied from
--   the stored object, not taken from the caller. The SHA-256 is unique per organization, so the writing
--   tool's redelivery of the same image reuses the file.
-- * blog_posts.featured_media_id: the post's featured image, from its own organization's media (a composite
--   foreign key); deleting the file clears it. featured_image_url stays for images saved before the library.
-- * Uploads and deletions are logged; changing the alt text of an image a published post shows requests a
--   rebuild, as any change visitors can see does.

-- THE BUCKET -------------------------------------------------------------------------------------------------

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('media', 'media', true, 5242880, array['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'])
on conflict (id) do update
  set public = excluded.public, file_size_limit = excluded.file_size_limit, allowed_mime_types = excluded.allowed_mime_types;

/** The organization whose folder an object name is in, or null when the first folder is not an id. */
create function private.media_folder_organization(p_name text) returns uuid
language sql immutable parallel safe set search_path = ''
as $$
  select case when p_name ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[^/]+$'
    then split_part(p_name, '/', 1)::uuid end
$$;

create policy "Members list their organization's media" on storage.objects
  for select to authenticated
  using (bucket_id = 'media' and private.is_org_member(private.media_folder_organization(name)));
create policy "Editors upload to their organization's media" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'media' and private.is_org_editor(private.media_folder_organization(name)));
create policy "Editors replace their organization's media" on storage.objects
  for update to authenticated
  using (bucket_id = 'media' and private.is_org_editor(private.media_folder_organization(name)))
  with check (bucket_id = 'media' and private.is_org_editor(private.media_folder_organization(name)));
create policy "Editors remove their organization's media" on storage.objects
  for delete to authenticated
  using (bucket_id = 'media' and private.is_org_editor(private.media_folder_organization(name)));

-- THE FILES --------------------------------------------------------------------------------------------------

create table public.media (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  storage_path text not null unique
    check (private.media_folder_organization(storage_path) = organization_id and char_length(storage_path) <= 300),
  file_name text not null check (char_length(btrim(file_name)) between 1 and 255),
  mime_type text not null check (mime_type in ('image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif')),
  size_bytes integer not null check (size_bytes between 1 and 5242880),
  width integer check (width between 1 and 20000),
  height integer check (height between 1 and 20000),
  alt_text text not null default '' check (char_length(alt_text) <= 500),
  sha256 text check (sha256 ~ '^[0-9a-f]{64}$'),
  source text not null default 'upload' check (source in ('upload', 'webhook')),
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, organization_id),
  unique (organization_id, sha256)
);
comment on table public.media is 'The Media Library: an organization''s uploaded images (files in the storage bucket media).';
create index media_organization_created_idx on public.media (organization_id, created_at desc);
create index media_created_by_idx on public.media (created_by);

alter table public.media enable row level security;
grant select on table public.media to anon, authenticated;
grant insert (organization_id, storage_path, file_name, width, height, alt_text, sha256) on table public.media to authenticated;
grant update (file_name, alt_text) on table public.media to authenticated;
grant delete on table public.media to authenticated;
grant all on table public.media to service_role;

create policy "Editors add media" on public.media
  for insert to authenticated with check (private.is_org_editor(organization_id));
create policy "Editors describe media" on public.media
  for update to authenticated using (private.is_org_editor(organization_id)) with check (private.is_org_editor(organization_id));
create policy "Editors delete media" on public.media
  for delete to authenticated using (private.is_org_editor(organization_id));

/**
 * A row describes a stored object: size and type come from the object's metadata (what Storage measured
 * and accepted), the uploader is the caller. An API insert naming a file that is not in the bucket is refused.
 */
create function private.media_from_object() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_metadata jsonb;
  -- The database owner's seed (connected as postgres, not through the API's authenticator) describes files
  -- that bucket seeding uploads right after it (supabase/config.toml), and says who added them.
  v_owner boolean := session_user in ('postgres', 'supabase_admin');
begin
  select o.metadata into v_metadata from storage.objects o where o.bucket_id = 'media' and o.name = new.storage_path;
  if not found and not v_owner then
    raise exception 'No uploaded file at %', new.storage_path using errcode = '23503';
  end if;
  new.size_bytes := coalesce((v_metadata ->> 'size')::integer, new.size_bytes);
  new.mime_type := coalesce(v_metadata ->> 'mimetype', new.mime_type);
  new.created_by := coalesce(private.current_active_user_id(), case when private.is_service_caller() or v_owner then new.created_by end);
  return new;
end;
$$;
revoke execute on function private.media_from_object() from public, anon, authenticated;
create trigger media_from_object before insert on public.media for each row execute function private.media_from_object();

create trigger media_set_updated_at before update on public.media for each row execute function public.set_updated_at();

-- FEATURED IMAGES --------------------------------------------------------------------------------------------

alter table public.blog_posts add column featured_media_id uuid;
alter table public.blog_posts add constraint blog_posts_featured_media_fkey
  foreign key (featured_media_id, organization_id) references public.media (id, organization_id) on delete set null (featured_media_id);
create index blog_posts_featured_media_idx on public.blog_posts (featured_media_id, organization_id);
comment on column public.blog_posts.featured_media_id is
  'The featured image from the organization''s Media Library; featured_image_url is only for images saved before it.';
grant insert (featured_media_id), update (featured_media_id) on table public.blog_posts to authenticated;

/** True when a published post shows the file as its featured image: visitors (and the build) may read it. */
create function private.is_published_featured_media(p_media_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.blog_posts p
    where p.featured_media_id = p_media_id and p.status = 'published' and p.published_at <= now()
  )
$$;
revoke execute on function private.is_published_featured_media(uuid) from public;
grant execute on function private.is_published_featured_media(uuid) to anon, authenticated;

create policy "Anyone can read featured images of published posts" on public.media
  for select to anon using (private.is_published_featured_media(id));
create policy "Members read their organization's media, others published featured images" on public.media
  for select to authenticated using (private.is_org_member(organization_id) or private.is_published_featured_media(id));

/**
 * Which posts use each file of an organization: as featured image, and, for one file (p_media_id), also in
 * the post body. Runs with the caller's rights: members see their own organization's posts only.
 */
create function public.media_usage(p_organization_id uuid, p_media_id uuid default null)
returns table (media_id uuid, post_id uuid, post_title text, post_status text, in_content boolean)
language sql stable set search_path = ''
as $$
  select m.id, p.id, p.title, p.status, p.featured_media_id is distinct from m.id
  from public.media m
  join public.blog_posts p on p.organization_id = m.organization_id
  where m.organization_id = p_organization_id
    and (p_media_id is null or m.id = p_media_id)
    and (p.featured_media_id = m.id or (p_media_id is not null and strpos(p.content, m.storage_path) > 0))
  order by p.title
$$;
revoke execute on function public.media_usage(uuid, uuid) from public, anon;
grant execute on function public.media_usage(uuid, uuid) to authenticated, service_role;

-- LOG AND REBUILD --------------------------------------------------------------------------------------------

/** An upload or a deletion in the activity log (the webhook's uploads say so); seeding ('bulk') logs nothing. */
create function private.log_media_change() returns trigger
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
    private.current_active_user_id(), v_media.organization_id,
    case when tg_op = 'DELETE' then 'media_deleted' else 'media_uploaded' end,
    'media', v_media.id::text,
    jsonb_build_object('file_name', v_media.file_name)
      || case when v_media.source = 'webhook' then jsonb_build_object('via', 'webhook') else '{}' end
  );
  return null;
end;
$$;
revoke execute on function private.log_media_change() from public, anon, authenticated;
create trigger media_log_change after insert or delete on public.media
  for each row execute function private.log_media_change();

/** New alt text of an image that a published post shows is a change visitors see. */
create function private.request_rebuild_for_media() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_changes jsonb;
begin
  select jsonb_agg(jsonb_build_object('organization_id', n.organization_id, 'reason', 'Image described: ' || n.file_name))
  into v_changes
  from old_rows o join new_rows n on n.id = o.id
  where o.alt_text is distinct from n.alt_text
    and exists (select 1 from public.blog_posts p where p.featured_media_id = n.id and p.status = 'published');
  if v_changes is not null then perform private.record_rebuild_requests(v_changes); end if;
  return null;
end;
$$;
revoke execute on function private.request_rebuild_for_media() from public, anon, authenticated;
create trigger media_request_rebuild after update on public.media
  referencing old table as old_rows new table as new_rows for each statement execute function private.request_rebuild_for_media();
