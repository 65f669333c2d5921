-- THE TRASH AND STICKY POSTS, as WordPress keeps them.
--
-- 1. A post in the trash (`blog_posts.trashed_at`) is a draft nobody sees on the site, kept until someone deletes
--    it for good or takes it back out. Publishing tools put posts there as WordPress's clients do (a DELETE
--    without `force`, or `status: trash`); blog management lists them under "Trash" and restores them, as a
--    draft. Who may move a post in or out of the trash is who may delete it (private.may_delete_post: an admin
--    any post, an editor their own). A post in the trash that is scheduled or published again (by an editor or
--    a tool) leaves the trash. The audit log says "moved to the trash" and "restored from the trash".
-- 2. A sticky post (`blog_posts.sticky`) comes first on the blog's first page, as WordPress's front page shows
--    sticky posts; tools set it through the arrival path, editors in the post editor.

alter table public.blog_posts add column trashed_at timestamptz;
alter table public.blog_posts add constraint blog_posts_trash_is_draft check (trashed_at is null or status = 'draft');
comment on column public.blog_posts.trashed_at is 'When the post was moved to the trash (a draft until restored or deleted); null outside it.';

alter table public.blog_posts add column sticky boolean not null default false;
comment on column public.blog_posts.sticky is 'Shown first on the blog''s first page (WordPress''s sticky posts).';
-- The editor saves sticky with the post's other fields (the table's grants and update policy govern it).

/** A post scheduled or published again leaves the trash. */
create function private.leave_trash_when_not_draft() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if new.status <> 'draft' then
    new.trashed_at := null;
  end if;
  return new;
end;
$$;
revoke execute on function private.leave_trash_when_not_draft() from public, anon, authenticated;
create trigger blog_posts_leave_trash before update of status on public.blog_posts
  for each row when (old.trashed_at is not null) execute function private.leave_trash_when_not_draft();

/**
 * The trash moves only through private.move_post_to_trash (its rule: who may delete the post), never by a write
 * of the column through the API, where `authenticated` may update the table: refused (42501) unless the post
 * leaves the trash by being scheduled or published (blog_posts_leave_trash, which fires first).
 */
create function private.guard_trash() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and new.trashed_at is distinct from (case when tg_op = 'UPDATE' then old.trashed_at end)
     and not (tg_op = 'UPDATE' and new.trashed_at is null and new.status <> 'draft') then
    raise exception 'A post moves in or out of the trash only through restore_trashed_post or a publishing tool'
      using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke execute on function private.guard_trash() from public, anon, authenticated;
create trigger blog_posts_trash_guard before insert or update of trashed_at, status on public.blog_posts
  for each row execute function private.guard_trash();

-- Tools may set sticky through the arrival path.
create or replace function private.arrival_post_columns() returns text[]
language sql immutable set search_path = '' as $$
  select array['slug', 'title', 'content', 'content_source', 'content_format', 'excerpt', 'tags', 'featured_media_id',
               'reading_time', 'meta_title', 'meta_description', 'sticky']
$$;

/**
 * Moves post p_post_id of p_organization_id into the trash (p_trash) or out of it, for p_member of role p_role:
 * P0002 when there is no such post, 42501 when private.may_delete_post refuses that member this post, 55000 when
 * it is already where it was asked to go. Into the trash: a draft, out of the queue. Out of it: a draft still.
 */
create function private.move_post_to_trash(p_organization_id uuid, p_post_id uuid, p_member uuid, p_role text, p_trash boolean)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_post public.blog_posts;
begin
  select * into v_post from public.blog_posts p where p.id = p_post_id and p.organization_id = p_organization_id for update;
  if v_post.id is null then
    raise exception 'move_post_to_trash: no post % here', p_post_id using errcode = 'P0002';
  end if;
  if not private.may_delete_post(p_role, v_post.author_id, p_member) then
    raise exception 'move_post_to_trash: this member may not delete this post' using errcode = '42501';
  end if;
  if (v_post.trashed_at is not null) = p_trash then
    raise exception 'move_post_to_trash: the post is %', case when p_trash then 'already in the trash' else 'not in the trash' end
      using errcode = '55000';
  end if;
  update public.blog_posts p
  set trashed_at = case when p_trash then now() end,
      status = case when p_trash then 'draft' else p.status end,
      queued = case when p_trash then false else p.queued end
  where p.id = p_post_id;
end;
$$;
revoke execute on function private.move_post_to_trash(uuid, uuid, uuid, text, boolean) from public, anon, authenticated;

/**
 * The back office's Restore: takes a post of the caller's organization out of the trash (as a draft), when the
 * caller may delete it. Invoker's rights here; the check runs in private.restore_trashed_post.
 */
