-- POST VIEWS: real view counts, without cookies or stored personal data.
--
-- 1. The post page sends one POST /api/post-view { post_id } (netlify/functions/post-view.mts). The function
--    names the site's own organization (never the request) and calls count_post_view with the service role.
-- 2. count_post_view, in one transaction: refuses a post that is not a published post of that organization;
--    rolls the day over (yesterday's salt, visitor hashes and old rate windows are deleted, so yesterday's
--    hashes can never be recomputed); hashes sha256(today's random salt, address, user agent, organization)
--    into a visitor hash and sha256(salt, address, organization) into an address hash; applies the hourly
--    rate limits; records (day, post, visitor hash) once; adds one to the post's day count and to
--    blog_posts.view_count.
-- 3. Members read the day counts of their organizations (post_view_days, RLS); nobody but the database writes
--    them, and blog_posts.view_count is no longer writable by clients.
--
-- The old counter, increment_post_view, let anyone (the anon key, through /rest/v1/rpc) add a view to any
-- organization's post, as often as they liked: it is dropped. Its rows (post_views, one per view, no personal
-- data) become day counts.

drop function public.increment_post_view(uuid);
drop function private.increment_post_view(uuid);

-- DAY COUNTS: one row per post and UTC day that had a view.
create table public.post_view_days (
  post_id uuid not null,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  day date not null,
  views integer not null check (views > 0),
  primary key (post_id, day),
  foreign key (post_id, organization_id) references public.blog_posts (id, organization_id) on delete cascade
);
alter table public.post_view_days enable row level security;
create index post_view_days_organization_day_idx on public.post_view_days (organization_id, day);
create index post_view_days_post_organization_idx on public.post_view_days (post_id, organization_id);

comment on table public.post_view_days is
  'Counted views per post and UTC day (a visitor counts once per post per day); written only by count_post_view().';

revoke all on table public.post_view_days from anon, authenticated;
grant select on table public.post_view_days to authenticated;
grant all on table public.post_view_days to service_role;

create policy "Members can read view counts of their organizations" on public.post_view_days
  for select to authenticated using ((select private.is_org_member(organization_id)));

insert into public.post_view_days (post_id, organization_id, day, views)
select v.post_id, p.organization_id, (v.viewed_at at time zone 'utc')::date, count(*)
from public.post_views v
join public.blog_posts p on p.id = v.post_id
group by 1, 2, 3;

drop table public.post_views;

-- TODAY'S BOOKKEEPING, service-side only (schema private is not exposed; no grants, no policies).

/** The random salt of the current UTC day; older ones are deleted as the day rolls over. */
create table private.post_view_salts (
  day date primary key,
  salt bytea not null
);
alter table private.post_view_salts enable row level security;

/** Who was counted today for which post, as salted hashes only: the day's deduplication. */
create table private.post_view_visitors (
  day date not null,
  post_id uuid not null references public.blog_posts (id) on delete cascade,
  visitor_hash text not null check (visitor_hash ~ '^[0-9a-f]{64}$'),
  primary key (day, post_id, visitor_hash)
);
alter table private.post_view_visitors enable row level security;
create index post_view_visitors_post_id_idx on private.post_view_visitors (post_id);

/** Requests per visitor hash and per address hash in the current hour (fixed windows). */
create table private.post_view_rate_windows (
  key_hash text not null,
  window_start timestamptz not null,
  hits integer not null check (hits > 0),
  primary key (key_hash, window_start)
);
alter table private.post_view_rate_windows enable row level security;
create index post_view_rate_windows_window_start_idx on private.post_view_rate_windows (window_start);

revoke all on table private.post_view_salts, private.post_view_visitors, private.post_view_rate_windows
  from public, anon, authenticated;

/**
 * Counts one view of a published post of p_organization_id by the visitor (address, user agent), at most once
 * per post per UTC day. Answers 'counted', 'duplicate' (already counted today), 'not_found' (no published post
 * of that organization) or 'rate_limited' (over p_visitor_limit requests of this visitor, or p_address_limit
 * of this address, in the current hour). Only 'counted' changes a count. Service role only.
 */
create function private.count_post_view(
  p_organization_id uuid, p_post_id uuid, p_ip text, p_user_agent text, p_visitor_limit integer, p_address_limit integer
) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_today date := (now() at time zone 'utc')::date;
  v_hour timestamptz := date_trunc('hour', now());
  v_salt bytea;
  v_visitor text;
  v_address text;
