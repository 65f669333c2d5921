-- A duplicate gate for deliveries, and deliveries into the publishing queue.
--
-- A delivery whose slug is new but whose article repeats one already on the blog (the same title reworded,
-- the same body under another slug: a re-run of a batch) became a second public post. Now, before a
-- delivery creates a post, it is compared with every post of the organization (drafts and queued ones
-- included); a likely duplicate is saved as a draft marked `duplicate_of` (never published or queued), the
-- delivery log and the answer say so, and an editor can dismiss the mark. A re-delivery of the same slug
-- keeps updating its post, as before. Likely duplicate (private.likely_duplicate):
-- * the same normalized title (lower case, every run of other characters than letters and digits one
--   space, trimmed), or
-- * a body whose text shares at least half of its word shingles with the new body's (Jaccard similarity
--   >= 0.5 of the sets of 5-word sequences among the first 500 words, tags stripped, normalized as titles),
--   when both have at least 24 words (short notes are compared by title only). Different articles share
--   almost no 5-word sequence; the same article under another slug shares all of them, a lightly edited one
--   nearly all.
-- Shingles rather than character trigrams: common trigrams are in every English text, so a trigram index
-- finds nearly every post as a candidate (measured: 2 s at 10,000 posts), while a 5-word sequence is rare.
-- Each post keeps a sketch of its body: the 16 smallest shingle hashes (bottom-k MinHash), a stored
-- generated column of 64 bytes with a GIN index. Two bodies with Jaccard similarity J share a sketch hash
-- unless none of the 16 smallest hashes of their union is in both, a chance of (1 - J)^16 (1 in 65,000 at
-- J = 0.5, nil for a copy), so the candidates are the posts sharing a sketch hash, and only their bodies are
-- shingled to compute the exact similarity. The check stays in milliseconds at 10,000 posts
-- (npm run bench:publishing measures it).
-- Deliveries also follow the new publish mode 'queue' (20261124000300_publishing_queue.sql): a new post
-- joins the organization's publishing queue.

/** A title as the duplicate gate compares it: lower case, runs of non-alphanumerics one space, trimmed. */
create function private.title_key(p_title text) returns text
language sql immutable parallel safe set search_path = ''
as $$ select btrim(regexp_replace(lower(p_title), '[^[:alnum:]]+', ' ', 'g')) $$;

/**
 * A body as the duplicate gate compares it: the hashes of its 5-word sequences (shingles) among its first 500
 * words, tags stripped and normalized as titles; empty for a body of fewer than 24 words.
 */
create function private.body_shingles(p_html text) returns integer[]
language plpgsql immutable parallel safe set search_path = ''
as $$
declare
  v_words text[] := (regexp_split_to_array(
    btrim(regexp_replace(lower(regexp_replace(p_html, '<[^>]*>', ' ', 'g')), '[^[:alnum:]]+', ' ', 'g')), ' '))[1:500];
begin
  if coalesce(cardinality(v_words), 0) < 24 then
    return '{}';
  end if;
  return array(
    select distinct hashtext(array_to_string(v_words[i:i + 4], ' '))
    from generate_series(1, cardinality(v_words) - 4) as i
  );
end;
$$;

/** The sketch of a set of shingles: its 16 smallest hashes (fewer for a short body, none below 24 words). */
create function private.shingle_sketch(p_shingles integer[]) returns integer[]
language sql immutable parallel safe set search_path = ''
as $$ select coalesce(array(select s from unnest(p_shingles) as s order by s limit 16), '{}') $$;

/** The Jaccard similarity of two sets of shingles (0 when both are empty). */
create function private.shingle_similarity(p_a integer[], p_b integer[]) returns numeric
language sql immutable parallel safe set search_path = ''
as $$
  select coalesce(
    (select count(*) from (select unnest(p_a) intersect select unnest(p_b)) as shared)::numeric
      / nullif((select count(*) from (select unnest(p_a) union select unnest(p_b)) as either), 0),
    0)
