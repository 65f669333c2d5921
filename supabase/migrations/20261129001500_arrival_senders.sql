-- ONE ARRIVAL PATH, ONE NAME PER SENDER.
--
-- 1. The WordPress API's categories and tags are made through the database like its posts
--    (create_arrived_term): the application password is checked again there, and the audit log names the
--    password's member and the password (`application_password`), not "ZimmWriter (writing tool)".
-- 2. A post's revisions record who sent an arrival: `sender` is the application password's name for a post that
--    came through the WordPress API (its member is the revision's editor), null for the writing tool's webhook. The
--    back office names the sender from it.

-- 1. TERMS THROUGH THE ARRIVAL PATH

/** Logs a category or tag change as the signed-in member's, or as an application password's member's. */
create or replace function private.log_taxonomy_change(p_organization_id uuid, p_action text, p_resource_type text, p_resource_id text, p_details jsonb)
returns void
language sql security definer set search_path = ''
as $$
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  select v.actor, p_organization_id, p_action, p_resource_type, left(p_resource_id, 128),
    p_details
      || case when v.actor is null and private.is_service_caller() then '{"by_server": true}'::jsonb else '{}'::jsonb end
      || case when v.actor is null and v.change in ('webhook', 'schedule') then jsonb_build_object('via', v.change) else '{}'::jsonb end
      || case when v.password is not null then jsonb_build_object('application_password', v.password) else '{}'::jsonb end
  from (select coalesce(private.current_active_user_id(), private.post_change_member()) as actor, private.post_change() as change,
               nullif(current_setting('app.post_change_password', true), '') as password) v
$$;

/**
 * Makes a category (waiting for an editor's review, as an arrival's new category does) or a tag of
 * p_organization_id for the member of application password p_application_password_id (checked again: live, an
 * active editor or admin there; 42501 otherwise), logged as theirs with the password named. Raises 23505 when the
 * organization has the name (or the category's slug) already. Answers `{ wp_id, name, slug }`.
 */
create function public.create_arrived_term(p_organization_id uuid, p_application_password_id uuid, p_taxonomy text, p_name text, p_slug text default null)
returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member uuid;
  v_password text;
  v_term jsonb;
begin
  if p_taxonomy not in ('category', 'post_tag') then
    raise exception 'create_arrived_term: unknown taxonomy %', p_taxonomy using errcode = '22023';
  end if;
  select pw.user_id, pw.name into v_member, v_password from private.publishing_password(p_organization_id, p_application_password_id) pw;
  if v_member is null then
    raise exception 'create_arrived_term: this application password may not write here' using errcode = '42501';
  end if;
  perform set_config('app.post_change_member', v_member::text, true);
  perform set_config('app.post_change_password', v_password, true);
  if p_taxonomy = 'category' then
    insert into public.blog_categories (organization_id, name, slug, needs_review)
    values (p_organization_id, p_name, p_slug, true)
    returning jsonb_build_object('wp_id', wp_id, 'name', name, 'slug', slug) into v_term;
  else
    insert into public.blog_tags (organization_id, name)
    values (p_organization_id, p_name)
    returning jsonb_build_object('wp_id', wp_id, 'name', name) into v_term;
  end if;
  perform set_config('app.post_change_member', '', true);
  perform set_config('app.post_change_password', '', true);
  return v_term;
end;
$$;
revoke execute on function public.create_arrived_term(uuid, uuid, text, text, text) from public, anon, authenticated;
grant execute on function public.create_arrived_term(uuid, uuid, text, text, text) to service_role;

-- 2. WHO SENT AN ARRIVAL

alter table public.blog_post_revisions add column sender text check (length(sender) between 1 and 100);
comment on column public.blog_post_revisions.sender is
  'For a post that arrived through the WordPress API: the application password''s name (its member is editor_id). Null otherwise.';

create or replace function private.record_post_revision() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_change text := private.post_change();
  v_editor uuid := coalesce(private.current_active_user_id(), private.post_change_member());
  v_fields text[];
begin
  if tg_op = 'INSERT' then
    v_fields := '{}';
  else
    v_fields := array(
      select f from unnest(private.post_changed_fields(old, new)) f
      where f in ('title', 'excerpt', 'content', 'meta_title', 'meta_description')
    );
    if cardinality(v_fields) = 0 and v_change <> 'restore' then
      return null;
    end if;
  end if;
  insert into public.blog_post_revisions (
    post_id, organization_id, editor_id, source, restored_from, changed_fields, title, excerpt, content_source,
    content_format, content, reading_time, meta_title, meta_description, sender
  ) values (
    new.id, new.organization_id, v_editor,
    case
      when v_change in ('webhook', 'restore') then v_change
      when v_editor is not null then 'editor'
      else 'system'
    end,
    case when v_change = 'restore' then nullif(current_setting('app.restored_revision', true), '')::uuid end,
    v_fields, new.title, new.excerpt, new.content_source, new.content_format, new.content, new.reading_time,
    new.meta_title, new.meta_description,
    case when v_change = 'webhook' then left(nullif(current_setting('app.post_change_password', true), ''), 100) end
  );
  delete from public.blog_post_revisions r
  where r.id in (
    select old_r.id from public.blog_post_revisions old_r
    where old_r.post_id = new.id
    order by old_r.created_at desc, old_r.id desc
    offset private.post_revisions_kept()
  );
  return null;
end;
$$;
