-- A publishing queue per organization: posts go out one slot at a time, at the pace the admin set.
--
-- A Bulk Writer run hands over tens to hundreds of articles in minutes; publishing them all at once is what
-- agencies avoid, and saving them as drafts left an editor to schedule each by hand. Now:
-- 1. publishing_queues: each organization's slots (how many posts a day, on which weekdays, between which
--    hours, an optional random spread of minutes) in its time zone. Every organization has one row (made by
--    a trigger, defaults 1 a day, Monday to Friday, 9:00 to 17:00, America/New_York); admins change it only
--    through set_publishing_queue (audited), members read it.
-- 2. A queued post is a scheduled post with `queued`: its published_at is its slot, so everything that
--    publishes scheduled posts (publish_due_posts, every minute, locally and on Netlify) publishes the queue.
--    Setting `queued` (the editor's "Add to queue", a delivery in queue mode) makes the post scheduled at the
--    next free slot: the first slot after now and after every other queued post. Orgs' enqueues take turns
--    (an advisory lock), so concurrent deliveries never share a slot.
-- 3. The queue stays packed: a queued post that leaves before its slot (published now, back to draft,
--    rescheduled by hand, deleted) re-flows the later ones into the earlier slots; move_queued_post reorders;
--    a change of the settings re-flows everything. A re-flow writes only published_at, as one 'bulk' change
--    (no per-post audit entries; the action that caused it logs one).
-- Slot times are computed, never stored apart from the posts: private.queue_slots gives the slots after a
-- time, the spread of each slot derived from a hash of (organization, day, slot), so a re-flow lands on the
-- same times and nothing moves unless it has to.

-- 1. THE SLOTS

create table public.publishing_queues (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  /** IANA time zone the slots, and the back office's times, are in. */
  time_zone text not null default 'America/New_York' check (length(time_zone) between 1 and 64),
  posts_per_day integer not null default 1 check (posts_per_day between 1 and 24),
  /** ISO weekdays (1 Monday ... 7 Sunday) with slots. */
  weekdays integer[] not null default '{1,2,3,4,5}'
    check (cardinality(weekdays) between 1 and 7 and weekdays <@ '{1,2,3,4,5,6,7}'::integer[]),
  window_start time not null default '09:00',
  window_end time not null default '17:00',
  /** Each slot moves by 0 to this many minutes, so posts do not land on the hour. */
  spread_minutes integer not null default 0 check (spread_minutes between 0 and 120),
  updated_at timestamptz not null default now(),
  constraint publishing_queues_window_check check (window_start < window_end),
  -- The day's slots divide the window evenly; a spread smaller than the gap keeps them in order.
  constraint publishing_queues_spread_check check (spread_minutes * posts_per_day * 60 < extract(epoch from window_end - window_start))
);
alter table public.publishing_queues enable row level security;
revoke all on table public.publishing_queues from anon, authenticated;
grant select on table public.publishing_queues to authenticated;
grant all on table public.publishing_queues to service_role;
create policy "Members can read their organization's publishing queue" on public.publishing_queues
  for select to authenticated using (private.is_org_member(organization_id));

create function private.create_publishing_queue() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.publishing_queues (organization_id) values (new.id) on conflict do nothing;
  return null;
end;
$$;
revoke execute on function private.create_publishing_queue() from public, anon, authenticated;
create trigger organizations_create_publishing_queue after insert on public.organizations
  for each row execute function private.create_publishing_queue();
insert into public.publishing_queues (organization_id) select o.id from public.organizations o on conflict do nothing;

/**
 * The first p_count slots of the organization's queue strictly after p_after, in order. Slot i (from 0) of a
 * day with slots is window_start + i * (window / posts_per_day) in the queue's time zone, moved by a spread
 * of 0 to spread_minutes derived from (organization, day, i), so the same slot always has the same time.
 */
create function private.queue_slots(p_organization_id uuid, p_after timestamptz, p_count integer)
returns setof timestamptz
language sql stable security definer set search_path = ''
as $$
  with q as (
    select qq.*, (p_after at time zone qq.time_zone)::date as first_day,
           (qq.window_end - qq.window_start) / qq.posts_per_day as gap
    from public.publishing_queues qq where qq.organization_id = p_organization_id
  ), slots as (
    select ((d.day::date + q.window_start + i * q.gap)
            + make_interval(mins => (((hashtextextended(p_organization_id::text || d.day::date || '/' || i, 0) % (q.spread_minutes + 1))
                                      + (q.spread_minutes + 1)) % (q.spread_minutes + 1))::integer)
           ) at time zone q.time_zone as at
    from q
    cross join lateral generate_series(
      q.first_day::timestamp,
      (q.first_day + 8 + ceil(greatest(p_count, 1)::numeric / q.posts_per_day * 7 / cardinality(q.weekdays))::integer)::timestamp,
      interval '1 day') as d(day)
    cross join lateral generate_series(0, q.posts_per_day - 1) as i
    where extract(isodow from d.day)::integer = any (q.weekdays)
  )
  select s.at from slots s where s.at > p_after order by s.at limit greatest(p_count, 0)
$$;
revoke execute on function private.queue_slots(uuid, timestamptz, integer) from public, anon, authenticated;
grant execute on function private.queue_slots(uuid, timestamptz, integer) to authenticated, service_role;

/** Serializes the changes of one organization's queue (enqueue, re-flow, settings) in its transaction. */
create function private.lock_publishing_queue(p_organization_id uuid) returns void
language sql volatile set search_path = ''
as $$ select pg_advisory_xact_lock(hashtextextended('publishing_queue:' || p_organization_id::text, 0)) $$;
revoke execute on function private.lock_publishing_queue(uuid) from public, anon, authenticated;
grant execute on function private.lock_publishing_queue(uuid) to authenticated, service_role;

-- 2. QUEUED POSTS

alter table public.blog_posts
  add column queued boolean not null default false,
  add constraint blog_posts_queued_is_scheduled check (not queued or status = 'scheduled');
comment on column public.blog_posts.queued is
  'In the organization''s publishing queue: a scheduled post whose published_at is its slot. Set it to queue a post; the database picks the slot.';
create index blog_posts_queue_idx on public.blog_posts (organization_id, published_at) where queued;

/**
 * Places and releases queued posts, before the row is written: a post that joins the queue (queued set)
 * becomes scheduled at the next free slot; a queued post published, set back to draft or given a time by
 * hand leaves the queue. A re-flow (app.queue_reflow) sets slot times itself.
 */
create function private.place_queued_post() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if coalesce(current_setting('app.queue_reflow', true), '') = 'on' then
    return new;
  end if;
  if new.queued and (tg_op = 'INSERT' or not old.queued) then
    perform private.lock_publishing_queue(new.organization_id);
    new.status := 'scheduled';
    new.published_at := (
      select s from private.queue_slots(new.organization_id, greatest(now(), (
        select max(p.published_at) from public.blog_posts p
        where p.organization_id = new.organization_id and p.queued and p.id <> new.id
      )), 1) s
    );
    if new.published_at is null then
      raise exception 'The publishing queue of this organization has no slot left' using errcode = 'P0001';
    end if;
  elsif tg_op = 'UPDATE' and old.queued and new.queued
        and (new.status <> 'scheduled' or new.published_at is distinct from old.published_at) then
    new.queued := false;
  end if;
  if new.status <> 'scheduled' then
    new.queued := false;
  end if;
  return new;
end;
$$;
revoke execute on function private.place_queued_post() from public, anon, authenticated;
create trigger blog_posts_place_queued before insert or update of queued, status, published_at on public.blog_posts
  for each row execute function private.place_queued_post();

/**
 * Re-flows the organization's queue: its queued posts whose slot is still ahead, in p_order (post ids; the
 * others after them by their current slot), take the first slots after now. One 'bulk' UPDATE of
 * published_at: no per-post audit entries, revisions or rebuild requests (queued posts are not public).
 * Posts whose slot has passed are left for the scheduler, which publishes them within the minute.
 */
create function private.reflow_queue(p_organization_id uuid, p_order uuid[] default null) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_change text := private.post_change();
begin
  perform private.lock_publishing_queue(p_organization_id);
  perform set_config('app.queue_reflow', 'on', true);
  perform set_config('app.post_change', 'bulk', true);
  with queued as (
    select p.id, row_number() over (order by array_position(p_order, p.id) nulls last, p.published_at, p.id) as n
    from public.blog_posts p
    where p.organization_id = p_organization_id and p.queued and p.published_at > now()
  ), slots as (
    select s.at, row_number() over (order by s.at) as n
    from private.queue_slots(p_organization_id, now(), (select count(*) from queued)::integer) as s(at)
  )
  update public.blog_posts p set published_at = slots.at
  from queued join slots using (n)
  where p.id = queued.id and p.published_at is distinct from slots.at;
  perform set_config('app.post_change', v_change, true);
  perform set_config('app.queue_reflow', '', true);
end;
$$;
revoke execute on function private.reflow_queue(uuid, uuid[]) from public, anon, authenticated;

/** After a statement: each organization whose queued post left before its slot is re-flowed. */
create function private.reflow_left_queues() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_org uuid;
begin
  if coalesce(current_setting('app.queue_reflow', true), '') = 'on' then
    return null;
  end if;
  -- new_rows exists only for an UPDATE (a DELETE trigger has old_rows alone).
  if tg_op = 'DELETE' then
    for v_org in
      select distinct o.organization_id from old_rows o
      where o.queued and o.published_at > now()
        and exists (select 1 from public.organizations org where org.id = o.organization_id)
    loop
      perform private.reflow_queue(v_org);
    end loop;
  else
    for v_org in
      select distinct o.organization_id from old_rows o join new_rows n on n.id = o.id
      where o.queued and o.published_at > now() and not n.queued
    loop
      perform private.reflow_queue(v_org);
    end loop;
  end if;
  return null;
end;
$$;
revoke execute on function private.reflow_left_queues() from public, anon, authenticated;
create trigger blog_posts_reflow_queue_update after update on public.blog_posts
  referencing old table as old_rows new table as new_rows for each statement execute function private.reflow_left_queues();
create trigger blog_posts_reflow_queue_delete after delete on public.blog_posts
  referencing old table as old_rows for each statement execute function private.reflow_left_queues();

-- 3. WHAT EDITORS AND ADMINS DO WITH THE QUEUE

/**
 * Moves a queued post to a place in its queue (1 = next out; beyond the end = last) and re-flows it.
 * Editors and admins of the post's organization (and the service role); logged `queue_reordered`. Answers the post's new slot.
 */
create function private.move_queued_post(p_post_id uuid, p_position integer) returns timestamptz
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_post public.blog_posts;
  v_order uuid[];
  v_from integer;
  v_to integer;
begin
  select * into v_post from public.blog_posts p where p.id = p_post_id;
  if v_post.id is null or not (private.is_org_editor(v_post.organization_id) or private.is_service_caller()) then
    raise exception 'This post does not exist or you may not change it.' using errcode = '42501';
  end if;
  perform private.lock_publishing_queue(v_post.organization_id);
  select array_agg(p.id order by p.published_at, p.id) into v_order
  from public.blog_posts p where p.organization_id = v_post.organization_id and p.queued and p.published_at > now();
  v_from := array_position(v_order, p_post_id);
  if v_from is null then
    raise exception 'This post is not waiting in the publishing queue.' using errcode = '22023';
  end if;
  if p_position is null or p_position < 1 then
    raise exception 'The position in the queue starts at 1.' using errcode = '22023';
  end if;
  v_to := least(p_position, cardinality(v_order));
  v_order := array_remove(v_order, p_post_id);
  v_order := v_order[1:v_to - 1] || p_post_id || v_order[v_to:];
  perform private.reflow_queue(v_post.organization_id, v_order);
  if v_from <> v_to then
    insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
    values (private.current_active_user_id(), v_post.organization_id, 'queue_reordered', 'blog_post', p_post_id::text,
            jsonb_build_object('title', v_post.title, 'slug', v_post.slug, 'from', v_from, 'to', v_to));
  end if;
  return (select p.published_at from public.blog_posts p where p.id = p_post_id);
end;
$$;
revoke execute on function private.move_queued_post(uuid, integer) from public, anon, authenticated;
grant execute on function private.move_queued_post(uuid, integer) to authenticated, service_role;

/** Moves a queued post to a position of its queue (1 = next); editors and admins, audited. */
create function public.move_queued_post(p_post_id uuid, p_position integer) returns timestamptz
language sql volatile security invoker set search_path = ''
as $$ select private.move_queued_post(p_post_id, p_position) $$;
revoke execute on function public.move_queued_post(uuid, integer) from public, anon;
grant execute on function public.move_queued_post(uuid, integer) to authenticated, service_role;

/**
 * Sets the organization's queue (admins of it, and the service role): time zone (an IANA name Postgres knows), posts a day,
 * weekdays, window and spread; logged `publishing_queue_changed` with the settings before and after; the
 * queue re-flows onto the new slots in its order. Answers the settings in force.
 */
create function private.set_publishing_queue(
  p_organization_id uuid,
  p_time_zone text,
  p_posts_per_day integer,
  p_weekdays integer[],
  p_window_start time,
  p_window_end time,
  p_spread_minutes integer
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_before jsonb;
  v_after jsonb;
begin
  if not (private.is_org_admin(p_organization_id) or private.is_service_caller()) then
    raise exception 'Only an admin of this organization can set its publishing queue.' using errcode = '42501';
  end if;
  if not exists (select 1 from pg_catalog.pg_timezone_names z where z.name = p_time_zone) then
    raise exception 'Unknown time zone: %', coalesce(p_time_zone, 'none') using errcode = '22023';
  end if;
  perform private.lock_publishing_queue(p_organization_id);
  select to_jsonb(q) - 'organization_id' - 'updated_at' into v_before
  from public.publishing_queues q where q.organization_id = p_organization_id;
  update public.publishing_queues q set
    time_zone = p_time_zone,
    posts_per_day = p_posts_per_day,
    weekdays = (select array_agg(distinct d order by d) from unnest(p_weekdays) d),
    window_start = p_window_start,
    window_end = p_window_end,
    spread_minutes = p_spread_minutes,
    updated_at = now()
  where q.organization_id = p_organization_id
  returning to_jsonb(q) - 'organization_id' - 'updated_at' into v_after;
  if v_after is distinct from v_before then
    perform private.reflow_queue(p_organization_id);
    insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
    values (private.current_active_user_id(), p_organization_id, 'publishing_queue_changed', 'organization',
            p_organization_id::text, jsonb_build_object('from', v_before, 'to', v_after));
  end if;
  return v_after;
end;
$$;
revoke execute on function private.set_publishing_queue(uuid, text, integer, integer[], time, time, integer) from public, anon, authenticated;
grant execute on function private.set_publishing_queue(uuid, text, integer, integer[], time, time, integer) to authenticated, service_role;

/** Sets the organization's publishing queue; admins of it only, audited, re-flows the queue. */
create function public.set_publishing_queue(
  p_organization_id uuid,
  p_time_zone text,
  p_posts_per_day integer,
  p_weekdays integer[],
  p_window_start time,
  p_window_end time,
  p_spread_minutes integer
) returns jsonb
language sql volatile security invoker set search_path = ''
as $$ select private.set_publishing_queue(p_organization_id, p_time_zone, p_posts_per_day, p_weekdays, p_window_start, p_window_end, p_spread_minutes) $$;
revoke execute on function public.set_publishing_queue(uuid, text, integer, integer[], time, time, integer) from public, anon;
grant execute on function public.set_publishing_queue(uuid, text, integer, integer[], time, time, integer) to authenticated, service_role;

-- 4. DELIVERIES MAY GO TO THE QUEUE: publish_mode 'queue'.

create or replace function private.set_webhook_publish_mode(p_organization_id uuid, p_mode text) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_from text;
begin
  if not private.is_org_admin(p_organization_id) then
    raise exception 'set_webhook_publish_mode: only an admin of organization % can choose its publish mode', p_organization_id
      using errcode = '42501';
  end if;
  if p_mode is null or p_mode not in ('publish', 'draft', 'queue') then
    raise exception 'set_webhook_publish_mode: the mode is publish, draft or queue, not %', coalesce(p_mode, 'null')
      using errcode = '22023';
  end if;
  select coalesce(o.settings #>> '{webhook,publish_mode}', 'publish') into v_from
  from public.organizations o where o.id = p_organization_id for update;
  if v_from = p_mode then
    return p_mode;
  end if;

  perform set_config('app.webhook_settings_change', 'on', true);
  update public.organizations o
  set settings = jsonb_set(
    coalesce(o.settings, '{}'::jsonb), '{webhook}',
    coalesce(o.settings -> 'webhook', '{}'::jsonb) || jsonb_build_object('publish_mode', p_mode))
  where o.id = p_organization_id;
  perform set_config('app.webhook_settings_change', '', true);

  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  values (private.current_active_user_id(), p_organization_id, 'webhook_publish_mode_changed', 'organization',
          p_organization_id::text, jsonb_build_object('from', v_from, 'to', p_mode));
  return p_mode;
end;
$$;

/**
 * The organization settings document (OrganizationSettingsSchema in src/schemas/organization.ts): all keys
 * optional, no unknown keys, strings bounded, URLs http(s), a phone with 7 to 15 digits, a webhook publish
 * mode of publish, draft or queue. Everything in it is public.
 */
create or replace function public.is_valid_organization_settings(p_settings jsonb) returns boolean
language plpgsql immutable parallel safe set search_path = ''
as $$
declare
  v_key text;
  v_value jsonb;
begin
  if jsonb_typeof(p_settings) is distinct from 'object' then
    return false;
  end if;
  for v_key, v_value in select key, value from jsonb_each(p_settings) loop
    case v_key
      when 'blog_title' then
        if jsonb_typeof(v_value) <> 'string' or length(v_value #>> '{}') not between 1 and 120 then return false; end if;
      when 'blog_description' then
        if jsonb_typeof(v_value) <> 'string' or length(v_value #>> '{}') not between 1 and 500 then return false; end if;
      when 'contact_email' then
        if jsonb_typeof(v_value) <> 'string' or not public.is_valid_email(v_value #>> '{}') then return false; end if;
      when 'contact_phone' then
        if jsonb_typeof(v_value) <> 'string'
          or (v_value #>> '{}') !~ '^[0-9+().\s-]{7,40}$'
          or length(regexp_replace(v_value #>> '{}', '[^0-9]', '', 'g')) not between 7 and 15
        then return false; end if;
      when 'booking_embed_url', 'contact_form_embed_url' then
        if jsonb_typeof(v_value) <> 'string' or not public.is_valid_http_url(v_value #>> '{}') then return false; end if;
      when 'social_links' then
        if jsonb_typeof(v_value) <> 'object' then return false; end if;
        if exists (
          select 1 from jsonb_each(v_value) as link
          where link.key not in ('facebook', 'twitter', 'instagram', 'linkedin', 'youtube')
             or jsonb_typeof(link.value) <> 'string'
             or not public.is_valid_http_url(link.value #>> '{}')
        ) then return false; end if;
      when 'webhook' then
        if jsonb_typeof(v_value) <> 'object' then return false; end if;
        if exists (select 1 from jsonb_object_keys(v_value) as k where k <> 'publish_mode') then return false; end if;
        if v_value ? 'publish_mode' and (v_value ->> 'publish_mode') not in ('publish', 'draft', 'queue') then return false; end if;
      else
        return false;
    end case;
  end loop;
  return true;
end;
$$;