$$;
revoke execute on function private.title_key(text), private.body_shingles(text), private.shingle_sketch(integer[]),
  private.shingle_similarity(integer[], integer[]) from public, anon, authenticated;
grant execute on function private.title_key(text), private.body_shingles(text), private.shingle_sketch(integer[]),
  private.shingle_similarity(integer[], integer[]) to authenticated, service_role;

alter table public.blog_posts
  add column title_key text generated always as (private.title_key(title)) stored,
  add column body_sketch integer[] generated always as (private.shingle_sketch(private.body_shingles(content))) stored,
  add column duplicate_of uuid,
  add constraint blog_posts_duplicate_of_fkey foreign key (duplicate_of, organization_id)
    references public.blog_posts (id, organization_id) on delete set null (duplicate_of),
  add constraint blog_posts_duplicate_of_other check (duplicate_of <> id);
comment on column public.blog_posts.duplicate_of is
  'The post a writing-tool delivery likely repeats (set by the webhook, never published); an editor clears it to dismiss the mark.';
create index blog_posts_title_key_idx on public.blog_posts (organization_id, title_key);
-- fastupdate off: no pending list that every search would read through (after a bulk insert it made the
-- planner skip the index and scan the table, 20 ms instead of 2 at 10,000 posts).
create index blog_posts_body_sketch_idx on public.blog_posts using gin (body_sketch) with (fastupdate = off);
create index blog_posts_duplicate_of_idx on public.blog_posts (duplicate_of, organization_id);

/** Members may only clear the duplicate mark (dismiss it): setting one is the webhook's, through the service role. */
create function private.guard_duplicate_mark() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and new.duplicate_of is not null
     and (tg_op = 'INSERT' or new.duplicate_of is distinct from old.duplicate_of) then
    raise exception 'duplicate_of: only the writing tool''s delivery marks a possible duplicate; clear it to dismiss the mark'
      using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke execute on function private.guard_duplicate_mark() from public, anon, authenticated;
create trigger blog_posts_guard_duplicate_mark before insert or update of duplicate_of on public.blog_posts
  for each row execute function private.guard_duplicate_mark();

/**
 * The organization's post a new article most likely repeats, if any: the same title key (reason 'same
 * title'), else the body sharing the most shingles, at least half (reason 'similar text, 87%'); among equals the
 * oldest post, the one the others repeat. At most one row.
 */
create function private.likely_duplicate(p_organization_id uuid, p_title text, p_content text)
returns table (id uuid, title text, slug text, reason text)
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_shingles integer[] := private.body_shingles(p_content);
begin
  return query
  select p.id, p.title, p.slug, 'same title'::text
  from public.blog_posts p
  where p.organization_id = p_organization_id and p.title_key = private.title_key(p_title)
  order by p.created_at
  limit 1;
  if found or cardinality(v_shingles) = 0 then
    return;
  end if;
  return query
  select d.id, d.title, d.slug, 'similar text, ' || round(d.score * 100) || '%'
  from (
    select p.id, p.title, p.slug, p.created_at, private.shingle_similarity(private.body_shingles(p.content), v_shingles) as score
    from public.blog_posts p
    where p.body_sketch operator(pg_catalog.&&) private.shingle_sketch(v_shingles) and p.organization_id = p_organization_id
  ) d
  where d.score >= 0.5
  order by d.score desc, d.created_at
  limit 1;
end;
$$;
revoke execute on function private.likely_duplicate(uuid, text, text) from public, anon, authenticated;
grant execute on function private.likely_duplicate(uuid, text, text) to service_role;

drop function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean);
drop function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text);
drop function public.preview_webhook_delivery(uuid, text, text, text, text);

