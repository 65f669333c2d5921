-- Search engines hear of every publish: IndexNow, once a change is live.
--
-- 1. indexnow_sites: each organization's IndexNow key (made with the organization, so the seed and site:add
--    get one; an admin rotates it) and whether submissions are on. The site serves the key as IndexNow asks
--    (/{key}.txt on its own host, written by the build). Members read it (the key is public by design: the
--    site serves it); admins switch it and rotate the key through the functions below, logged.
-- 2. indexnow_changes: every change visitors could see of a post (the rebuild trigger's rule: published,
--    unpublished, edited while published, deleted while published) notes the post's address, its category's
--    and its tags, in the same transaction. A slug change notes the old address too. Service role only.
-- 3. indexnow_submissions: the submission log. When a deploy reports success, the changes made before its
--    build started (so live in it) are taken in one submission (claim_indexnow_submission: at most 10,000
--    addresses, the rest in the next), which the function sends and records (sent, or failed with the
--    engine's answer and a retry after a backoff that doubles, up to six tries). Members read their own.

-- 1. THE KEY

create table public.indexnow_sites (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  key text not null unique check (key ~ '^[a-f0-9]{32}$'),
  enabled boolean not null default true,
  rotated_at timestamptz not null default now()
);
comment on table public.indexnow_sites is
  'Each organization''s IndexNow key (served by its site as /{key}.txt) and whether submissions are on.';
alter table public.indexnow_sites enable row level security;
revoke all on table public.indexnow_sites from public, anon, authenticated;
grant select on table public.indexnow_sites to anon, authenticated;
grant all on table public.indexnow_sites to service_role;
-- The build reads the key with the anon key to write the key file: a key in use is public on its site anyway.
create policy "Anyone reads the keys in use" on public.indexnow_sites
  for select to anon using (enabled);
create policy "Members read their organization's key, in use or not" on public.indexnow_sites
  for select to authenticated using (enabled or (select private.is_org_member(organization_id)));

/** A new IndexNow key: 32 hexadecimal digits (IndexNow takes 8 to 128 of letters, digits and dashes). */
create function private.new_indexnow_key() returns text
language sql volatile set search_path = ''
as $$ select encode(extensions.gen_random_bytes(16), 'hex') $$;
revoke execute on function private.new_indexnow_key() from public, anon, authenticated;

/** Every organization gets a key when it is made (the seed's and site:add's included). */
create function private.create_indexnow_site() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.indexnow_sites (organization_id, key) values (new.id, private.new_indexnow_key()) on conflict do nothing;
  return null;
end;
$$;
revoke execute on function private.create_indexnow_site() from public, anon, authenticated;
create trigger organizations_create_indexnow_site after insert on public.organizations
  for each row execute function private.create_indexnow_site();
insert into public.indexnow_sites (organization_id, key) select o.id, private.new_indexnow_key() from public.organizations o;

/**
 * An admin of the organization switches submissions on or off, or rotates the key (p_rotate); logged
 * (indexnow_changed) and a rebuild requested, so the site serves the new key. Answers the row.
 */
create function private.set_indexnow(p_organization_id uuid, p_enabled boolean default null, p_rotate boolean default false)
returns public.indexnow_sites
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_row public.indexnow_sites;
  v_before public.indexnow_sites;
begin
  if not private.is_org_admin(p_organization_id) then
    raise exception 'Only admins of this organization can change its search engine notifications.' using errcode = '42501';
  end if;
  select * into v_before from public.indexnow_sites s where s.organization_id = p_organization_id for update;
  update public.indexnow_sites s set
    enabled = coalesce(p_enabled, s.enabled),
    key = case when p_rotate then private.new_indexnow_key() else s.key end,
    rotated_at = case when p_rotate then now() else s.rotated_at end
  where s.organization_id = p_organization_id
  returning * into v_row;
  if v_row.organization_id is null then
    raise exception 'This organization has no IndexNow key.' using errcode = 'P0002';
  end if;
  if v_row.enabled is distinct from v_before.enabled or p_rotate then
    insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
    values (private.current_active_user_id(), p_organization_id, 'indexnow_changed', 'organization', p_organization_id::text,
            jsonb_build_object('enabled', v_row.enabled, 'rotated', p_rotate));
    perform private.record_rebuild_requests(jsonb_build_array(jsonb_build_object(
      'organization_id', p_organization_id, 'reason', case when p_rotate then 'IndexNow key rotated' else 'IndexNow switched' end)));
  end if;
  return v_row;
end;
$$;
revoke execute on function private.set_indexnow(uuid, boolean, boolean) from public, anon, authenticated;
grant execute on function private.set_indexnow(uuid, boolean, boolean) to authenticated, service_role;

create function public.set_indexnow(p_organization_id uuid, p_enabled boolean default null, p_rotate boolean default false)
returns public.indexnow_sites
language sql volatile security invoker set search_path = ''
as $$ select private.set_indexnow(p_organization_id, p_enabled, p_rotate) $$;
revoke execute on function public.set_indexnow(uuid, boolean, boolean) from public, anon;
grant execute on function public.set_indexnow(uuid, boolean, boolean) to authenticated, service_role;

-- 2. WHAT CHANGED

create table private.indexnow_changes (
  id bigint generated always as identity primary key,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  post_slug text not null,
  category_slug text,
  tags text[],
  changed_at timestamptz not null default clock_timestamp()
);
create index indexnow_changes_organization_idx on private.indexnow_changes (organization_id, changed_at);
create index indexnow_changes_changed_idx on private.indexnow_changes (changed_at);
alter table private.indexnow_changes enable row level security;
revoke all on table private.indexnow_changes from public, anon, authenticated;
grant all on table private.indexnow_changes to service_role;

/** The addresses a change of posts touches (the rebuild trigger's rule), noted for the next live deploy. */
create function private.note_indexnow_changes() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if private.post_change() = 'bulk' then return null; end if;
  if tg_op = 'INSERT' then
    insert into private.indexnow_changes (organization_id, post_slug, category_slug, tags)
    select n.organization_id, n.slug, c.slug, n.tags
    from new_rows n left join public.blog_categories c on c.id = n.category_id
    where n.status = 'published';
  elsif tg_op = 'DELETE' then
    insert into private.indexnow_changes (organization_id, post_slug, category_slug, tags)
    select o.organization_id, o.slug, c.slug, o.tags
    from old_rows o left join public.blog_categories c on c.id = o.category_id
    where o.status = 'published';
  else
    -- The post as it is now, and as it was when its address, category or tags moved (the old pages changed too).
    insert into private.indexnow_changes (organization_id, post_slug, category_slug, tags)
    select x.organization_id, x.slug, x.category_slug, x.tags
    from old_rows o join new_rows n on n.id = o.id
    cross join lateral (
      select n.organization_id, n.slug, (select c.slug from public.blog_categories c where c.id = n.category_id) as category_slug, n.tags
      union
      select o.organization_id, o.slug, (select c.slug from public.blog_categories c where c.id = o.category_id), o.tags
      where o.status = 'published' and (o.slug, o.category_id, o.tags) is distinct from (n.slug, n.category_id, n.tags)
    ) x
    where (o.status = 'published' or n.status = 'published')
      and private.post_public_fields(o) is distinct from private.post_public_fields(n);
  end if;
  -- A change no deploy took within a week (a site that submits nothing: local, or without an address) is stale.
  delete from private.indexnow_changes c where c.changed_at < now() - interval '7 days';
  return null;
end;
$$;
revoke execute on function private.note_indexnow_changes() from public, anon, authenticated;
create trigger blog_posts_note_indexnow_insert after insert on public.blog_posts
  referencing new table as new_rows for each statement execute function private.note_indexnow_changes();
create trigger blog_posts_note_indexnow_update after update on public.blog_posts
  referencing old table as old_rows new table as new_rows for each statement execute function private.note_indexnow_changes();
create trigger blog_posts_note_indexnow_delete after delete on public.blog_posts
  referencing old table as old_rows for each statement execute function private.note_indexnow_changes();

-- 3. THE SUBMISSIONS

create table public.indexnow_submissions (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  deploy_id uuid references public.site_deploys (id) on delete set null,
  urls text[] not null check (cardinality(urls) between 1 and 10000),
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  response_status integer,
  error text check (length(error) <= 1000),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  next_attempt_at timestamptz
);
comment on table public.indexnow_submissions is
  'The IndexNow submission log: the addresses a live deploy changed, the engine''s answer, retries.';
create index indexnow_submissions_organization_idx on public.indexnow_submissions (organization_id, created_at desc);
create index indexnow_submissions_deploy_idx on public.indexnow_submissions (deploy_id);
create index indexnow_submissions_due_idx on public.indexnow_submissions (next_attempt_at) where status = 'failed' and next_attempt_at is not null;
alter table public.indexnow_submissions enable row level security;
revoke all on table public.indexnow_submissions from public, anon, authenticated;
grant select on table public.indexnow_submissions to authenticated;
grant all on table public.indexnow_submissions to service_role;
create policy "Members read their organization's IndexNow submissions" on public.indexnow_submissions
  for select to authenticated using ((select private.is_org_member(organization_id)));

/**
 * The changes live in deploy p_deploy_id (a succeeded deploy of p_organization_id: those made before its build
 * started), oldest first, at most p_limit, for one submission; none when submissions are off (the changes are
 * then dropped: switching on later does not send a backlog) or the deploy did not succeed. Service role only.
 */
create function public.live_indexnow_changes(p_organization_id uuid, p_deploy_id uuid, p_limit integer default 2000)
returns table (id bigint, post_slug text, category_slug text, tags text[])
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_started timestamptz;
begin
  select d.started_at into v_started from public.site_deploys d
  where d.id = p_deploy_id and d.organization_id = p_organization_id and d.state = 'succeeded';
  if v_started is null then return; end if;
  if not coalesce((select s.enabled from public.indexnow_sites s where s.organization_id = p_organization_id), false) then
    delete from private.indexnow_changes c where c.organization_id = p_organization_id and c.changed_at < v_started;
    return;
  end if;
  return query
  select c.id, c.post_slug, c.category_slug, c.tags from private.indexnow_changes c
  where c.organization_id = p_organization_id and c.changed_at < v_started
  order by c.id limit p_limit;
end;
$$;
revoke execute on function public.live_indexnow_changes(uuid, uuid, integer) from public, anon, authenticated;
grant execute on function public.live_indexnow_changes(uuid, uuid, integer) to service_role;

/**
 * Takes changes p_change_ids into one submission of p_urls (their addresses, as the function wrote them) for
 * deploy p_deploy_id: the changes are removed in the same transaction. Answers the submission's id, or null
 * when another call took them first (then nothing is written). Service role only.
 */
create function public.claim_indexnow_submission(p_organization_id uuid, p_deploy_id uuid, p_change_ids bigint[], p_urls text[])
returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_taken integer;
  v_id uuid;
begin
  delete from private.indexnow_changes c where c.organization_id = p_organization_id and c.id = any (p_change_ids);
  get diagnostics v_taken = row_count;
  if v_taken < cardinality(p_change_ids) then
    raise exception 'claim_indexnow_submission: the changes were taken by another call' using errcode = '40001';
  end if;
  insert into public.indexnow_submissions (organization_id, deploy_id, urls) values (p_organization_id, p_deploy_id, p_urls)
  returning id into v_id;
  return v_id;
end;
$$;
revoke execute on function public.claim_indexnow_submission(uuid, uuid, bigint[], text[]) from public, anon, authenticated;
grant execute on function public.claim_indexnow_submission(uuid, uuid, bigint[], text[]) to service_role;

/** How often a failed submission is tried in all; after that it stays failed in the log. */
create function private.indexnow_tries() returns integer
language sql immutable parallel safe set search_path = ''
as $$ select 6 $$;

/**
 * Records one attempt of a submission: sent (`p_status` 'sent'), or failed with the engine's answer or the
 * reason it could not be reached; a failure is tried again after 1, 2, 4, 8, 16 minutes (six tries in all).
 */
create function public.record_indexnow_attempt(p_submission_id uuid, p_status text, p_response_status integer default null, p_error text default null)
returns void
language sql volatile security definer set search_path = ''
as $$
  update public.indexnow_submissions s set
    attempts = s.attempts + 1,
    status = p_status,
    response_status = p_response_status,
    error = left(p_error, 1000),
    sent_at = case when p_status = 'sent' then now() end,
    next_attempt_at = case when p_status = 'failed' and s.attempts + 1 < private.indexnow_tries()
      then now() + interval '1 minute' * power(2, s.attempts) end
  where s.id = p_submission_id and p_status in ('sent', 'failed')
$$;
revoke execute on function public.record_indexnow_attempt(uuid, text, integer, text) from public, anon, authenticated;
grant execute on function public.record_indexnow_attempt(uuid, text, integer, text) to service_role;
