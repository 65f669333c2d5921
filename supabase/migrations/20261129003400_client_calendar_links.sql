-- A READ-ONLY CALENDAR FOR EACH CLIENT. An agency shows a client what goes out on their site without giving them
-- a login to the back office: an admin of the organization makes a link (/client-calendar#<token>) that shows the
-- site's upcoming posts, their titles, dates and states, and nothing else, to whoever holds it, signed out.
--
-- - public.create_client_calendar_link(p_organization_id, p_label, p_days): admins of the organization only.
--   The token is 32 random bytes (256 bits, base64url: 43 characters), answered once and stored only as its
--   SHA-256 hash (a random secret of that size needs no slow hash). The link lasts p_days days (1 to 365); an
--   organization has at most 20 links in force (neither revoked nor expired).
-- - public.revoke_client_calendar_link(p_id): an admin of the link's organization turns it off for good.
-- - public.client_calendar(p_token): anyone with the token (anon included): the site's name and time zone, the
--   link's label and end, and the posts going out (scheduled, not in the trash, after now; the next 500, titles,
--   times and whether queued). An unknown, expired or revoked token gets one refusal that tells none of them
--   apart and reads nothing. No drafts, no content, no other site.
-- - Admins of the organization read its links (never the hash) through the table; nobody writes it directly.
-- - Logged in the organization's activity: client_calendar_link_created and _revoked (by the admin), and
--   client_calendar_link_opened (by nobody: details.via 'client_link'), at most once an hour per link; every use
--   counts in use_count and last_used_at.

create table public.client_calendar_links (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  label text not null check (label = btrim(label) and char_length(label) between 1 and 80),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  created_by uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  revoked_by uuid references public.profiles (id) on delete set null,
  last_used_at timestamptz,
  use_count integer not null default 0 check (use_count >= 0),
  check (expires_at > created_at),
  check (revoked_by is null or revoked_at is not null)
);
comment on table public.client_calendar_links is
  'Links that show a site''s upcoming posts to a client without signing in; only their token''s SHA-256 hash is stored.';
create index client_calendar_links_organization_idx on public.client_calendar_links (organization_id, created_at desc);
create index client_calendar_links_created_by_idx on public.client_calendar_links (created_by);
create index client_calendar_links_revoked_by_idx on public.client_calendar_links (revoked_by);

alter table public.client_calendar_links enable row level security;
revoke all on table public.client_calendar_links from public, anon, authenticated;
-- Never the hash; written only through the functions below.
grant select (id, organization_id, label, created_by, created_at, expires_at, revoked_at, revoked_by, last_used_at, use_count)
  on table public.client_calendar_links to authenticated;
create policy "Admins read their organization's client calendar links" on public.client_calendar_links
  for select to authenticated using ((select private.is_org_admin(organization_id)));

/** A client calendar link's hash: SHA-256 of its token, in hex. */
create function private.client_calendar_token_hash(p_token text) returns text
language sql immutable parallel safe set search_path = ''
as $$ select encode(extensions.digest(coalesce(p_token, ''), 'sha256'), 'hex') $$;

/** Makes a client calendar link (admins of the organization); answers it once: { id, label, created_at, expires_at, token }. */
create function private.create_client_calendar_link(p_organization_id uuid, p_label text, p_days integer) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_user uuid := private.current_active_user_id();
  v_label text := btrim(coalesce(p_label, ''));
  v_token text;
  v_row public.client_calendar_links;
begin
  if v_user is null or not private.is_org_admin(p_organization_id) then
    raise exception 'Only admins of this organization can make client calendar links.' using errcode = '42501';
  end if;
  if v_label = '' then
    raise exception 'Say who the link is for (a client''s name, for instance).' using errcode = '22023';
  end if;
  if char_length(v_label) > 80 then
    raise exception 'The name is too long (at most 80 characters).' using errcode = '22023';
  end if;
  if p_days is null or p_days not between 1 and 365 then
    raise exception 'A link lasts from 1 to 365 days.' using errcode = '22023';
  end if;
  -- One at a time per organization, so that two at once cannot both pass the count.
  perform 1 from public.organizations o where o.id = p_organization_id for update;
  if (select count(*) from public.client_calendar_links l
      where l.organization_id = p_organization_id and l.revoked_at is null and l.expires_at > now()) >= 20 then
    raise exception 'This site has 20 client calendar links in force: revoke one before making another.' using errcode = '54000';
  end if;
  v_token := translate(rtrim(encode(extensions.gen_random_bytes(32), 'base64'), '='), '+/', '-_');
  insert into public.client_calendar_links (organization_id, label, token_hash, created_by, expires_at)
  values (p_organization_id, v_label, private.client_calendar_token_hash(v_token), v_user, now() + make_interval(days => p_days))
  returning * into v_row;
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  values (v_user, p_organization_id, 'client_calendar_link_created', 'client_calendar_link', v_row.id::text,
          jsonb_build_object('label', v_label, 'expires_at', v_row.expires_at));
  return jsonb_build_object('id', v_row.id, 'label', v_row.label, 'created_at', v_row.created_at, 'expires_at', v_row.expires_at, 'token', v_token);
