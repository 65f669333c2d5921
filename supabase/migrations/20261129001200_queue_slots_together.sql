-- QUEUE SLOTS THAT GO OUT TOGETHER: several queued posts, one deploy.
--
-- Every slot of the publishing queue published one post, and so cost one production deploy (15 credits on
-- Netlify's plans). publishing_queues.posts_per_slot (1 to 10) groups the day's posts: the window is divided
-- between ceil(posts_per_day / posts_per_slot) slots, each taking up to posts_per_slot posts at the same time, so
-- the scheduler publishes them in the same minute and they go into one build. private.queue_slots answers each
-- slot as many times as it takes posts; a slot at exactly `p_after` answers the room it still has, so "the slot
-- after the last queued post" is that post's own slot while it has room. Everything that places and re-flows
-- queued posts goes through it, unchanged.

alter table public.publishing_queues add column posts_per_slot integer not null default 1
  check (posts_per_slot between 1 and 10);
alter table public.publishing_queues add constraint publishing_queues_slot_within_day check (posts_per_slot <= posts_per_day);
comment on column public.publishing_queues.posts_per_slot is
  'How many queued posts a slot publishes at once (one deploy): the day''s posts_per_day go out in ceil(posts_per_day / posts_per_slot) slots.';

/**
 * The queue's slots after p_after, each as many times as it takes posts (posts_per_slot; the day's last slot
 * what is left of posts_per_day), at most p_count of them, in order. A slot at exactly p_after is answered as
 * many times as it still has room for (its queued posts subtracted).
 */
create or replace function private.queue_slots(p_organization_id uuid, p_after timestamptz, p_count integer)
returns setof timestamptz
language sql stable security definer set search_path = ''
as $$
  with q as (
    select qq.*, (p_after at time zone qq.time_zone)::date as first_day,
           ceil(qq.posts_per_day::numeric / qq.posts_per_slot)::integer as slots_per_day,
           (qq.window_end - qq.window_start) / ceil(qq.posts_per_day::numeric / qq.posts_per_slot)::integer as gap
    from public.publishing_queues qq where qq.organization_id = p_organization_id
  ), slots as (
    select ((d.day::date + q.window_start + i * q.gap)
            + make_interval(mins => (((hashtextextended(p_organization_id::text || d.day::date || '/' || i, 0) % (q.spread_minutes + 1))
                                      + (q.spread_minutes + 1)) % (q.spread_minutes + 1))::integer)
           ) at time zone q.time_zone as at,
           j
    from q
    cross join lateral generate_series(
      q.first_day::timestamp,
      (q.first_day + 8 + ceil(greatest(p_count, 1)::numeric / q.posts_per_day * 7 / cardinality(q.weekdays))::integer)::timestamp,
      interval '1 day') as d(day)
    cross join lateral generate_series(0, q.slots_per_day - 1) as i
    cross join lateral generate_series(0, q.posts_per_slot - 1) as j
    where extract(isodow from d.day)::integer = any (q.weekdays)
      and i * q.posts_per_slot + j < q.posts_per_day
  ), taken as (
    select count(*) as n from public.blog_posts p
    where p.organization_id = p_organization_id and p.queued and p.published_at = p_after
  )
  select s.at from slots s, taken
  where s.at > p_after or (s.at = p_after and s.j >= taken.n)
  order by s.at, s.j
  limit greatest(p_count, 0)
$$;

-- The settings: posts_per_slot joins set_publishing_queue (null keeps it).
drop function public.set_publishing_queue(uuid, text, integer, integer[], time, time, integer);
drop function private.set_publishing_queue(uuid, text, integer, integer[], time, time, integer);

/**
 * Sets the organization's publishing queue (an admin of it, or the service role), logs the change
 * (`publishing_queue_changed`, with before and after) and re-flows the queued posts onto the new slots.
 * p_posts_per_slot null keeps the current grouping.
 */
create function private.set_publishing_queue(
  p_organization_id uuid,
  p_time_zone text,
  p_posts_per_day integer,
  p_weekdays integer[],
  p_window_start time,
  p_window_end time,
  p_spread_minutes integer,
  p_posts_per_slot integer default null
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
    posts_per_slot = coalesce(p_posts_per_slot, q.posts_per_slot),
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
revoke execute on function private.set_publishing_queue(uuid, text, integer, integer[], time, time, integer, integer) from public, anon, authenticated;
grant execute on function private.set_publishing_queue(uuid, text, integer, integer[], time, time, integer, integer) to authenticated, service_role;

/** The RPC the back office calls (see private.set_publishing_queue). */
create function public.set_publishing_queue(
  p_organization_id uuid,
  p_time_zone text,
  p_posts_per_day integer,
  p_weekdays integer[],
  p_window_start time,
  p_window_end time,
  p_spread_minutes integer,
  p_posts_per_slot integer default null
) returns jsonb
language sql volatile set search_path = ''
as $$ select private.set_publishing_queue(p_organization_id, p_time_zone, p_posts_per_day, p_weekdays, p_window_start, p_window_end, p_spread_minutes, p_posts_per_slot) $$;
revoke execute on function public.set_publishing_queue(uuid, text, integer, integer[], time, time, integer, integer) from public, anon;
grant execute on function public.set_publishing_queue(uuid, text, integer, integer[], time, time, integer, integer) to authenticated, service_role;
