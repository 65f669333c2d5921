-- CATEGORIES FOR REVIEW, AND WHAT A DELIVERY DID WITH ITS IMAGE AND CATEGORY (issue 34).
--
-- 1. blog_categories.needs_review: a category the writing tool's delivery created (a name that matched no
--    category of the organization, even loosely: the server maps case, spacing, punctuation and small typos to
--    the existing category first, src/lib/category-match.ts) waits for an editor. The site does not offer it to
--    visitors (no pill, sidebar entry, category page or sitemap entry) until an editor approves it in
--    Categories & Tags: an UPDATE setting needs_review to false, which the existing policy allows editors and
--    admins of the organization. Only the database flags a category: a client can neither create a flagged
--    category nor flag one again. An approval is logged (category_approved) in the same transaction, and
--    requests a rebuild when the category has published posts (blog_categories_request_rebuild).
-- 2. webhook_deliveries.image: whether the delivery's featured image was stored ('stored'), none was sent
--    ('none') or it could not be taken ('failed', the note says why); null for refused deliveries and for
--    those recorded before this column.
-- 3. upsert_webhook_post / receive_webhook_delivery take the image outcome (p_image) and answer the category
--    the post landed in (`category: { id, name, created, needs_review }`); preview_webhook_delivery answers
--    needs_review too. Their other parameters are unchanged, so callers by name keep working.
-- 4. blog_category_counts (Categories & Tags) shows needs_review.

-- 1. THE REVIEW FLAG

alter table public.blog_categories add column needs_review boolean not null default false;
comment on column public.blog_categories.needs_review is
  'Created by a writing-tool delivery from a name that matched no category: hidden from visitors until an editor approves it.';

/** Clients may approve a category (true to false), never flag one: the flag says the database made it unreviewed. */
create function private.guard_category_review() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and new.needs_review
     and (tg_op = 'INSERT' or not old.needs_review) then
    raise exception 'category_review: only the database flags a category for review' using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke execute on function private.guard_category_review() from public, anon, authenticated;
create trigger blog_categories_guard_review before insert or update of needs_review on public.blog_categories
  for each row execute function private.guard_category_review();

/** An approval is an audit entry, like every other change of the taxonomy. */
create function private.record_category_approval() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.log_taxonomy_change(new.organization_id, 'category_approved', 'blog_category', new.id::text,
    jsonb_build_object('name', new.name, 'slug', new.slug));
  return null;
end;
$$;
revoke execute on function private.record_category_approval() from public, anon, authenticated;
create trigger blog_categories_record_approval after update of needs_review on public.blog_categories
  for each row when (old.needs_review and not new.needs_review) execute function private.record_category_approval();

-- 2. THE DELIVERY'S IMAGE

alter table public.webhook_deliveries
  add column image text check (image in ('stored', 'none', 'failed'));
comment on column public.webhook_deliveries.image is
  'The delivery''s featured image: stored in the media library, none sent, or failed (see note); null when refused or older.';

-- 3. THE DELIVERY FUNCTIONS

drop function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean);
drop function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text);
drop function public.preview_webhook_delivery(uuid, text, text, text, text, text);

