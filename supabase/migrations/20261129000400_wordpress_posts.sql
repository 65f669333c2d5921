-- Posts through the WordPress publishing API: the same arrival as a webhook delivery.
--
-- 1. Integer ids, as WordPress clients parse them: blog_posts, blog_categories, blog_tags and media get a
--    `wp_id` (an identity: nobody writes it). The API answers with them and takes them back.
-- 2. An arrival names who sent it: a webhook delivery (as before), or an application password
--    (p_application_password_id). For a password the database checks again that it is live and that its member
--    may publish in the organization (an active editor or admin): the API's function only translates. The
--    member is then the new post's author, and the audit log's and revisions' actor, with the password's name
--    in the audit entry (`application_password`). The delivery log records the arrival under the password's name.
-- 3. An arrival may ask for a status: `publish` (the organization's choice for arrivals decides: published now,
--    a draft, or the queue's next slot), `draft`, or `future` at p_published_at (a time to come). Without one, a
--    new post follows the organization's choice and an existing one keeps its status, as deliveries always did.
--    A publish asked of a draft follows the organization's choice too, so a draft-only organization's review
--    cannot be skipped by publishing a draft the tool made; a scheduled post keeps its time.
-- 4. An arrival may target a post by id (p_post_id, the API's update: every column as sent, the tool's merge of
--    what it did not send done before), or ask for a new post whatever its slug (p_new_post: WordPress makes a
--    second post with `-2` appended rather than overwrite; an update to another post's slug gets one the same
--    way). Without either, the slug decides, as for deliveries.
-- 5. SEO title and description (meta_title, meta_description) arrive too: a delivery that sends none keeps the
--    post's; an update by id sets them as sent.

-- 1. INTEGER IDS

alter table public.blog_posts add column wp_id bigint generated always as identity unique;
alter table public.blog_categories add column wp_id bigint generated always as identity unique;
alter table public.blog_tags add column wp_id bigint generated always as identity unique;
alter table public.media add column wp_id bigint generated always as identity unique;
comment on column public.blog_posts.wp_id is 'The post''s id in the WordPress-compatible publishing API.';
comment on column public.blog_categories.wp_id is 'The category''s id in the WordPress-compatible publishing API.';
comment on column public.blog_tags.wp_id is 'The tag''s id in the WordPress-compatible publishing API.';
comment on column public.media.wp_id is 'The file''s id in the WordPress-compatible publishing API.';

-- 2. WHO SENT AN ARRIVAL, IN THE AUDIT LOG AND THE REVISIONS

/**
 * The member an arrival through an application password acts for, when the transaction's writer is not a
 * signed-in member (set only by upsert_webhook_post, transaction-local), else null.
 */
create function private.post_change_member() returns uuid
language sql stable set search_path = ''
as $$ select nullif(current_setting('app.post_change_member', true), '')::uuid $$;
revoke execute on function private.post_change_member() from public, anon, authenticated;

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
    content_format, content, reading_time, meta_title, meta_description
  ) values (
    new.id, new.organization_id, v_editor,
    case
      when v_change in ('webhook', 'restore') then v_change
      when v_editor is not null then 'editor'
      else 'system'
    end,
    case when v_change = 'restore' then nullif(current_setting('app.restored_revision', true), '')::uuid end,
    v_fields, new.title, new.excerpt, new.content_source, new.content_format, new.content, new.reading_time,
    new.meta_title, new.meta_description
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

/**
 * The member and name of a live application password of p_organization_id whose member may publish there (an
 * active editor or admin with an active account), or no row.
 */
create function private.publishing_password(p_organization_id uuid, p_password_id uuid)
returns table (user_id uuid, name text)
language sql stable security definer set search_path = ''
as $$
  select a.user_id, a.name
  from public.application_passwords a
  join public.profiles p on p.id = a.user_id and p.is_active
  join public.organization_memberships m on m.user_id = a.user_id and m.organization_id = a.organization_id
    and m.is_active and m.role in ('editor', 'admin')
  where a.id = p_password_id and a.organization_id = p_organization_id
$$;
revoke execute on function private.publishing_password(uuid, uuid) from public, anon, authenticated;

/** A slug of the organization no post has: p_slug, else p_slug-2, -3… (WordPress's rule for a new post). */
create function private.free_post_slug(p_organization_id uuid, p_slug text) returns text
language plpgsql stable set search_path = ''
as $$
declare
  v_candidate text := p_slug;
  v_n integer := 1;
begin
  while exists (select 1 from public.blog_posts p where p.organization_id = p_organization_id and p.slug = v_candidate) loop
    v_n := v_n + 1;
    v_candidate := left(p_slug, 200 - length(v_n::text) - 1) || '-' || v_n;
  end loop;
  return v_candidate;
end;
$$;
revoke execute on function private.free_post_slug(uuid, text) from public, anon, authenticated;

-- 3, 4, 5. THE ARRIVAL

drop function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean, text, text);
drop function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text, text);

