-- Rebuild requests come from the database, and every build reports how it went.
--
-- * Every change visitors could see records its rebuild request in the same transaction as the change, by a
--   statement-level trigger: a post published, unpublished, edited while published or deleted; a scheduled
--   post's time reached (publish_due_posts); a category with published posts renamed; a category redirect;
--   the organization's public settings saved. The browser no longer asks (a closed tab cannot lose one).
--   One statement gives one request per organization, so a bulk update is one request, not thousands.
--   Seeding (app.post_change = 'bulk') requests nothing.
-- * site_deploys: each build of an organization's site and how it ended (building, succeeded, failed), from
--   Netlify's signed deploy notifications in production or from the local build. Members read their own.
-- * A build in progress holds the queue: claim_due_site_rebuilds leaves an organization's requests pending
--   while one of its builds runs (for at most 30 minutes), so two builds never race and the changes that
--   arrived during a build go into the next one.
-- * site_deploy_status(org): what the admin header shows. The scheduled flush leaves a heartbeat (the time
--   it ran and its quiet window) so the status can say when the next build starts.
-- * receive_webhook_delivery no longer requests a rebuild itself (the post trigger does) and only claims what
--   is due; request_site_rebuild remains for an admin's explicit Retry.

-- WHAT THE SITE SHOWS CHANGED: ONE REQUEST PER ORGANIZATION AND STATEMENT.

create function private.record_rebuild_requests(p_changes jsonb) returns void
language sql volatile security definer set search_path = ''
as $$
  -- p_changes: [{ organization_id, reason }], one per changed row; grouped here.
  insert into public.site_rebuild_requests (organization_id, reason)
  select (c ->> 'organization_id')::uuid,
         left(case when count(*) = 1 then min(c ->> 'reason') else count(*) || ' changes: ' || string_agg(c ->> 'reason', ', ') end, 200)
  from jsonb_array_elements(p_changes) as c
  group by c ->> 'organization_id'
$$;
revoke execute on function private.record_rebuild_requests(jsonb) from public, anon, authenticated;

/** The columns of a post whose change visitors could see: all but the view counter and the timestamps. */
create function private.post_public_fields(p public.blog_posts) returns jsonb
language sql immutable set search_path = ''
as $$ select to_jsonb(p) - 'view_count' - 'updated_at' - 'created_at' $$;

create function private.request_rebuild_for_posts() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_schedule boolean := private.post_change() = 'schedule';
  v_changes jsonb;
begin
  if private.post_change() = 'bulk' then return null; end if;
  if tg_op = 'INSERT' then
    select jsonb_agg(jsonb_build_object('organization_id', n.organization_id, 'reason', 'Post published: ' || n.slug))
    into v_changes from new_rows n where n.status = 'published';
  elsif tg_op = 'DELETE' then
    select jsonb_agg(jsonb_build_object('organization_id', o.organization_id, 'reason', 'Post deleted: ' || o.slug))
    into v_changes from old_rows o where o.status = 'published';
  else
    select jsonb_agg(jsonb_build_object(
      'organization_id', n.organization_id,
      'reason', case
        when o.status <> 'published' and v_schedule then 'Scheduled post published: '
        when o.status <> 'published' then 'Post published: '
        when n.status <> 'published' then 'Post unpublished: '
        else 'Post updated: ' end || n.slug))
    into v_changes
    from old_rows o join new_rows n on n.id = o.id
    where (o.status = 'published' or n.status = 'published')
      and private.post_public_fields(o) is distinct from private.post_public_fields(n);
  end if;
  if v_changes is not null then perform private.record_rebuild_requests(v_changes); end if;
  return null;
end;
$$;
revoke execute on function private.request_rebuild_for_posts() from public, anon, authenticated;

create trigger blog_posts_request_rebuild_insert after insert on public.blog_posts
  referencing new table as new_rows for each statement execute function private.request_rebuild_for_posts();
create trigger blog_posts_request_rebuild_update after update on public.blog_posts
  referencing old table as old_rows new table as new_rows for each statement execute function private.request_rebuild_for_posts();
create trigger blog_posts_request_rebuild_delete after delete on public.blog_posts
  referencing old table as old_rows for each statement execute function private.request_rebuild_for_posts();