/**
 * Creates or updates (same organization and slug) the writing tool's post: publish mode from the
 * organization's settings (published at once, a draft, or queued at the next free slot), the configured
 * author while still an active member, the category by private.webhook_category_for (by name, else a
 * former slug) or created flagged for review (needs_review), the featured image from the organization's media;
 * and the delivery record (with the webhook's name and the image outcome p_image) in the same statement. A new
 * slug whose article is a likely duplicate of one of the organization's posts (private.likely_duplicate) is
 * saved as a draft marked duplicate_of, whatever the mode, and the delivery record says so. Logged and revised
 * via 'webhook'. `category` answers where the post landed: `{ id, name, created, needs_review }`.
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
  p_image text default null
) returns table (post_id uuid, post_status text, post_slug text, created boolean, duplicate_of jsonb, category jsonb)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_mode text;
  v_author uuid;
  v_category uuid;
  v_category_created boolean := false;
  v_category_json jsonb;
  v_duplicate jsonb;
  v_note text := p_note;
begin
  select coalesce(o.settings #>> '{webhook,publish_mode}', 'publish') into v_mode
  from public.organizations o where o.id = p_organization_id;
  if not found then
    raise exception 'upsert_webhook_post: no organization %', p_organization_id using errcode = 'P0002';
  end if;
  perform set_config('app.post_change', 'webhook', true);

  -- The configured author only while they still belong to the organization.
  select w.author_id into v_author
  from public.webhook_integrations w
  join public.organization_memberships m on m.user_id = w.author_id and m.organization_id = w.organization_id
  where w.organization_id = p_organization_id;

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

  -- A new slug only: a re-delivery of the same slug updates its post, as always. The organization's
  -- deliveries pass the gate one at a time, so two copies of an article delivered at once cannot both pass.
  perform pg_advisory_xact_lock(hashtextextended('webhook_delivery:' || p_organization_id::text, 0));
  if private.webhook_post_for_slug(p_organization_id, p_slug) is null then
    select to_jsonb(d) into v_duplicate from private.likely_duplicate(p_organization_id, p_title, p_content) d;
    if v_duplicate is not null then
      v_mode := 'draft';
      v_note := left(concat_ws(' ', 'Possible duplicate of “' || (v_duplicate ->> 'title') || '” (/blog/' || (v_duplicate ->> 'slug')
        || ', ' || (v_duplicate ->> 'reason') || '): saved as a draft.', p_note), 2000);
    end if;
  end if;

  return query
  with upserted as (
    insert into public.blog_posts as p (
      organization_id, slug, title, content, content_source, content_format, excerpt, category_id, tags,
      featured_media_id, reading_time, status, published_at, author_id, queued, duplicate_of
    ) values (
      p_organization_id, p_slug, p_title, p_content, p_content_source, p_content_format, p_excerpt, v_category,
      p_tags, p_featured_media_id, p_reading_time, case when v_mode = 'publish' then 'published' else 'draft' end,
      case when v_mode = 'publish' then now() end, v_author, v_mode = 'queue', (v_duplicate ->> 'id')::uuid
    )
    on conflict (organization_id, slug) do update set
      title = excluded.title,
      content = excluded.content,
      content_source = excluded.content_source,
      content_format = excluded.content_format,
      excerpt = excluded.excerpt,
      category_id = excluded.category_id,
      tags = excluded.tags,
      featured_media_id = coalesce(excluded.featured_media_id, p.featured_media_id),
      featured_image_url = case when excluded.featured_media_id is null then p.featured_image_url end,
      reading_time = excluded.reading_time
    -- xmax is 0 only on a row this statement inserted.
    returning p.id, p.status, p.slug, (p.xmax = 0) as inserted
  ), delivery as (
    insert into public.webhook_deliveries (organization_id, status_code, post_id, slug, note, webhook_name, image)
    select p_organization_id, case when u.inserted and v_duplicate is null then 201 else 200 end, u.id, u.slug, v_note, p_webhook_name, p_image
    from upserted u
  )
  select u.id, u.status, u.slug, u.inserted, v_duplicate, v_category_json from upserted u;
  perform set_config('app.post_change', '', true);
end;
$$;
revoke execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text, text)
  from public, anon, authenticated;
grant execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text, text)
  to service_role;

/**
 * Receives one writing-tool delivery for the organization named by p_token (the public webhook) or by
 * p_organization_id (the back office, whose caller the function has verified as an admin). Answers
 * `{ found: false }` for an unknown token or organization, having written nothing. Otherwise
 * `{ found: true, organization: { slug, domain }, ... }` and the delivery is recorded:
 * - p_refused_status given: the refusal with p_refused_error, no post;
 * - the upsert failed: a 500 delivery whose error names its reference, and `error` and `reference` in the
 *   answer; the upsert's writes are rolled back;
 * - else `post: { id, status, slug, created, duplicate_of, category }` and `rebuild: { batches }`, the rebuilds
 *   already due (p_at_once: claim_due_site_rebuilds' rule for a lone change).
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
  p_image text default null
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

  if p_refused_status is not null then
    insert into public.webhook_deliveries (organization_id, status_code, slug, error, webhook_name)
    values (v_org_id, p_refused_status, p_slug, left(p_refused_error, 2000), p_webhook_name);
    return jsonb_build_object('found', true, 'organization', v_org);
  end if;

  begin
    select * into strict v_post from public.upsert_webhook_post(
      v_org_id, p_slug, p_title, p_content, p_content_source, p_content_format, p_excerpt, p_category_name,
      p_category_slug, p_tags, p_featured_media_id, p_reading_time, p_note, p_webhook_name, p_image
    );
  exception when others then
    v_delivery_id := gen_random_uuid();
    v_reference := left(v_delivery_id::text, 8);
    insert into public.webhook_deliveries (id, organization_id, status_code, slug, error, webhook_name)
    values (v_delivery_id, v_org_id, 500, p_slug,
            left('Could not store the post (reference ' || v_reference || '): ' || sqlerrm, 2000), p_webhook_name);
    return jsonb_build_object('found', true, 'organization', v_org, 'error', sqlerrm, 'reference', v_reference);
  end;

  -- The post's trigger recorded the rebuild request; send at once only what is already due.
  select coalesce(jsonb_agg(to_jsonb(b)), '[]'::jsonb) into v_batches
  from public.claim_due_site_rebuilds(p_quiet_window_ms, v_org_id, p_at_once) b;

  return jsonb_build_object(
    'found', true,
    'organization', v_org,
    'post', jsonb_build_object('id', v_post.post_id, 'status', v_post.post_status, 'slug', v_post.post_slug, 'created', v_post.created,
                               'duplicate_of', v_post.duplicate_of, 'category', v_post.category),
    'rebuild', jsonb_build_object('batches', v_batches)
  );
end;
$$;
revoke execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean, text)
  from public, anon, authenticated;
grant execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean, text)
  to service_role;

/**
 * What a delivery of this slug, title, body and category would do for the organization, written nowhere:
 * `{ found: false }` for an unknown organization, else
 * `{ found: true, organization: { slug, domain }, action: 'create' | 'update', post: { id, title, slug,
 * status } | null, status, queued, duplicate_of, category: { name, created, needs_review } }`:
 * - create: `status` follows the organization's publish mode (published, draft, or scheduled and `queued`
 *   with `slot`, the time it would take), or draft with `duplicate_of: { id, title, slug, reason }` when
 *   the gate would mark it;
 * - update: `post` is the post it would overwrite; `status` is that post's own, which an update keeps;
 * - `category.created` is true when the delivery would create the category (flagged for review), and
 *   `category.needs_review` when the category it lands in waits for an editor's approval; a delivery without
 *   a category lands in the organization's default one.
 * Security invoker and granted to the service role only (it reads every post of the organization).
 */