create function private.restore_trashed_post(p_post_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_organization uuid;
  v_user uuid := private.current_active_user_id();
begin
  select p.organization_id into v_organization from public.blog_posts p where p.id = p_post_id;
  -- A post of an organization the caller does not belong to is no post of theirs.
  if v_organization is null or v_user is null or private.org_role(v_organization) is null then
    raise exception 'restore_trashed_post: no post % here', p_post_id using errcode = 'P0002';
  end if;
  perform private.move_post_to_trash(v_organization, p_post_id, v_user, private.org_role(v_organization), false);
end;
$$;
revoke execute on function private.restore_trashed_post(uuid) from public, anon;
grant execute on function private.restore_trashed_post(uuid) to authenticated;

create function public.restore_trashed_post(p_post_id uuid) returns void
language sql volatile security invoker set search_path = ''
as $$ select private.restore_trashed_post(p_post_id) $$;
revoke execute on function public.restore_trashed_post(uuid) from public, anon;
grant execute on function public.restore_trashed_post(uuid) to authenticated;

/**
 * A publishing tool's trash (p_trash) or restore of post p_post_id, for the member of application password
 * p_application_password_id (checked again: live, an active editor or admin of p_organization_id; 42501
 * otherwise), logged as theirs; answers the rebuilds already due (`{ batches }`), as delete_arrived_post.
 * Errors as private.move_post_to_trash. Service role only.
 */
create function public.trash_arrived_post(
  p_organization_id uuid,
  p_post_id uuid,
  p_application_password_id uuid,
  p_trash boolean default true,
  p_quiet_window_ms integer default 60000,
  p_at_once boolean default true
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member uuid;
  v_name text;
  v_role text;
  v_batches jsonb;
begin
  select pw.user_id, pw.name, m.role into v_member, v_name, v_role
  from private.publishing_password(p_organization_id, p_application_password_id) pw
  join public.organization_memberships m on m.user_id = pw.user_id and m.organization_id = p_organization_id;
  if v_member is null then
    raise exception 'trash_arrived_post: this application password may not change posts here' using errcode = '42501';
  end if;
  perform set_config('app.post_change', 'webhook', true);
  perform set_config('app.post_change_member', v_member::text, true);
  perform set_config('app.post_change_password', v_name, true);
  perform private.move_post_to_trash(p_organization_id, p_post_id, v_member, v_role, p_trash);
  perform set_config('app.post_change', '', true);
  perform set_config('app.post_change_member', '', true);
  perform set_config('app.post_change_password', '', true);
  select coalesce(jsonb_agg(to_jsonb(b)), '[]'::jsonb) into v_batches
  from public.claim_due_site_rebuilds(p_quiet_window_ms, p_organization_id, p_at_once) b;
  return jsonb_build_object('batches', v_batches);
end;
$$;
revoke execute on function public.trash_arrived_post(uuid, uuid, uuid, boolean, integer, boolean) from public, anon, authenticated;
grant execute on function public.trash_arrived_post(uuid, uuid, uuid, boolean, integer, boolean) to service_role;

-- The audit log names the trash; otherwise as 20261129000400_wordpress_posts.sql made it.
create or replace function private.log_post_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_change text := private.post_change();
  v_post public.blog_posts := case when tg_op = 'DELETE' then old else new end;
  v_fields text[] := '{}';
  v_action text;
  v_details jsonb;
  v_password text := nullif(current_setting('app.post_change_password', true), '');
begin
  if v_change = 'bulk' then
    return null;
  end if;
  if tg_op = 'DELETE' then
    if not exists (select 1 from public.organizations o where o.id = old.organization_id) then
      return null;
    end if;
    v_action := 'post_deleted';
  elsif tg_op = 'INSERT' then
    v_action := 'post_created';
  else
    v_fields := private.post_changed_fields(old, new);
    v_action := case
      when v_change = 'restore' then 'post_restored'
      when old.trashed_at is null and new.trashed_at is not null then 'post_trashed'
      when old.trashed_at is not null and new.trashed_at is null and new.status = 'draft' then 'post_untrashed'
      when new.status = 'published' and old.status <> 'published' then 'post_published'
      when new.status = 'draft' and old.status = 'published' then 'post_unpublished'
      when new.status = 'draft' and old.status = 'scheduled' then 'post_schedule_cancelled'
      when new.status = 'scheduled' and (old.status <> 'scheduled' or 'publication_time' = any (v_fields)) then 'post_scheduled'
      when cardinality(v_fields) > 0 then 'post_updated'
    end;
    if v_action is null then
      return null;
    end if;
  end if;
  v_details := jsonb_build_object('title', v_post.title, 'slug', v_post.slug, 'status', v_post.status)
    || case when cardinality(v_fields) > 0 then jsonb_build_object('fields', to_jsonb(v_fields)) else '{}' end
    || case when v_post.status = 'scheduled' then jsonb_build_object('published_at', v_post.published_at) else '{}' end
    || case when v_change in ('webhook', 'schedule') then jsonb_build_object('via', v_change) else '{}' end
    || case when v_password is not null then jsonb_build_object('application_password', v_password) else '{}' end
    || case when v_change = 'restore' then jsonb_build_object('revision_id', current_setting('app.restored_revision', true)) else '{}' end;
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  values (coalesce(private.current_active_user_id(), private.post_change_member()), v_post.organization_id, v_action,
          'blog_post', v_post.id::text, v_details);
  return null;
end;
$$;