begin
  if not exists (
    select 1 from public.blog_posts p
    where p.id = p_post_id and p.organization_id = p_organization_id and p.status = 'published' and p.published_at <= now()
  ) then
    return 'not_found';
  end if;

  -- The day rolls over: yesterday's salt goes, and with it any way to link yesterday's hashes to a visitor.
  delete from private.post_view_salts where day < v_today;
  delete from private.post_view_visitors where day < v_today;
  delete from private.post_view_rate_windows where window_start < v_hour;
  insert into private.post_view_salts (day, salt) values (v_today, extensions.gen_random_bytes(32))
  on conflict (day) do nothing;
  select s.salt into strict v_salt from private.post_view_salts s where s.day = v_today;

  v_visitor := encode(extensions.digest(
    v_salt || convert_to(coalesce(p_ip, '') || E'\n' || coalesce(p_user_agent, '') || E'\n' || p_organization_id::text, 'UTF8'),
    'sha256'), 'hex');
  v_address := encode(extensions.digest(
    v_salt || convert_to(coalesce(p_ip, '') || E'\n' || p_organization_id::text, 'UTF8'), 'sha256'), 'hex');

  -- Rate limits: a window over its limit is not touched, so a refused request writes nothing.
  insert into private.post_view_rate_windows as w (key_hash, window_start, hits) values ('address:' || v_address, v_hour, 1)
  on conflict (key_hash, window_start) do update set hits = w.hits + 1 where w.hits < p_address_limit;
  if not found then
    return 'rate_limited';
  end if;
  insert into private.post_view_rate_windows as w (key_hash, window_start, hits) values ('visitor:' || v_visitor, v_hour, 1)
  on conflict (key_hash, window_start) do update set hits = w.hits + 1 where w.hits < p_visitor_limit;
  if not found then
    return 'rate_limited';
  end if;

  insert into private.post_view_visitors (day, post_id, visitor_hash) values (v_today, p_post_id, v_visitor)
  on conflict do nothing;
  if not found then
    return 'duplicate';
  end if;

  insert into public.post_view_days as d (post_id, organization_id, day, views)
  values (p_post_id, p_organization_id, v_today, 1)
  on conflict (post_id, day) do update set views = d.views + 1;
  update public.blog_posts set view_count = view_count + 1 where id = p_post_id;
  return 'counted';
end;
$$;

/** Counts a view for the post-view function (service role only); see private.count_post_view. */
create function public.count_post_view(
  p_organization_id uuid, p_post_id uuid, p_ip text, p_user_agent text, p_visitor_limit integer, p_address_limit integer
) returns text
language sql volatile security invoker set search_path = ''
as $$ select private.count_post_view(p_organization_id, p_post_id, p_ip, p_user_agent, p_visitor_limit, p_address_limit) $$;

revoke execute on function private.count_post_view(uuid, uuid, text, text, integer, integer) from public, anon, authenticated;
revoke execute on function public.count_post_view(uuid, uuid, text, text, integer, integer) from public, anon, authenticated;
grant execute on function private.count_post_view(uuid, uuid, text, text, integer, integer) to service_role;
grant execute on function public.count_post_view(uuid, uuid, text, text, integer, integer) to service_role;

-- READS for the back office, under the caller's rights (RLS decides; a non-member sees zeros).

/** The organization's views per UTC day for the last p_days days up to today, zero days included. */
create function public.post_views_per_day(p_organization_id uuid, p_days integer default 30)
returns table (day date, views bigint)
language sql stable security invoker set search_path = ''
as $$
  select d::date, coalesce(sum(v.views), 0)::bigint
  from generate_series(
    (now() at time zone 'utc')::date - (least(greatest(p_days, 1), 366) - 1),
    (now() at time zone 'utc')::date,
    interval '1 day'
  ) as d
  left join public.post_view_days v on v.organization_id = p_organization_id and v.day = d::date
  group by d
  order by d
$$;

/** The organization's views of all time: the sum of its posts' view counts. */
create function public.count_organization_views(p_organization_id uuid) returns bigint
language sql stable security invoker set search_path = ''
as $$ select coalesce(sum(p.view_count), 0)::bigint from public.blog_posts p where p.organization_id = p_organization_id $$;

revoke execute on function public.post_views_per_day(uuid, integer), public.count_organization_views(uuid) from public, anon;
grant execute on function public.post_views_per_day(uuid, integer), public.count_organization_views(uuid)
  to authenticated, service_role;

-- VIEW COUNTS ARE COUNTED, NOT WRITTEN: a client (anon or a member) cannot set blog_posts.view_count.

create function private.guard_post_view_count() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and new.view_count is distinct from (case when tg_op = 'INSERT' then 0 else old.view_count end) then
    raise exception 'view_count is counted by the server and cannot be written' using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke execute on function private.guard_post_view_count() from public, anon, authenticated;

create trigger blog_posts_guard_view_count before insert or update of view_count on public.blog_posts
  for each row execute function private.guard_post_view_count();