/**
 * A category's name, slug and description are on its page and on its posts: a change requests a rebuild when
 * the category has published posts. A new category has none yet; a deleted one's posts move to the default
 * category first (blog_posts_apply_taxonomy), and those post updates request the rebuild.
 */
create function private.request_rebuild_for_categories() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_changes jsonb;
begin
  select jsonb_agg(jsonb_build_object('organization_id', n.organization_id, 'reason', 'Category changed: ' || n.name))
  into v_changes
  from old_rows o join new_rows n on n.id = o.id
  where (to_jsonb(o) - 'updated_at') is distinct from (to_jsonb(n) - 'updated_at')
    and exists (select 1 from public.blog_posts p where p.category_id = n.id and p.status = 'published');
  if v_changes is not null then perform private.record_rebuild_requests(v_changes); end if;
  return null;
end;
$$;
revoke execute on function private.request_rebuild_for_categories() from public, anon, authenticated;
create trigger blog_categories_request_rebuild after update on public.blog_categories
  referencing old table as old_rows new table as new_rows for each statement execute function private.request_rebuild_for_categories();

/** A category redirect is a line of the site's _redirects. */
create function private.request_rebuild_for_category_redirects() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_changes jsonb;
begin
  if private.post_change() = 'bulk' then return null; end if;
  select jsonb_agg(jsonb_build_object('organization_id', n.organization_id, 'reason', 'Category redirect added'))
  into v_changes from new_rows n;
  if v_changes is not null then perform private.record_rebuild_requests(v_changes); end if;
  return null;
end;
$$;
revoke execute on function private.request_rebuild_for_category_redirects() from public, anon, authenticated;
create trigger blog_category_redirects_request_rebuild after insert on public.blog_category_redirects
  referencing new table as new_rows for each statement execute function private.request_rebuild_for_category_redirects();

/** The organization's public face: name, domain, settings (the webhook's own settings are not on the site). */
create function private.organization_public_fields(o public.organizations) returns jsonb
language sql immutable set search_path = ''
as $$ select to_jsonb(o) - 'updated_at' - 'created_at' || jsonb_build_object('settings', o.settings - 'webhook') $$;

create function private.request_rebuild_for_organizations() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_changes jsonb;
begin
  select jsonb_agg(jsonb_build_object('organization_id', n.id, 'reason', 'Site settings saved'))
  into v_changes
  from old_rows o join new_rows n on n.id = o.id
  where private.organization_public_fields(o) is distinct from private.organization_public_fields(n);
  if v_changes is not null then perform private.record_rebuild_requests(v_changes); end if;
  return null;
end;
$$;
revoke execute on function private.request_rebuild_for_organizations() from public, anon, authenticated;
create trigger organizations_request_rebuild after update on public.organizations
  referencing old table as old_rows new table as new_rows for each statement execute function private.request_rebuild_for_organizations();

-- EACH BUILD AND HOW IT ENDED.

create table public.site_deploys (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  source text not null check (source in ('netlify', 'local')),
  -- Netlify's deploy id, or the rebuild batch id of a local build: events about one build update one row.
  external_id text not null check (length(external_id) between 1 and 100),
  state text not null check (state in ('building', 'succeeded', 'failed')),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  error text check (length(error) <= 2000),
  url text check (url is null or public.is_valid_http_url(url)),
  unique (organization_id, source, external_id)
);
alter table public.site_deploys enable row level security;
create index site_deploys_organization_started_idx on public.site_deploys (organization_id, started_at desc);
comment on table public.site_deploys is
  'Builds of an organization''s site: from Netlify''s signed deploy notifications, or the local build. Written by the service role only.';
comment on column public.site_deploys.started_at is
  'When the build started reading content: a change made before it is in the build.';

revoke all on table public.site_deploys from anon, authenticated;
grant select on table public.site_deploys to authenticated;
grant select, insert, update, delete on table public.site_deploys to service_role;
create policy "Members can read the deploys of their organization" on public.site_deploys
  for select to authenticated using (private.is_org_member(organization_id));

/**
 * Records what a build reported: `building` creates the row (a repeated event changes nothing), `succeeded`
 * or `failed` finishes it (creating it when its start was never reported). A finished build is never
 * reopened or changed again, so a replayed or late event cannot rewrite history. Service role only.
 */
