-- The WordPress API keeps the rules the back office keeps, decided here:
--
-- 1. Review mode cannot be skipped by scheduling: `future` asked of a new post or a draft follows the
--    organization's choice for arrivals as `publish` does (a draft for review, or the queue's next slot; published
--    at its time only when arrivals publish at once). A post an editor already scheduled or published may still be
--    given a new time.
-- 2. Who may delete whose post is one rule, private.may_delete_post: an admin any post of the organization, an
--    editor their own. The back office's delete policy and delete_arrived_post (the API's delete through an
--    application password) both ask it, so an editor's password no longer deletes an admin's draft.
-- 3. Term counts count what visitors see: a published post whose time has not come (an embargo) is not counted,
--    as the anon REST API and the site do not show it.
-- 4. The API reads for visitors with the anon key, so row-level security decides what they see; the authors of
--    published posts are named there by their integer id (WordPress's `author`), which anon may now read
--    (the row policy still shows only authors of published posts).

-- 1. THE ARRIVAL'S STATUS

/**
 * Stores an arriving post: as in 20261129000400_wordpress_posts.sql, except that `future` asked of a new post or
 * a draft follows the organization's choice for arrivals (see the banner).
 */
create or replace function public.upsert_webhook_post(
  p_organization_id uuid,
  p_slug text,
  p_title text,
  p_content text,
  p_content_source text,
  p_content_format text,
  p_excerpt text default null,
  p_category_name text default null,
  p_category_slug text default null,
  p_tags text[] default null,
  p_featured_media_id uuid default null,
  p_reading_time integer default null,
  p_note text default null,
  p_webhook_name text default null,
  p_image text default null,
  p_post_id uuid default null,
  p_new_post boolean default false,
  p_status text default null,
  p_published_at timestamptz default null,
  p_meta_title text default null,
  p_meta_description text default null,
  p_application_password_id uuid default null
) returns table (post_id uuid, post_status text, post_slug text, created boolean, duplicate_of jsonb, category jsonb)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_mode text;
  v_author uuid;
  v_sender_name text := p_webhook_name;
  v_category uuid;
  v_category_created boolean := false;
  v_category_json jsonb;
  v_duplicate jsonb;
  v_note text := p_note;
  v_slug text := p_slug;
  v_existing public.blog_posts;
  v_status text;
  v_published_at timestamptz;
  v_queued boolean;
  v_id uuid;
begin
  select coalesce(o.settings #>> '{webhook,publish_mode}', 'publish') into v_mode
  from public.organizations o where o.id = p_organization_id;
  if not found then
    raise exception 'upsert_webhook_post: no organization %', p_organization_id using errcode = 'P0002';
  end if;
  if p_status is not null and p_status not in ('publish', 'draft', 'future') then
    raise exception 'upsert_webhook_post: unknown status %', p_status using errcode = '22023';
  end if;
  if p_status = 'future' and (p_published_at is null or p_published_at <= now()) then
    raise exception 'upsert_webhook_post: a future post needs a time ahead' using errcode = '22023';
  end if;
  perform set_config('app.post_change', 'webhook', true);

  if p_application_password_id is not null then
    select pw.user_id, pw.name into v_author, v_sender_name
    from private.publishing_password(p_organization_id, p_application_password_id) pw;
    if v_author is null then
      raise exception 'upsert_webhook_post: this application password may not publish here' using errcode = '42501';
    end if;
    perform set_config('app.post_change_member', v_author::text, true);
    perform set_config('app.post_change_password', v_sender_name, true);
  else
    -- The configured author only while they still belong to the organization.
    select w.author_id into v_author
    from public.webhook_integrations w
    join public.organization_memberships m on m.user_id = w.author_id and m.organization_id = w.organization_id
    where w.organization_id = p_organization_id;
  end if;

  if p_category_name is not null then
    v_category := private.webhook_category_for(p_organization_id, p_category_name, p_category_slug);
    if v_category is null then
      -- A name nobody chose in the back office: visitors see it only once an editor approves it. The no-op
      -- update makes a concurrent creator's row come back from RETURNING too.
      insert into public.blog_categories as c (organization_id, name, slug, needs_review)
      values (p_organization_id, p_category_name, p_category_slug, true)
      on conflict (organization_id, slug) do update set slug = c.slug
      returning c.id, (c.xmax = 0) into v_category, v_category_created;
    end if;
  else
    v_category := private.default_category_id(p_organization_id);
  end if;
  select jsonb_build_object('id', c.id, 'name', c.name, 'created', v_category_created, 'needs_review', c.needs_review)
  into v_category_json from public.blog_categories c where c.id = v_category;

  -- The organization's arrivals pass the gate one at a time, so two copies of an article sent at once cannot
  -- both pass.
  perform pg_advisory_xact_lock(hashtextextended('webhook_delivery:' || p_organization_id::text, 0));
  if p_post_id is not null then
    select * into v_existing from public.blog_posts p where p.id = p_post_id and p.organization_id = p_organization_id for update;
    if v_existing.id is null then
      raise exception 'upsert_webhook_post: no post % in this organization', p_post_id using errcode = 'P0002';
    end if;
    -- A slug another post has is made free, as WordPress does.
    if v_slug <> v_existing.slug then
      v_slug := private.free_post_slug(p_organization_id, v_slug);
    end if;
  elsif p_new_post then
    v_slug := private.free_post_slug(p_organization_id, p_slug);
  else
    select * into v_existing from public.blog_posts p where p.organization_id = p_organization_id and p.slug = p_slug for update;
  end if;
  if v_existing.id is null then
    select to_jsonb(d) into v_duplicate from private.likely_duplicate(p_organization_id, p_title, p_content) d;
    if v_duplicate is not null then
      v_note := left(concat_ws(' ', 'Possible duplicate of “' || (v_duplicate ->> 'title') || '” (/blog/' || (v_duplicate ->> 'slug')
        || ', ' || (v_duplicate ->> 'reason') || '): saved as a draft.', p_note), 2000);
    end if;
  end if;

  -- The status: what was asked, the organization's choice for a publish or a schedule of a post not yet
  -- reviewed (a new post or a draft). A post an editor already scheduled or published may be given a time.
  v_status := v_existing.status;
  v_published_at := v_existing.published_at;
  v_queued := coalesce(v_existing.queued, false);
  if v_duplicate is not null then
    v_status := 'draft'; v_published_at := null; v_queued := false;
  elsif p_status = 'draft' then
    v_status := 'draft'; v_queued := false;
  elsif p_status = 'future' and (v_mode = 'publish' or v_existing.status in ('scheduled', 'published')) then
    v_status := 'scheduled'; v_published_at := p_published_at; v_queued := false;
  elsif (p_status in ('publish', 'future') or v_existing.id is null) and v_existing.status is distinct from 'published' then
    if v_mode = 'publish' then
      v_status := 'published'; v_published_at := now(); v_queued := false;
    elsif v_existing.id is null or v_existing.status = 'draft' then
      -- A draft for an editor to review, or the queue's next slot (private.place_queued_post gives it). A
      -- post already scheduled keeps its time.
      v_status := 'draft'; v_queued := v_mode = 'queue';
    end if;
  end if;

  if v_existing.id is null then
    insert into public.blog_posts as p (
      organization_id, slug, title, content, content_source, content_format, excerpt, category_id, tags,
      featured_media_id, reading_time, status, published_at, author_id, queued, duplicate_of, meta_title, meta_description
    ) values (
      p_organization_id, v_slug, p_title, p_content, p_content_source, p_content_format, p_excerpt, v_category,
      p_tags, p_featured_media_id, p_reading_time, v_status, v_published_at, v_author, v_queued,
      (v_duplicate ->> 'id')::uuid, p_meta_title, p_meta_description
    )
    returning p.id, p.status, p.slug into v_id, v_status, v_slug;
  else
    update public.blog_posts p set
      slug = v_slug,
      title = p_title,
      content = p_content,
      content_source = p_content_source,
      content_format = p_content_format,
      excerpt = p_excerpt,
      category_id = v_category,
      tags = p_tags,
      -- A delivery without an image keeps the post's; an update by id sets what the tool sent.
      featured_media_id = case when p_post_id is not null then p_featured_media_id else coalesce(p_featured_media_id, p.featured_media_id) end,
      featured_image_url = case
        when p_post_id is not null and p_featured_media_id is not distinct from p.featured_media_id then p.featured_image_url
        when p_featured_media_id is null and p_post_id is null then p.featured_image_url
      end,
      reading_time = p_reading_time,
      meta_title = case when p_post_id is not null then p_meta_title else coalesce(p_meta_title, p.meta_title) end,
      meta_description = case when p_post_id is not null then p_meta_description else coalesce(p_meta_description, p.meta_description) end,
      status = v_status,
      published_at = v_published_at,
      queued = v_queued
    where p.id = v_existing.id
    returning p.id, p.status, p.slug into v_id, v_status, v_slug;
  end if;

  insert into public.webhook_deliveries (organization_id, status_code, post_id, slug, note, webhook_name, image)
  values (p_organization_id, case when v_existing.id is null and v_duplicate is null then 201 else 200 end, v_id, v_slug,
          v_note, left(v_sender_name, 100), p_image);
  perform set_config('app.post_change', '', true);
  perform set_config('app.post_change_member', '', true);
  perform set_config('app.post_change_password', '', true);
  return query select v_id, v_status, v_slug, v_existing.id is null, v_duplicate, v_category_json;
end;
$$;


-- 2. WHO MAY DELETE A POST

/** Whether a member of role p_role may delete a post written by p_author_id: an admin any, an editor their own. */
create function private.may_delete_post(p_role text, p_author_id uuid, p_member_id uuid) returns boolean
language sql immutable set search_path = ''
as $$
  select coalesce(p_role = 'admin' or (p_role = 'editor' and p_author_id = p_member_id), false)
$$;
-- The delete policy calls it as the signed-in member.
grant execute on function private.may_delete_post(text, uuid, uuid) to authenticated;

drop policy "Admins and authors can delete posts" on public.blog_posts;
create policy "Admins and authors can delete posts" on public.blog_posts
  for delete to authenticated using (
    private.may_delete_post((select private.org_role(organization_id)), author_id, (select private.current_active_user_id()))
  );

/**
 * Deletes a post of p_organization_id for the member of application password p_application_password_id (checked
 * again: live, an active editor or admin there; 42501 otherwise, and 42501 when private.may_delete_post refuses
 * that member this post), logged as theirs, and answers the rebuilds already due (`{ batches }`,
 * claim_due_site_rebuilds' rule). Nothing happens to a post of another organization.
 */
create or replace function public.delete_arrived_post(
  p_organization_id uuid,
  p_post_id uuid,
  p_application_password_id uuid,
  p_quiet_window_ms integer default 60000,
  p_at_once boolean default true
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member uuid;
  v_name text;
  v_role text;
  v_author uuid;
  v_batches jsonb;
begin
  select pw.user_id, pw.name, m.role into v_member, v_name, v_role
  from private.publishing_password(p_organization_id, p_application_password_id) pw
  join public.organization_memberships m on m.user_id = pw.user_id and m.organization_id = p_organization_id;
  if v_member is null then
    raise exception 'delete_arrived_post: this application password may not delete here' using errcode = '42501';
  end if;
  select p.author_id into v_author from public.blog_posts p
  where p.id = p_post_id and p.organization_id = p_organization_id for update;
  if found and not private.may_delete_post(v_role, v_author, v_member) then
    raise exception 'delete_arrived_post: this member may not delete another member''s post' using errcode = '42501';
  end if;
  perform set_config('app.post_change', 'webhook', true);
  perform set_config('app.post_change_member', v_member::text, true);
  perform set_config('app.post_change_password', v_name, true);
  delete from public.blog_posts p where p.id = p_post_id and p.organization_id = p_organization_id;
  perform set_config('app.post_change', '', true);
  perform set_config('app.post_change_member', '', true);
  perform set_config('app.post_change_password', '', true);
  select coalesce(jsonb_agg(to_jsonb(b)), '[]'::jsonb) into v_batches
  from public.claim_due_site_rebuilds(p_quiet_window_ms, p_organization_id, p_at_once) b;
  return jsonb_build_object('batches', v_batches);
end;
$$;

-- 3. TERM COUNTS AS VISITORS SEE THEM

create or replace view public.blog_category_counts with (security_invoker = true) as
select c.id, c.organization_id, c.name, c.slug, c.is_default,
  (select count(*) from public.blog_posts p where p.category_id = c.id)::integer as post_count,
  c.needs_review,
  c.wp_id,
  (select count(*) from public.blog_posts p where p.category_id = c.id and p.status = 'published' and p.published_at <= now())::integer
    as published_count
from public.blog_categories c;

create or replace view public.blog_tag_counts with (security_invoker = true) as
select t.id, t.organization_id, t.name,
  (select count(*) from public.blog_posts p where p.organization_id = t.organization_id and p.tags @> array[t.name])::integer
    as post_count,
  t.wp_id,
  (select count(*) from public.blog_posts p
    where p.organization_id = t.organization_id and p.tags @> array[t.name] and p.status = 'published' and p.published_at <= now())::integer
    as published_count
from public.blog_tags t;

-- 4. AUTHORS' INTEGER IDS FOR VISITORS

grant select (wp_id) on public.profiles to anon;
