-- ONE ARGUMENT FOR AN ARRIVAL, AND AN UPDATE THAT CHANGES ONLY WHAT WAS SENT
--
-- The arrival path's two functions took their fields one parameter each (receive_webhook_delivery 28,
-- upsert_webhook_post 22): every new field of a post meant dropping both, a new signature spelled out in full and
-- a new chance to get the order wrong. And an update had to send every field, the WordPress API filling the ones
-- its client did not send from a read made before the write, so an editor's save landing in between was
-- overwritten with what the post said before it. Now:
-- 1. public.receive_arrival(p_arrival jsonb) returns jsonb: one object in, one out, its keys checked once here
--    (private.checked_arrival: an unknown key, or a value of the wrong type, is refused naming the key).
-- 2. private.store_arrived_post(p_organization_id, p_arrival) stores the post. A key of `post` that is present sets
--    its column (null clears it), a key that is absent leaves the column as it is: the update sets only the sent
--    columns, in one statement, so what an editor saved meanwhile in the others stays.
-- Adding a field a sender may send: its column on blog_posts and its name in private.arrival_post_columns();
-- no signature changes.

drop function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean, text, text, uuid, boolean, text, timestamptz, text, text, uuid);
drop function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text, text, uuid, boolean, text, timestamptz, text, text, uuid);

/** The columns of blog_posts a sender sets by name (each a key of the arrival's `post`). */
create function private.arrival_post_columns() returns text[]
language sql immutable set search_path = '' as $$
  select array['slug', 'title', 'content', 'content_source', 'content_format', 'excerpt', 'tags', 'featured_media_id',
               'reading_time', 'meta_title', 'meta_description']
$$;

/**
 * The arrival, checked: an object whose keys are those receive_arrival documents, `post` and `refused` objects of
 * their own keys, every value of its key's type (the post's columns by blog_posts' own types). 22023 naming the
 * first key that is not; answers the arrival as given.
 */
create function private.checked_arrival(p_arrival jsonb) returns jsonb
language plpgsql stable set search_path = ''
as $$
declare
  v_key text;
  v_post jsonb := p_arrival -> 'post';
  v_row public.blog_posts;