create function public.record_site_deploy(
  p_organization_id uuid,
  p_source text,
  p_external_id text,
  p_state text,
  p_started_at timestamptz default null,
  p_error text default null,
  p_url text default null
) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  if p_state not in ('building', 'succeeded', 'failed') then
    raise exception 'record_site_deploy: unknown state %', p_state using errcode = '22023';
  end if;
  insert into public.site_deploys as d (organization_id, source, external_id, state, started_at, finished_at, error, url)
  values (p_organization_id, p_source, p_external_id, p_state, coalesce(p_started_at, now()),
          case when p_state = 'building' then null else now() end,
          left(p_error, 2000), p_url)
  on conflict (organization_id, source, external_id) do update
    set state = excluded.state, finished_at = excluded.finished_at, error = excluded.error,
        url = coalesce(excluded.url, d.url)
    where d.state = 'building' and excluded.state <> 'building'
  returning d.id into v_id;
  if v_id is null then
    select d.id into v_id from public.site_deploys d
    where d.organization_id = p_organization_id and d.source = p_source and d.external_id = p_external_id;
  end if;
  return v_id;
end;
$$;
revoke execute on function public.record_site_deploy(uuid, text, text, text, timestamptz, text, text) from public, anon, authenticated;
grant execute on function public.record_site_deploy(uuid, text, text, text, timestamptz, text, text) to service_role;

-- THE SCHEDULED FLUSH'S HEARTBEAT, AND A QUEUE HELD WHILE A BUILD RUNS.

create table private.rebuild_scheduler (
  id boolean primary key default true check (id),
  last_run_at timestamptz not null,
  quiet_window_ms integer not null check (quiet_window_ms >= 0)
);
comment on table private.rebuild_scheduler is
  'When the scheduled flush (publish-scheduled) last ran and with which quiet window: the admin''s "next build in about N s".';

/** Longest a build may hold its organization's queue before it is presumed lost. */
create function private.deploy_hold() returns interval
language sql immutable set search_path = '' as $$ select interval '30 minutes' $$;

create or replace function public.claim_due_site_rebuilds(p_quiet_window_ms integer, p_organization_id uuid default null)
returns table (batch_id uuid, organization_id uuid, organization_slug text, build_hook_url text, request_count integer, reasons text[])
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
begin
  if p_organization_id is null then
    insert into private.rebuild_scheduler (last_run_at, quiet_window_ms) values (now(), p_quiet_window_ms)
    on conflict (id) do update set last_run_at = excluded.last_run_at, quiet_window_ms = excluded.quiet_window_ms;
  end if;
  return query
  with due as materialized (
    select r.organization_id, gen_random_uuid() as batch_id
    from public.site_rebuild_requests r
    where r.status = 'pending' and (p_organization_id is null or r.organization_id = p_organization_id)
      and not exists (
        select 1 from public.site_deploys d
        where d.organization_id = r.organization_id and d.state = 'building' and d.started_at > now() - private.deploy_hold()
      )
    group by r.organization_id
    having max(r.requested_at) <= now() - make_interval(secs => p_quiet_window_ms / 1000.0)
        or min(r.requested_at) <= now() - make_interval(secs => 10 * p_quiet_window_ms / 1000.0)
  ), claimed as (
    update public.site_rebuild_requests r
    set status = 'sent', sent_at = now(), batch_id = d.batch_id
    from due d
    where r.organization_id = d.organization_id and r.status = 'pending'
    returning r.batch_id, r.organization_id, r.reason
  )
  select c.batch_id, c.organization_id, o.slug, s.build_hook_url, count(*)::integer, array_agg(distinct c.reason)
  from claimed c
  join public.organizations o on o.id = c.organization_id
  left join public.site_rebuild_settings s on s.organization_id = c.organization_id
  group by c.batch_id, c.organization_id, o.slug, s.build_hook_url;
end;
$$;

-- WHAT THE ADMIN HEADER SHOWS.

/**
 * The facts behind the site's state, for a member of the organization (else nothing): pending requests
 * (count, oldest, newest), the scheduler's heartbeat, the last request sent to a build, the latest build
 * (state, start, end, error, url) and the start of the latest successful one (a post changed before it is
 * live). The browser turns them into words (src/lib/back-office/deploy-status.ts).
 */