create function public.preview_webhook_delivery(
  p_organization_id uuid,
  p_slug text,
  p_title text,
  p_content text,
  p_category_name text default null,
  p_category_slug text default null
) returns jsonb
language plpgsql stable security invoker set search_path = ''
as $$
declare
  v_org public.organizations;
  v_post public.blog_posts;
  v_category public.blog_categories;
  v_mode text;
  v_duplicate jsonb;
  v_post_id uuid := private.webhook_post_for_slug(p_organization_id, p_slug);
begin
  select * into v_org from public.organizations o where o.id = p_organization_id;
  if v_org.id is null then
    return jsonb_build_object('found', false);
  end if;
  v_mode := coalesce(v_org.settings #>> '{webhook,publish_mode}', 'publish');
  if v_post_id is not null then
    select * into v_post from public.blog_posts p where p.id = v_post_id;
  else
    select to_jsonb(d) into v_duplicate from private.likely_duplicate(p_organization_id, p_title, p_content) d;
  end if;
  if p_category_name is not null then
    select * into v_category from public.blog_categories c
    where c.id = private.webhook_category_for(p_organization_id, p_category_name, p_category_slug);
  else
    select * into v_category from public.blog_categories c where c.organization_id = p_organization_id and c.is_default;
  end if;
  return jsonb_build_object(
    'found', true,
    'organization', jsonb_build_object('slug', v_org.slug, 'domain', v_org.domain),
    'action', case when v_post.id is null then 'create' else 'update' end,
    'post', case when v_post.id is not null then
      jsonb_build_object('id', v_post.id, 'title', v_post.title, 'slug', v_post.slug, 'status', v_post.status) end,
    'status', case
      when v_post.id is not null then v_post.status
      when v_duplicate is not null then 'draft'
      when v_mode = 'publish' then 'published'
      when v_mode = 'queue' then 'scheduled'
      else 'draft' end,
    'queued', case when v_post.id is not null then v_post.queued else v_duplicate is null and v_mode = 'queue' end,
    'slot', case when v_post.id is null and v_duplicate is null and v_mode = 'queue' then (
      select s from private.queue_slots(p_organization_id, greatest(now(), (
        select max(p.published_at) from public.blog_posts p where p.organization_id = p_organization_id and p.queued)), 1) s) end,
    'duplicate_of', v_duplicate,
    'category', jsonb_build_object(
      'name', coalesce(v_category.name, p_category_name, 'Uncategorized'),
      'created', p_category_name is not null and v_category.id is null,
      'needs_review', coalesce(v_category.needs_review, p_category_name is not null))
  );
end;
$$;
revoke execute on function public.preview_webhook_delivery(uuid, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.preview_webhook_delivery(uuid, text, text, text, text, text) to service_role;

-- 4. CATEGORIES & TAGS SHOWS THE FLAG

/** Categories with how many posts (any status) each holds, and whether it waits for review. */
create or replace view public.blog_category_counts with (security_invoker = true) as
select c.id, c.organization_id, c.name, c.slug, c.is_default,
  (select count(*) from public.blog_posts p where p.category_id = c.id)::integer as post_count,
  c.needs_review
from public.blog_categories c;
