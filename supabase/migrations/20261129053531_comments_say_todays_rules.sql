-- COMMENTS THAT SAY TODAY'S RULES, AND A WRITING TOOL'S AUTHOR KEPT TO THE RULE IT WAS CHOSEN BY
--
-- supabase/schema.sql (generated, npm run db:schema) put every comment of the database on one page, and some
-- described rules later migrations changed. This one makes them true, and two functions keep what their comments
-- promised:
-- 1. private.store_arrived_post credited a webhook delivery to the configured author as long as any membership
--    row remained: a member deactivated or made a viewer since still became the post's author. Now the author must
--    still be an active editor or admin with an active account, as set_webhook_author requires when choosing one;
--    otherwise the post has no author.
-- 2. public.add_site said two runs queue up, but only did for an existing organization (its row locked): two
--    first runs for one slug raced to the unique slug. A transaction lock on the slug makes them queue.
-- 3. public.guard_membership_change's comment names every case in which a removal is not a demotion.
-- 4. Comments on the private schema, trusted sessions, tags, the webhook's note and author, rebuild sends and the
--    sites board say the rules themselves instead of naming a migration or an older rule.

CREATE OR REPLACE FUNCTION private.store_arrived_post(p_organization_id uuid, p_arrival jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
    -- The configured author while they are still an active editor or admin of the organization, the rule
    -- set_webhook_author keeps when one is chosen; else the post has no author.
    select w.author_id into v_author
    from public.webhook_integrations w
    join public.organization_memberships m on m.user_id = w.author_id and m.organization_id = w.organization_id
    join public.profiles a on a.id = w.author_id
    where w.organization_id = p_organization_id and m.role in ('admin', 'editor') and m.is_active and a.is_active;
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
    -- A draft keeps a date it is sent with (an imported article's own), for when it is published.
    v_status := 'draft'; v_queued := false; v_published_at := coalesce(v_asked_at, v_published_at);
  elsif v_asked = 'future' and (v_mode = 'publish' or v_existing.status in ('scheduled', 'published')) then
    v_status := 'scheduled'; v_published_at := v_asked_at; v_queued := false;
  elsif v_asked = 'publish' and v_asked_at is not null and v_existing.status = 'published' then
    -- A published post given another past time (an imported article's own date).
    v_published_at := v_asked_at;
  elsif (v_asked in ('publish', 'future') or v_existing.id is null) and v_existing.status is distinct from 'published' then
    if v_mode = 'publish' then
      -- The time sent, else a past time the draft keeps (a backdated draft, a post unpublished before), else now.
      v_status := 'published'; v_queued := false;
      v_published_at := coalesce(case when v_asked = 'publish' then v_asked_at end,
                                 case when v_existing.published_at <= now() then v_existing.published_at end, now());
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
$function$;


CREATE OR REPLACE FUNCTION public.add_site(p_name text, p_slug text, p_domain text, p_time_zone text, p_admin_email text, p_build_hook_url text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_org public.organizations;
  v_other public.organizations;
  v_queue public.publishing_queues;
  v_changes text[] := '{}';
  v_admin jsonb;
begin
  if not exists (select 1 from pg_catalog.pg_timezone_names z where z.name = p_time_zone) then
    raise exception 'Unknown time zone: % (use an IANA name such as America/New_York)', coalesce(p_time_zone, 'none') using errcode = '22023';
  end if;

  -- 1. Which organization, and whether its slug and domain are free for it. Two runs for one slug queue up: the
  -- lock is on the slug, so it holds before the organization exists too.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('public.add_site ' || p_slug, 0));
  select o.* into v_org from public.organizations o where o.slug = p_slug for update;
  if found and v_org.name <> btrim(p_name) then
    raise exception 'The slug "%" is taken by another organization, "%"', p_slug, v_org.name using errcode = '23505';
  end if;
  select o.* into v_other from public.organizations o where o.domain = p_domain and o.slug <> p_slug;
  if found then
    raise exception 'The domain % is taken by another organization, "%" (%)', p_domain, v_other.name, v_other.slug using errcode = '23505';
  end if;

  -- 2. The organization and its confirmed domain.
  if v_org.id is null then
    insert into public.organizations (name, slug, domain, domain_confirmed)
    values (btrim(p_name), p_slug, p_domain, true)
    returning * into v_org;
    v_changes := v_changes || 'organization created, with its default category and publishing queue'::text;
  elsif (v_org.domain, v_org.domain_confirmed) is distinct from (p_domain, true) then
    update public.organizations o set domain = p_domain, domain_confirmed = true where o.id = v_org.id;
    v_changes := v_changes || format('domain set to %s (confirmed)', p_domain);
  end if;

  -- 3. The time zone, through the queue's own path.
  select q.* into v_queue from public.publishing_queues q where q.organization_id = v_org.id;
  if v_queue.time_zone is distinct from p_time_zone then
    perform private.set_publishing_queue(v_org.id, p_time_zone, v_queue.posts_per_day, v_queue.weekdays,
      v_queue.window_start, v_queue.window_end, v_queue.spread_minutes);
    v_changes := v_changes || format('time zone set to %s', p_time_zone);
  end if;

  -- 4. The build hook.
  if p_build_hook_url is not null and not exists (
    select 1 from public.site_rebuild_settings s where s.organization_id = v_org.id and s.build_hook_url = p_build_hook_url
  ) then
    insert into public.site_rebuild_settings (organization_id, build_hook_url) values (v_org.id, p_build_hook_url)
    on conflict (organization_id) do update set build_hook_url = excluded.build_hook_url;
    v_changes := v_changes || 'build hook stored'::text;
  end if;

  -- 5. The first admin.
  select case
      when exists (
        select 1 from public.organization_memberships m join public.profiles p on p.id = m.user_id
        where m.organization_id = v_org.id and p.email = lower(p_admin_email) and m.is_active and m.role = 'admin'
      ) then jsonb_build_object('status', 'member')
      else coalesce((
        select jsonb_build_object('status', 'invited', 'expires_at', i.expires_at)
        from public.user_invitations i
        where i.organization_id = v_org.id and i.email = lower(p_admin_email)
          and i.used_at is null and i.revoked_at is null and i.expires_at > now()
      ), jsonb_build_object('status', 'none'))
    end
  into v_admin;

  return jsonb_build_object(
    'organization_id', v_org.id,
    'build_hook_url', (select s.build_hook_url from public.site_rebuild_settings s where s.organization_id = v_org.id),
    'changes', to_jsonb(v_changes),
    'admin', v_admin
  );
end;
$function$;


CREATE OR REPLACE FUNCTION public.guard_membership_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  if tg_op = 'DELETE' then
    -- Not a demotion when the organization or the user is being deleted (a cascade), or the account is
    -- deactivated (it counts as no admin already).
    if exists (select 1 from public.organizations o where o.id = old.organization_id)
       and exists (select 1 from public.profiles p where p.id = old.user_id and p.is_active) then
      perform private.assert_admins_remain(old.user_id, array[old.organization_id]);
    end if;
    return old;
  end if;
  if new.user_id <> old.user_id or new.organization_id <> old.organization_id then
    raise exception 'a membership cannot be moved; delete it and create another' using errcode = '42501';
  end if;
  if old.role = 'admin' and old.is_active and (new.role <> 'admin' or not new.is_active)
     and exists (select 1 from public.profiles p where p.id = old.user_id and p.is_active) then
    perform private.assert_admins_remain(old.user_id, array[old.organization_id]);
  end if;
  return new;
end;
$function$;


comment on schema private is 'Helpers of policies and privileged RPCs, and the tables only they read and write; not exposed by the API.';
comment on table private.trusted_sessions is 'Auth sessions the sign-in function created after its checks (public.finish_sign_in); only these read data.';
comment on table public.blog_tags is 'One row per tag of an organization, in the spelling it was created or last renamed with (rename_tag); posts spell their tags this way (case-insensitive).';
comment on column public.webhook_deliveries.note is 'What the webhook did differently from the payload (e.g. an image it could not store, and why).';
comment on column public.webhook_integrations.author_id is 'Author of the posts the writing tool delivers (an active editor or admin of the organization when chosen; a delivery credits them only while they still are), or null for none.';
comment on table public.site_rebuild_sends is 'Each send of an organization''s waiting changes to its build hook, and what became of it: claimed, the hook called, the build started, succeeded or failed (tried again after a backoff), or skipped; its changes point to it (site_rebuild_requests.batch_id).';
comment on function public.sites_board() is 'The sites board: one row per organization the caller is an active member of, with its state now, last build, posts going out and published, views, IndexNow failures, deploys against its team''s budget and its first problem.';
