-- BACKDATED ARRIVALS. A publish sent with a past time (`post.published_at`, an imported article's own date, as
-- WordPress clients send `date`) is published at that time, where the organization publishes arrivals at once,
-- and a post already published may be given another past time; before, the time was dropped and the post dated
-- now. A publish at a time ahead is a future post (the API sends those as `future`). Where arrivals wait for
-- review or the queue, the post waits as before and goes out when an editor or the queue publishes it.
-- private.store_arrived_post is otherwise as 20261129001800_one_argument_arrival.sql made it.

create or replace function private.store_arrived_post(p_organization_id uuid, p_arrival jsonb) returns jsonb
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
  if v_asked = 'publish' and v_asked_at > now() then
    raise exception 'store_arrived_post: a publish at a time ahead is a future post' using errcode = '22023';
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
  elsif v_asked = 'publish' and v_asked_at is not null and v_existing.status = 'published' then
    -- A published post given another past time (an imported article's own date).
    v_published_at := v_asked_at;
  elsif (v_asked in ('publish', 'future') or v_existing.id is null) and v_existing.status is distinct from 'published' then
    if v_mode = 'publish' then
      v_status := 'published'; v_published_at := coalesce(case when v_asked = 'publish' then v_asked_at end, now()); v_queued := false;
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
