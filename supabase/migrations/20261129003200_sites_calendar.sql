-- A CALENDAR ACROSS SITES. Every scheduled and queued post of the sites a person belongs to, for the calendar
-- beside the sites board (/admin/sites?view=calendar), and moving one to another day within its site's rules.
--
-- public.sites_calendar(p_from, p_to) (private.sites_calendar with the definer's rights): the caller's sites (active memberships: name, role, time zone) and their
-- posts going out in [p_from, p_to) (status scheduled, not in the trash; queued or at a time of their own):
-- id, site, title, time, whether queued. Titles and times only: no content. At most 45 days at once (a month's
-- grid is 42); anything else is refused with the reason.
--
-- public.move_post_to_day(p_post_id, p_day): an editor or admin of the post's site moves it to another day of
-- the site's calendar (p_day in the site's time zone). A post at a time of its own keeps its time of day on the
-- new day (never in the past). A queued post goes to the queue's first slot on or after that day (the place in
-- the queue whose slot falls there, as move_queued_post places it; last when the day is past the queue's end),
-- and the queue re-flows as it does when the queue page reorders it; its new slot is answered, which may be a
-- later day when the queue has no slot that day. Viewers, other organizations' members and anon are refused;
-- every move is logged as the queue page's and the editor's are (queue_reordered; the post trail's
-- reschedule).

-- Posts waiting to go out, by site and time: the calendar's range, the board's next 7 days (a count that read
-- every post of each site: 90 ms for 500 sites of 200 posts, 7 ms with it) and the scheduler's due posts.
create index blog_posts_scheduled_idx on public.blog_posts (organization_id, published_at) where status = 'scheduled';

create function private.sites_calendar(p_from timestamptz, p_to timestamptz) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_user uuid := private.current_active_user_id();
begin
  if p_from is null or p_to is null or p_to <= p_from then
    raise exception 'The calendar needs a start before its end.' using errcode = '22023';
  end if;
  if p_to - p_from > interval '45 days' then
    raise exception 'The calendar shows at most 45 days at once.' using errcode = '22023';
  end if;
  return jsonb_build_object(
    'sites', coalesce((
      select jsonb_agg(jsonb_build_object('organization_id', o.id, 'name', o.name, 'role', m.role,
               'time_zone', coalesce(q.time_zone, 'America/New_York')) order by o.name, o.id)
      from public.organization_memberships m
      join public.organizations o on o.id = m.organization_id
      left join public.publishing_queues q on q.organization_id = o.id
      where m.user_id = v_user and m.is_active
    ), '[]'::jsonb),
    'posts', coalesce((
      select jsonb_agg(jsonb_build_object('id', p.id, 'organization_id', p.organization_id, 'title', p.title,
               'published_at', p.published_at, 'queued', p.queued) order by p.published_at, p.id)
      from public.blog_posts p
      join public.organization_memberships m on m.organization_id = p.organization_id and m.user_id = v_user and m.is_active
      where p.status = 'scheduled' and p.trashed_at is null and p.published_at >= p_from and p.published_at < p_to
    ), '[]'::jsonb)
  );
end;
$$;
revoke execute on function private.sites_calendar(timestamptz, timestamptz) from public, anon;
grant execute on function private.sites_calendar(timestamptz, timestamptz) to authenticated;

create function public.sites_calendar(p_from timestamptz, p_to timestamptz) returns jsonb
language sql stable security invoker set search_path = ''
as $$ select private.sites_calendar(p_from, p_to) $$;
revoke execute on function public.sites_calendar(timestamptz, timestamptz) from public, anon;
grant execute on function public.sites_calendar(timestamptz, timestamptz) to authenticated;

create function private.move_post_to_day(p_post_id uuid, p_day date) returns timestamptz
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_post public.blog_posts;
  v_zone text;
  v_at timestamptz;
  v_position integer;
begin
  select * into v_post from public.blog_posts p where p.id = p_post_id;
  if v_post.id is null or not private.is_org_editor(v_post.organization_id) then
    raise exception 'This post does not exist or you may not change it.' using errcode = '42501';
  end if;
  if p_day is null then
    raise exception 'Choose the day to move the post to.' using errcode = '22023';
  end if;
  if v_post.status <> 'scheduled' or v_post.trashed_at is not null or v_post.published_at <= now() then
    raise exception 'Only a post still waiting to go out can be moved.' using errcode = '22023';
  end if;
  v_zone := coalesce((select q.time_zone from public.publishing_queues q where q.organization_id = v_post.organization_id), 'America/New_York');
  if v_post.queued then
    perform private.lock_publishing_queue(v_post.organization_id);
    -- The queue's slots are its queued posts' times, one after another from the next: the post goes to the
    -- place whose slot is the first on or after the day (the post's own slot counts among them: moving it later,
    -- the posts between move up by one and the day's slot becomes its own).
    select count(*) + 1 into v_position
    from public.blog_posts p
    where p.organization_id = v_post.organization_id and p.queued and p.published_at > now()
      and (p.published_at at time zone v_zone)::date < p_day;
    return private.move_queued_post(p_post_id, v_position);
  end if;
  v_at := (p_day + (v_post.published_at at time zone v_zone)::time) at time zone v_zone;
  if v_at <= now() then
    raise exception 'A post cannot be moved into the past.' using errcode = '22023';
  end if;
  update public.blog_posts set published_at = v_at where id = p_post_id;
  return v_at;
end;
$$;
revoke execute on function private.move_post_to_day(uuid, date) from public, anon;
grant execute on function private.move_post_to_day(uuid, date) to authenticated;

-- The API's entry points run with the caller's rights and call the private ones (as every exposed function does).
create function public.move_post_to_day(p_post_id uuid, p_day date) returns timestamptz
language sql volatile security invoker set search_path = ''
as $$ select private.move_post_to_day(p_post_id, p_day) $$;
revoke execute on function public.move_post_to_day(uuid, date) from public, anon;
grant execute on function public.move_post_to_day(uuid, date) to authenticated;