/**
 * Stores an arriving post (a webhook delivery, or a WordPress API request through p_application_password_id):
 * - which post: p_post_id (that post of the organization, every column as sent), else a new one when p_new_post
 *   (its slug made free: -2, -3…), else the organization's post with p_slug, created when there is none;
 * - its status: p_status 'draft', 'future' (scheduled at p_published_at, which must be ahead) or 'publish';
 *   a new post, or a publish of a draft, follows the organization's choice for arrivals (published now, a
 *   draft, or queued at the next free slot; a scheduled post asked to publish is published only in the
 *   `publish` choice, else keeps its time); without p_status an existing post keeps its own;
 * - author: the password's member, else the webhook's configured author while still an active member (new
 *   posts only);
 * - category by private.webhook_category_for (by name, else a former slug) or created flagged for review; tags
 *   through the registry; the featured image from the organization's media (a delivery without one keeps the
 *   post's, an update by id sets it as sent); SEO title and description likewise;
 * - a new post whose article likely repeats one of the organization's (private.likely_duplicate) is saved as
 *   a draft marked duplicate_of, whatever was asked;
 * - the delivery record (with the webhook's or password's name and the image outcome p_image), in the same
 *   statement. Logged and revised via 'webhook', with the password's member and name when one sent it.
 * Raises 42501 for a password that is revoked or whose member may not publish there, P0002 for an unknown
 * p_post_id, 22023 for a `future` time not ahead.
 */
create function public.upsert_webhook_post(
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

  -- The status: what was asked, the organization's choice for a publish of a post not yet live.
  v_status := v_existing.status;
  v_published_at := v_existing.published_at;
  v_queued := coalesce(v_existing.queued, false);
  if v_duplicate is not null then
    v_status := 'draft'; v_published_at := null; v_queued := false;
  elsif p_status = 'draft' then
    v_status := 'draft'; v_queued := false;
  elsif p_status = 'future' then
    v_status := 'scheduled'; v_published_at := p_published_at; v_queued := false;
  elsif (p_status = 'publish' or v_existing.id is null) and v_existing.status is distinct from 'published' then
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
revoke execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text, text, uuid, boolean, text, timestamptz, text, text, uuid)
  from public, anon, authenticated;
grant execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text, text, uuid, boolean, text, timestamptz, text, text, uuid)
  to service_role;

/**
 * Receives one arriving post for the organization named by p_token (the public webhook) or by
 * p_organization_id (the back office's test delivery, or the WordPress API with p_application_password_id;
 * their functions have verified the caller). Answers `{ found: false }` for an unknown token or organization,
 * having written nothing. Otherwise `{ found: true, organization: { slug, domain }, ... }` and the arrival is
 * recorded:
 * - p_refused_status given: the refusal with p_refused_error, no post;
 * - the upsert failed: a 500 delivery whose error names its reference, and `error`, `code` (the SQLSTATE) and
 *   `reference` in the answer; the upsert's writes are rolled back;
 * - else `post: { id, status, slug, created, duplicate_of, category }` and `rebuild: { batches }`, the rebuilds
 *   already due (p_at_once: claim_due_site_rebuilds' rule for a lone change);
 * - p_idempotency_key given and already stored for the organization (kept 7 days at least): the first
 *   delivery's `post` again with `replayed: true`, and nothing is written (no post change, revision, delivery
 *   record or rebuild request).
 * The post's own parameters are upsert_webhook_post's.
 */