/**
 * Creates or updates (same organization and slug) the writing tool's post: publish mode from the
 * organization's settings (published at once, a draft, or queued at the next free slot), the configured
 * author while still an active member, the category by private.webhook_category_for (by name, else a
 * former slug) or created, the featured image from the organization's media; and the delivery record (with
 * the webhook's name) in the same statement. A new slug whose article is a likely duplicate of one of the
 * organization's posts (private.likely_duplicate) is saved as a draft marked duplicate_of, whatever the
 * mode, and the delivery record says so. Logged and revised via 'webhook'.
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
  p_webhook_name text default null
) returns table (post_id uuid, post_status text, post_slug text, created boolean, duplicate_of jsonb)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_mode text;
  v_author uuid;
  v_category uuid;
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
      -- The no-op update makes a concurrent creator's row come back from RETURNING too.
      insert into public.blog_categories as c (organization_id, name, slug)
      values (p_organization_id, p_category_name, p_category_slug)
      on conflict (organization_id, slug) do update set slug = c.slug
      returning c.id into v_category;
    end if;
  end if;

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
    insert into public.webhook_deliveries (organization_id, status_code, post_id, slug, note, webhook_name)
    select p_organization_id, case when u.inserted and v_duplicate is null then 201 else 200 end, u.id, u.slug, v_note, p_webhook_name
    from upserted u
  )
  select u.id, u.status, u.slug, u.inserted, v_duplicate from upserted u;
  perform set_config('app.post_change', '', true);
end;
$$;
revoke execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text)
  from public, anon, authenticated;
grant execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text)
  to service_role;

/**
 * Receives one writing-tool delivery for the organization named by p_token (the public webhook) or by
 * p_organization_id (the back office, whose caller the function has verified as an admin). Answers
 * `{ found: false }` for an unknown token or organization, having written nothing. Otherwise
 * `{ found: true, organization: { slug, domain }, ... }` and the delivery is recorded:
 * - p_refused_status given: the refusal with p_refused_error, no post;
 * - the upsert failed: a 500 delivery whose error names its reference, and `error` and `reference` in the
 *   answer; the upsert's writes are rolled back;
 * - else `post: { id, status, slug, created, duplicate_of }` and `rebuild: { batches }`, the rebuilds already due (p_at_once:
 *   claim_due_site_rebuilds' rule for a lone change).
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
  p_at_once boolean default true
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
      p_category_slug, p_tags, p_featured_media_id, p_reading_time, p_note, p_webhook_name
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
                               'duplicate_of', v_post.duplicate_of),
    'rebuild', jsonb_build_object('batches', v_batches)
  );
end;
$$;
revoke execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean)
  from public, anon, authenticated;
grant execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean)
  to service_role;

/**
 * What a delivery of this slug, title, body and category would do for the organization, written nowhere:
 * `{ found: false }` for an unknown organization, else
 * `{ found: true, organization: { slug, domain }, action: 'create' | 'update', post: { id, title, slug,
 * status } | null, status, queued, duplicate_of, category: { name, created } }`:
 * - create: `status` follows the organization's publish mode (published, draft, or scheduled and `queued`
 *   with `slot`, the time it would take), or draft with `duplicate_of: { id, title, slug, reason }` when
 *   the gate would mark it;
 * - update: `post` is the post it would overwrite; `status` is that post's own, which an update keeps;
 * - `category.created` is true when the delivery would create the category, and a delivery without a
 *   category lands in the organization's default one.
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
  v_category text;
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
    select c.name into v_category from public.blog_categories c
    where c.id = private.webhook_category_for(p_organization_id, p_category_name, p_category_slug);
  else
    select c.name into v_category from public.blog_categories c where c.organization_id = p_organization_id and c.is_default;
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
      'name', coalesce(v_category, p_category_name, 'Uncategorized'),
      'created', p_category_name is not null and v_category is null)
  );
end;
$$;
revoke execute on function public.preview_webhook_delivery(uuid, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.preview_webhook_delivery(uuid, text, text, text, text, text) to service_role;