begin
  if jsonb_typeof(p_arrival) is distinct from 'object' then
    raise exception 'receive_arrival: the arrival is not an object' using errcode = '22023';
  end if;
  select k into v_key from jsonb_object_keys(p_arrival) k
  where k <> all (array['token', 'organization_id', 'application_password_id', 'webhook_name', 'note', 'image',
                        'idempotency_key', 'quiet_window_ms', 'at_once', 'refused', 'post'])
  limit 1;
  if v_key is not null then
    raise exception 'receive_arrival: unknown key %', v_key using errcode = '22023';
  end if;
  if p_arrival ? 'refused' then
    select k into v_key from jsonb_object_keys(p_arrival -> 'refused') k where k <> all (array['status', 'error', 'slug']) limit 1;
    if v_key is not null or jsonb_typeof(p_arrival #> '{refused,status}') is distinct from 'number' then
      raise exception 'receive_arrival: refused.% is not known', coalesce(v_key, 'status') using errcode = '22023';
    end if;
  end if;
  if v_post is not null then
    if jsonb_typeof(v_post) <> 'object' then
      raise exception 'receive_arrival: post is not an object' using errcode = '22023';
    end if;
    select k into v_key from jsonb_object_keys(v_post) k
    where k <> all (private.arrival_post_columns() || array['category_name', 'category_slug', 'status', 'published_at', 'post_id', 'new_post'])
    limit 1;
    if v_key is not null then
      raise exception 'receive_arrival: unknown key post.%', v_key using errcode = '22023';
    end if;
    -- The columns' values by the columns' own types (a cast that fails names its type; the key is named here).
    foreach v_key in array private.arrival_post_columns() loop
      continue when not v_post ? v_key;
      begin
        v_row := jsonb_populate_record(null::public.blog_posts, jsonb_build_object(v_key, v_post -> v_key));
      exception when others then
        raise exception 'receive_arrival: post.% is not a valid %', v_key, v_key using errcode = '22023';
      end;
    end loop;
  end if;
  return p_arrival;
end;
$$;
revoke execute on function private.checked_arrival(jsonb) from public, anon, authenticated;

/**
 * Stores an arriving post for the organization: `p_arrival` is receive_arrival's (checked), its `post` the
 * fields. Which post: `post.post_id` (an update of that post), `post.new_post` (a new post whatever its slug), or
 * else the post with `post.slug` (the writing tool's redelivery), a new one when none has it. A present key sets its
 * column, an absent one keeps the post's; a new post needs `slug`, `title` and `content`. The category by
 * `post.category_name` (and `category_slug`): the organization's category it names (a name nobody chose is created
 * for review), null the default category, absent the post's own. The status: `post.status` (publish, draft, future
 * at `post.published_at`) by the organization's choice for arrivals (a draft for review, or the queue's next slot)
 * for a post not yet reviewed; a post an editor already scheduled or published may be given a new time. A new post
 * that likely repeats another is saved as a draft marked as its duplicate. The sender: an application password
 * (`application_password_id`: live, its member an active editor or admin here, else 42501; the post is theirs and
 * the audit log names them and the password), else the webhook's configured author. Records the arrival in the
 * delivery log. Answers `{ id, status, slug, created, duplicate_of, category: { id, name, created, needs_review } }`.
 */
create function private.store_arrived_post(p_organization_id uuid, p_arrival jsonb) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_post jsonb := coalesce(p_arrival -> 'post', '{}');
  v_fields jsonb;
  v_columns text[];
  v_mode text;
  v_author uuid;
  v_sender_name text := p_arrival ->> 'webhook_name';
  v_password uuid := (p_arrival ->> 'application_password_id')::uuid;
  v_asked text := v_post ->> 'status';
  v_asked_at timestamptz := (v_post ->> 'published_at')::timestamptz;
  v_category uuid;
  v_category_created boolean := false;
  v_category_json jsonb;
  v_duplicate jsonb;
  v_note text := p_arrival ->> 'note';
  v_slug text := v_post ->> 'slug';
  v_existing public.blog_posts;
  v_status text;
  v_published_at timestamptz;
  v_queued boolean;
  v_id uuid;
begin
  select coalesce(o.settings #>> '{webhook,publish_mode}', 'publish') into v_mode
  from public.organizations o where o.id = p_organization_id;
  if not found then
    raise exception 'store_arrived_post: no organization %', p_organization_id using errcode = 'P0002';
  end if;
  if v_asked is not null and v_asked not in ('publish', 'draft', 'future') then
    raise exception 'store_arrived_post: unknown status %', v_asked using errcode = '22023';
  end if;
  if v_asked = 'future' and (v_asked_at is null or v_asked_at <= now()) then
    raise exception 'store_arrived_post: a future post needs a time ahead' using errcode = '22023';
  end if;
  perform set_config('app.post_change', 'webhook', true);

  if v_password is not null then
    select pw.user_id, pw.name into v_author, v_sender_name from private.publishing_password(p_organization_id, v_password) pw;
    if v_author is null then
      raise exception 'store_arrived_post: this application password may not publish here' using errcode = '42501';
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

  if v_post ->> 'category_name' is not null then
    v_category := private.webhook_category_for(p_organization_id, v_post ->> 'category_name', v_post ->> 'category_slug');
    if v_category is null then
      -- A name nobody chose in the back office: visitors see it only once an editor approves it. The no-op
      -- update makes a concurrent creator's row come back from RETURNING too.
      insert into public.blog_categories as c (organization_id, name, slug, needs_review)
      values (p_organization_id, v_post ->> 'category_name', v_post ->> 'category_slug', true)
      on conflict (organization_id, slug) do update set slug = c.slug
      returning c.id, (c.xmax = 0) into v_category, v_category_created;
    end if;
  elsif v_post ? 'category_name' then
    v_category := private.default_category_id(p_organization_id);
  end if;

  -- The organization's arrivals pass the gate one at a time, so two copies of an article sent at once cannot
  -- both pass.
  perform pg_advisory_xact_lock(hashtextextended('webhook_delivery:' || p_organization_id::text, 0));
  if v_post ? 'post_id' then
    select * into v_existing from public.blog_posts p
    where p.id = (v_post ->> 'post_id')::uuid and p.organization_id = p_organization_id for update;
    if v_existing.id is null then
      raise exception 'store_arrived_post: no post % in this organization', v_post ->> 'post_id' using errcode = 'P0002';
    end if;
    -- A slug another post has is made free, as WordPress does.
    if v_slug is not null and v_slug <> v_existing.slug then
      v_slug := private.free_post_slug(p_organization_id, v_slug);
    end if;
  elsif coalesce((v_post ->> 'new_post')::boolean, false) then
    v_slug := private.free_post_slug(p_organization_id, v_slug);
  else
    select * into v_existing from public.blog_posts p where p.organization_id = p_organization_id and p.slug = v_slug for update;
  end if;
  if v_existing.id is null then
    if v_slug is null or v_post ->> 'title' is null or v_post ->> 'content' is null then
      raise exception 'store_arrived_post: a new post needs a slug, a title and content' using errcode = '22023';
    end if;
    v_category := coalesce(v_category, private.default_category_id(p_organization_id));
    select to_jsonb(d) into v_duplicate from private.likely_duplicate(p_organization_id, v_post ->> 'title', v_post ->> 'content') d;
    if v_duplicate is not null then
      v_note := left(concat_ws(' ', 'Possible duplicate of “' || (v_duplicate ->> 'title') || '” (/blog/' || (v_duplicate ->> 'slug')
        || ', ' || (v_duplicate ->> 'reason') || '): saved as a draft.', v_note), 2000);
    end if;
  end if;
  select jsonb_build_object('id', c.id, 'name', c.name, 'created', v_category_created, 'needs_review', c.needs_review)
  into v_category_json from public.blog_categories c where c.id = coalesce(v_category, v_existing.category_id);

  -- The status: what was asked, the organization's choice for a publish or a schedule of a post not yet
  -- reviewed (a new post or a draft). A post an editor already scheduled or published may be given a time.
  v_status := v_existing.status;
  v_published_at := v_existing.published_at;
  v_queued := coalesce(v_existing.queued, false);
  if v_duplicate is not null then
    v_status := 'draft'; v_published_at := null; v_queued := false;
  elsif v_asked = 'draft' then
    v_status := 'draft'; v_queued := false;
  elsif v_asked = 'future' and (v_mode = 'publish' or v_existing.status in ('scheduled', 'published')) then
    v_status := 'scheduled'; v_published_at := v_asked_at; v_queued := false;
  elsif (v_asked in ('publish', 'future') or v_existing.id is null) and v_existing.status is distinct from 'published' then
    if v_mode = 'publish' then
      v_status := 'published'; v_published_at := now(); v_queued := false;
    elsif v_existing.id is null or v_existing.status = 'draft' then
      -- A draft for an editor to review, or the queue's next slot (private.place_queued_post gives it). A
      -- post already scheduled keeps its time.
      v_status := 'draft'; v_queued := v_mode = 'queue';
    end if;
  end if;

  -- The sent columns, by blog_posts' own types (the slug as made free).
  v_fields := (select coalesce(jsonb_object_agg(e.key, e.value), '{}') from jsonb_each(v_post) e where e.key = any (private.arrival_post_columns()))
    || case when v_slug is not null then jsonb_build_object('slug', v_slug) else '{}' end;
  v_columns := array(select jsonb_object_keys(v_fields));
  if v_existing.id is null then
    execute format(
      'insert into public.blog_posts (organization_id, category_id, status, published_at, author_id, queued, duplicate_of, %1$s)
       select $1, $2, $3, $4, $5, $6, $7, %2$s from jsonb_populate_record(null::public.blog_posts, $8) r
       returning id, status, slug',
      (select string_agg(format('%I', c), ', ') from unnest(v_columns) c),
      (select string_agg(format('r.%I', c), ', ') from unnest(v_columns) c))
    into v_id, v_status, v_slug
    using p_organization_id, v_category, v_status, v_published_at, v_author, v_queued, (v_duplicate ->> 'id')::uuid, v_fields;
  else
    -- One statement on the locked row: the sent columns from the arrival, every other as the row has it.
    execute format(
      'update public.blog_posts p set
         category_id = coalesce($2, p.category_id), status = $3, published_at = $4, queued = $5,
         -- A file of its own replaces the image found at an address.
         featured_image_url = case when $6 ? ''featured_media_id'' and ($6 ->> ''featured_media_id'')::uuid is distinct from p.featured_media_id
                                   then null else p.featured_image_url end
         %1$s
       where p.id = $1
       returning p.id, p.status, p.slug',
      (select coalesce(string_agg(format(', %1$I = (jsonb_populate_record(p, $6)).%1$I', c), ''), '') from unnest(v_columns) c))
    into v_id, v_status, v_slug
    using v_existing.id, v_category, v_status, v_published_at, v_queued, v_fields;
  end if;

  insert into public.webhook_deliveries (organization_id, status_code, post_id, slug, note, webhook_name, image)
  values (p_organization_id, case when v_existing.id is null and v_duplicate is null then 201 else 200 end, v_id, v_slug,
          v_note, left(v_sender_name, 100), p_arrival ->> 'image');
  perform set_config('app.post_change', '', true);
  perform set_config('app.post_change_member', '', true);
  perform set_config('app.post_change_password', '', true);
  return jsonb_build_object('id', v_id, 'status', v_status, 'slug', v_slug, 'created', v_existing.id is null,
                            'duplicate_of', v_duplicate, 'category', v_category_json);
end;
$$;
revoke execute on function private.store_arrived_post(uuid, jsonb) from public, anon, authenticated;

/**
 * Stores one arrival from outside (the writing tool's webhook, the WordPress API) in one transaction, for the
 * service role only (the functions have verified the caller). `p_arrival`:
 * - who: `token` (the webhook's, checked here) or `organization_id` (the functions checked the caller), exactly
 *   one; `application_password_id` when an application password sends (checked again: live, its member an
 *   active editor or admin of the organization);
 * - `post`: the post's fields (private.store_arrived_post); or `refused: { status, error, slug }`: a refusal to
 *   record, no post;
 * - `webhook_name`, `note`, `image` ('stored' | 'none' | 'failed') for the delivery log; `idempotency_key`;
 * - `quiet_window_ms` (default 60000) and `at_once` (default true): claim_due_site_rebuilds' rule for the rebuild.
 * Answers `{ found: false }` for an unknown token or organization, having written nothing. Otherwise
 * `{ found: true, organization: { slug, domain }, ... }` and the arrival is recorded:
 * - a refusal: the refusal, no post;
 * - the post could not be stored: a 500 delivery whose error names its reference, and `error`, `code` (the
 *   SQLSTATE) and `reference` in the answer; the post's writes are rolled back;
 * - else `post` (store_arrived_post's answer) and `rebuild: { batches }`, the rebuilds already due;
 * - `idempotency_key` already stored for the organization (kept 7 days at least): the first delivery's `post`
 *   again with `replayed: true`, and nothing is written (no post change, revision, delivery record or rebuild).
 * 22023 for an arrival that is not of this shape (private.checked_arrival).
 */
create function public.receive_arrival(p_arrival jsonb) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_arrival jsonb := private.checked_arrival(p_arrival);
  v_key text := v_arrival ->> 'idempotency_key';
  v_refused jsonb := v_arrival -> 'refused';
  v_webhook_name text := v_arrival ->> 'webhook_name';
  v_org_id uuid;
  v_org jsonb;
  v_post jsonb;
  v_batches jsonb;
  v_delivery_id uuid;
  v_reference text;
  v_first jsonb;
begin
  if (v_arrival ? 'token') = (v_arrival ? 'organization_id') then
    raise exception 'receive_arrival: give either token or organization_id' using errcode = '22023';
  end if;
  v_org_id := coalesce((v_arrival ->> 'organization_id')::uuid, public.organization_for_webhook_token(v_arrival ->> 'token'));
  select jsonb_build_object('slug', o.slug, 'domain', o.domain) into v_org from public.organizations o where o.id = v_org_id;
  if v_org is null then
    return jsonb_build_object('found', false);
  end if;

  -- The same delivery again (a retry after a timeout, a 503 or a dropped connection): its first outcome,
  -- nothing written. A concurrent first try holds the key's row until it commits (then this is a replay)
  -- or rolls back (then this one stores the delivery).
  if v_key is not null and v_refused is null then
    delete from private.webhook_delivery_keys k where k.organization_id = v_org_id and k.received_at < now() - interval '8 days';
    insert into private.webhook_delivery_keys (organization_id, key) values (v_org_id, v_key) on conflict do nothing;
    if not found then
      select k.post into v_first from private.webhook_delivery_keys k where k.organization_id = v_org_id and k.key = v_key;
      return jsonb_build_object('found', true, 'organization', v_org, 'post', v_first, 'replayed', true);
    end if;
  end if;

  if v_refused is not null then
    insert into public.webhook_deliveries (organization_id, status_code, slug, error, webhook_name)
    values (v_org_id, (v_refused ->> 'status')::integer, v_refused ->> 'slug', left(v_refused ->> 'error', 2000), v_webhook_name);
    return jsonb_build_object('found', true, 'organization', v_org);
  end if;

  begin
    v_post := private.store_arrived_post(v_org_id, v_arrival);
  exception when others then
    v_delivery_id := gen_random_uuid();
    v_reference := left(v_delivery_id::text, 8);
    insert into public.webhook_deliveries (id, organization_id, status_code, slug, error, webhook_name)
    values (v_delivery_id, v_org_id, 500, v_arrival #>> '{post,slug}',
            left('Could not store the post (reference ' || v_reference || '): ' || sqlerrm, 2000), v_webhook_name);
    -- Nothing was stored: a retry must store it, not replay the failure.
    delete from private.webhook_delivery_keys k where k.organization_id = v_org_id and k.key = v_key;
    return jsonb_build_object('found', true, 'organization', v_org, 'error', sqlerrm, 'code', sqlstate, 'reference', v_reference);
  end;

  -- The post's trigger recorded the rebuild request; send at once only what is already due.
  select coalesce(jsonb_agg(to_jsonb(b)), '[]'::jsonb) into v_batches
  from public.claim_due_site_rebuilds(coalesce((v_arrival ->> 'quiet_window_ms')::integer, 60000), v_org_id,
                                      coalesce((v_arrival ->> 'at_once')::boolean, true)) b;
  if v_key is not null then
    update private.webhook_delivery_keys k set post = v_post where k.organization_id = v_org_id and k.key = v_key;
  end if;
  return jsonb_build_object('found', true, 'organization', v_org, 'post', v_post, 'rebuild', jsonb_build_object('batches', v_batches));
end;
$$;
revoke execute on function public.receive_arrival(jsonb) from public, anon, authenticated;
grant execute on function public.receive_arrival(jsonb) to service_role;