create function public.receive_webhook_delivery(
  p_token text default null,
  p_organization_id uuid default null,
  p_slug text default null,
  p_title text default null,
  p_content text default null,
  p_content_source text default null,
  p_content_format text default null,
  p_excerpt text default null,
  p_category_name text default null,
  p_category_slug text default null,
  p_tags text[] default null,
  p_featured_media_id uuid default null,
  p_reading_time integer default null,
  p_note text default null,
  p_refused_status integer default null,
  p_refused_error text default null,
  p_quiet_window_ms integer default 60000,
  p_webhook_name text default null,
  p_at_once boolean default true,
  p_image text default null,
  p_idempotency_key text default null,
  p_post_id uuid default null,
  p_new_post boolean default false,
  p_status text default null,
  p_published_at timestamptz default null,
  p_meta_title text default null,
  p_meta_description text default null,
  p_application_password_id uuid default null
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_org_id uuid;
  v_org jsonb;
  v_post record;
  v_batches jsonb;
  v_delivery_id uuid;
  v_reference text;
  v_first jsonb;
begin
  if (p_token is null) = (p_organization_id is null) then
    raise exception 'receive_webhook_delivery: give either p_token or p_organization_id' using errcode = '22023';
  end if;
  v_org_id := coalesce(p_organization_id, public.organization_for_webhook_token(p_token));
  select jsonb_build_object('slug', o.slug, 'domain', o.domain) into v_org
  from public.organizations o where o.id = v_org_id;
  if v_org is null then
    return jsonb_build_object('found', false);
  end if;

  -- The same delivery again (a retry after a timeout, a 503 or a dropped connection): its first outcome,
  -- nothing written. A concurrent first try holds the key's row until it commits (then this is a replay)
  -- or rolls back (then this one stores the delivery).
  if p_idempotency_key is not null and p_refused_status is null then
    delete from private.webhook_delivery_keys k
    where k.organization_id = v_org_id and k.received_at < now() - interval '8 days';
    insert into private.webhook_delivery_keys (organization_id, key) values (v_org_id, p_idempotency_key)
    on conflict do nothing;
    if not found then
      select k.post into v_first from private.webhook_delivery_keys k
      where k.organization_id = v_org_id and k.key = p_idempotency_key;
      return jsonb_build_object('found', true, 'organization', v_org, 'post', v_first, 'replayed', true);
    end if;
  end if;

  if p_refused_status is not null then
    insert into public.webhook_deliveries (organization_id, status_code, slug, error, webhook_name)
    values (v_org_id, p_refused_status, p_slug, left(p_refused_error, 2000), p_webhook_name);
    return jsonb_build_object('found', true, 'organization', v_org);
  end if;

  begin
    select * into strict v_post from public.upsert_webhook_post(
      v_org_id, p_slug, p_title, p_content, p_content_source, p_content_format, p_excerpt, p_category_name,
      p_category_slug, p_tags, p_featured_media_id, p_reading_time, p_note, p_webhook_name, p_image,
      p_post_id, p_new_post, p_status, p_published_at, p_meta_title, p_meta_description, p_application_password_id
    );
  exception when others then
    v_delivery_id := gen_random_uuid();
    v_reference := left(v_delivery_id::text, 8);
    insert into public.webhook_deliveries (id, organization_id, status_code, slug, error, webhook_name)
    values (v_delivery_id, v_org_id, 500, p_slug,
            left('Could not store the post (reference ' || v_reference || '): ' || sqlerrm, 2000), p_webhook_name);
    -- Nothing was stored: a retry must store it, not replay the failure.
    delete from private.webhook_delivery_keys k where k.organization_id = v_org_id and k.key = p_idempotency_key;
    return jsonb_build_object('found', true, 'organization', v_org, 'error', sqlerrm, 'code', sqlstate, 'reference', v_reference);
  end;

  -- The post's trigger recorded the rebuild request; send at once only what is already due.
  select coalesce(jsonb_agg(to_jsonb(b)), '[]'::jsonb) into v_batches
  from public.claim_due_site_rebuilds(p_quiet_window_ms, v_org_id, p_at_once) b;

  v_first := jsonb_build_object('id', v_post.post_id, 'status', v_post.post_status, 'slug', v_post.post_slug, 'created', v_post.created,
                                'duplicate_of', v_post.duplicate_of, 'category', v_post.category);
  if p_idempotency_key is not null then
    update private.webhook_delivery_keys k set post = v_first where k.organization_id = v_org_id and k.key = p_idempotency_key;
  end if;
  return jsonb_build_object('found', true, 'organization', v_org, 'post', v_first, 'rebuild', jsonb_build_object('batches', v_batches));
end;
$$;
revoke execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean, text, text, uuid, boolean, text, timestamptz, text, text, uuid)
  from public, anon, authenticated;
grant execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean, text, text, uuid, boolean, text, timestamptz, text, text, uuid)
  to service_role;

/**
 * Deletes a post of p_organization_id for the member of application password p_application_password_id (checked
 * again: live, an active editor or admin there; 42501 otherwise), logged as theirs, and answers the rebuilds
 * already due (`{ batches }`, claim_due_site_rebuilds' rule). Nothing happens to a post of another organization.
 */
create function public.delete_arrived_post(
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
  v_batches jsonb;
begin
  select pw.user_id, pw.name into v_member, v_name from private.publishing_password(p_organization_id, p_application_password_id) pw;
  if v_member is null then
    raise exception 'delete_arrived_post: this application password may not delete here' using errcode = '42501';
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
revoke execute on function public.delete_arrived_post(uuid, uuid, uuid, integer, boolean) from public, anon, authenticated;
grant execute on function public.delete_arrived_post(uuid, uuid, uuid, integer, boolean) to service_role;