create function private.site_deploy_status(p_organization_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select jsonb_build_object(
    'pending_count', (select count(*) from public.site_rebuild_requests r where r.organization_id = p_organization_id and r.status = 'pending'),
    'oldest_pending_at', (select min(requested_at) from public.site_rebuild_requests r where r.organization_id = p_organization_id and r.status = 'pending'),
    'newest_pending_at', (select max(requested_at) from public.site_rebuild_requests r where r.organization_id = p_organization_id and r.status = 'pending'),
    'scheduler_ran_at', (select last_run_at from private.rebuild_scheduler),
    'quiet_window_ms', (select quiet_window_ms from private.rebuild_scheduler),
    'last_request', (
      select jsonb_build_object('sent_at', r.sent_at, 'status', r.status, 'error', r.error)
      from public.site_rebuild_requests r
      where r.organization_id = p_organization_id and r.status <> 'pending'
      order by r.sent_at desc nulls last limit 1
    ),
    'latest_deploy', (
      select jsonb_build_object('state', d.state, 'started_at', d.started_at, 'finished_at', d.finished_at, 'error', d.error, 'url', d.url,
                                'stale', d.state = 'building' and d.started_at <= now() - private.deploy_hold())
      from public.site_deploys d where d.organization_id = p_organization_id
      order by d.started_at desc limit 1
    ),
    'live', (
      select jsonb_build_object('started_at', d.started_at, 'finished_at', d.finished_at, 'url', d.url)
      from public.site_deploys d where d.organization_id = p_organization_id and d.state = 'succeeded'
      order by d.started_at desc limit 1
    ),
    'now', now()
  )
  where private.is_org_member(p_organization_id)
$$;
revoke execute on function private.site_deploy_status(uuid) from public, anon;
grant execute on function private.site_deploy_status(uuid) to authenticated;

create function public.site_deploy_status(p_organization_id uuid) returns jsonb
language sql stable security invoker set search_path = ''
as $$ select private.site_deploy_status(p_organization_id) $$;
revoke execute on function public.site_deploy_status(uuid) from public, anon;
grant execute on function public.site_deploy_status(uuid) to authenticated;

-- THE WEBHOOK: THE POST TRIGGER REQUESTS, THE DELIVERY ONLY CLAIMS WHAT IS DUE.

create or replace function public.receive_webhook_delivery(
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
  p_featured_image_url text default null,
  p_reading_time integer default null,
  p_note text default null,
  p_refused_status integer default null,
  p_refused_error text default null,
  p_quiet_window_ms integer default 60000
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
    insert into public.webhook_deliveries (organization_id, status_code, slug, error)
    values (v_org_id, p_refused_status, p_slug, left(p_refused_error, 2000));
    return jsonb_build_object('found', true, 'organization', v_org);
  end if;

  begin
    select * into strict v_post from public.upsert_webhook_post(
      v_org_id, p_slug, p_title, p_content, p_content_source, p_content_format, p_excerpt, p_category_name,
      p_category_slug, p_tags, p_featured_image_url, p_reading_time, p_note
    );
  exception when others then
    v_delivery_id := gen_random_uuid();
    v_reference := left(v_delivery_id::text, 8);
    insert into public.webhook_deliveries (id, organization_id, status_code, slug, error)
    values (v_delivery_id, v_org_id, 500, p_slug,
            left('Could not store the post (reference ' || v_reference || '): ' || sqlerrm, 2000));
    return jsonb_build_object('found', true, 'organization', v_org, 'error', sqlerrm, 'reference', v_reference);
  end;

  -- The post's trigger recorded the rebuild request; send at once only what is already due.
  select coalesce(jsonb_agg(to_jsonb(b)), '[]'::jsonb) into v_batches
  from public.claim_due_site_rebuilds(p_quiet_window_ms, v_org_id) b;

  return jsonb_build_object(
    'found', true,
    'organization', v_org,
    'post', jsonb_build_object('id', v_post.post_id, 'status', v_post.post_status, 'slug', v_post.post_slug, 'created', v_post.created),
    'rebuild', jsonb_build_object('batches', v_batches)
  );
end;
$$;