end;
$$;

/** Turns a client calendar link off for good (admins of its organization). */
create function private.revoke_client_calendar_link(p_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_user uuid := private.current_active_user_id();
  v_row public.client_calendar_links;
begin
  select * into v_row from public.client_calendar_links l where l.id = p_id for update;
  if v_user is null or v_row.id is null or not private.is_org_admin(v_row.organization_id) then
    raise exception 'No such client calendar link, or not yours to revoke.' using errcode = '42501';
  end if;
  if v_row.revoked_at is not null then
    raise exception 'This link is already revoked.' using errcode = '22023';
  end if;
  update public.client_calendar_links set revoked_at = now(), revoked_by = v_user where id = p_id;
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  values (v_user, v_row.organization_id, 'client_calendar_link_revoked', 'client_calendar_link', v_row.id::text,
          jsonb_build_object('label', v_row.label));
end;
$$;

/** What a client calendar link shows (see the banner); refuses an unknown, expired or revoked token alike. */
create function private.client_calendar(p_token text) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_link public.client_calendar_links;
begin
  if p_token is null or p_token !~ '^[A-Za-z0-9_-]{43}$' then
    raise exception 'This calendar link is not valid: it may have expired or been turned off. Ask whoever sent it for a new one.' using errcode = '28000';
  end if;
  update public.client_calendar_links l set last_used_at = now(), use_count = l.use_count + 1
  where l.token_hash = private.client_calendar_token_hash(p_token) and l.revoked_at is null and l.expires_at > now()
  returning * into v_link;
  if v_link.id is null then
    raise exception 'This calendar link is not valid: it may have expired or been turned off. Ask whoever sent it for a new one.' using errcode = '28000';
  end if;
  -- The activity log hears of a link's use at most once an hour (a client may reload it all day).
  if not exists (
    select 1 from public.user_activity_logs a
    where a.organization_id = v_link.organization_id and a.action = 'client_calendar_link_opened'
      and a.resource_id = v_link.id::text and a.created_at > now() - interval '1 hour'
  ) then
    insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
    values (null, v_link.organization_id, 'client_calendar_link_opened', 'client_calendar_link', v_link.id::text,
            jsonb_build_object('label', v_link.label, 'via', 'client_link'));
  end if;
  return jsonb_build_object(
    'site', (
      select jsonb_build_object('name', o.name, 'time_zone', coalesce(q.time_zone, 'America/New_York'))
      from public.organizations o left join public.publishing_queues q on q.organization_id = o.id
      where o.id = v_link.organization_id
    ),
    'link', jsonb_build_object('label', v_link.label, 'expires_at', v_link.expires_at),
    'posts', coalesce((
      select jsonb_agg(jsonb_build_object('title', p.title, 'published_at', p.published_at, 'queued', p.queued) order by p.published_at, p.id)
      from (
        select p.id, p.title, p.published_at, p.queued from public.blog_posts p
        where p.organization_id = v_link.organization_id and p.status = 'scheduled' and p.trashed_at is null and p.published_at > now()
        order by p.published_at, p.id
        limit 500
      ) p
    ), '[]'::jsonb)
  );
end;
$$;

revoke execute on function private.client_calendar_token_hash(text), private.create_client_calendar_link(uuid, text, integer),
  private.revoke_client_calendar_link(uuid), private.client_calendar(text) from public, anon, authenticated;
grant execute on function private.create_client_calendar_link(uuid, text, integer), private.revoke_client_calendar_link(uuid)
  to authenticated;
grant execute on function private.client_calendar(text) to anon, authenticated;

-- What the API exposes runs with the caller's rights; the definer's rights stay in the private schema.
create function public.create_client_calendar_link(p_organization_id uuid, p_label text, p_days integer) returns jsonb
language sql volatile security invoker set search_path = ''
as $$ select private.create_client_calendar_link(p_organization_id, p_label, p_days) $$;
create function public.revoke_client_calendar_link(p_id uuid) returns void
language sql volatile security invoker set search_path = ''
as $$ select private.revoke_client_calendar_link(p_id) $$;
create function public.client_calendar(p_token text) returns jsonb
language sql volatile security invoker set search_path = ''
as $$ select private.client_calendar(p_token) $$;
revoke execute on function public.create_client_calendar_link(uuid, text, integer), public.revoke_client_calendar_link(uuid),
  public.client_calendar(text) from public, anon, authenticated;
grant execute on function public.create_client_calendar_link(uuid, text, integer), public.revoke_client_calendar_link(uuid)
  to authenticated;
grant execute on function public.client_calendar(text) to anon, authenticated;
