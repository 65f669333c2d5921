/**
 * SESSIONS' LAST ACTIVITY. Supabase Auth records a session's use only when its access token is refreshed
 * (`auth.sessions.refreshed_at`, with the browser and address), which a client does about once an hour, so
 * the Sessions tab showed the sign-in time as "Last activity" for the first hour of every session. The back
 * office now says when its user is at work (`note_session_activity`, at most once a minute while they click or
 * type), and the list shows the latest of the sign-in, the last refresh and that.
 */

create table private.session_activity (
  session_id uuid primary key references auth.sessions (id) on delete cascade,
  seen_at timestamptz not null default now()
);
alter table private.session_activity enable row level security;
revoke all on table private.session_activity from public, anon, authenticated;
comment on table private.session_activity is
  'When each Auth session was last used in the back office (note_session_activity); ends with its session.';

/**
 * Records that the caller's own session (the `session_id` of its access token) is in use now. Notes closer than
 * a minute to the last one write nothing, so a busy page costs no more than one write a minute. Callers without
 * a live, vouched-for session record nothing.
 */
create function private.note_session_activity() returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_session uuid := nullif((select auth.jwt()) ->> 'session_id', '')::uuid;
begin
  if private.current_active_user_id() is null or v_session is null then
    return;
  end if;
  insert into private.session_activity as a (session_id, seen_at) values (v_session, now())
  on conflict (session_id) do update set seen_at = excluded.seen_at
    where a.seen_at < excluded.seen_at - interval '1 minute';
end;
$$;
revoke execute on function private.note_session_activity() from public, anon;
grant execute on function private.note_session_activity() to authenticated, service_role;

/** The API's door to private.note_session_activity (nothing in `public` runs with its owner's rights). */
create function public.note_session_activity() returns void
language sql volatile security invoker set search_path = ''
as $$ select private.note_session_activity() $$;
revoke execute on function public.note_session_activity() from public, anon;
grant execute on function public.note_session_activity() to authenticated, service_role;

/** Live sessions of the active members of an organization (admins of it only), most recently active first. */
create or replace function private.list_organization_sessions(p_organization_id uuid)
returns table (
  session_id uuid, user_id uuid, full_name text, email text, created_at timestamptz, last_activity timestamptz,
  expires_at timestamptz, user_agent text, ip text
)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not private.is_service_caller() and not private.is_org_admin(p_organization_id) then
    raise exception 'list_organization_sessions: only an admin of organization % can list its sessions', p_organization_id
      using errcode = '42501';
  end if;
  return query
  select s.id, s.user_id, p.full_name, p.email, s.created_at,
         -- refreshed_at has no time zone: Supabase Auth writes it in UTC.
         greatest(s.created_at, s.updated_at, s.refreshed_at at time zone 'UTC', a.seen_at),
         s.not_after, s.user_agent, host(s.ip)
  from auth.sessions s
  join public.profiles p on p.id = s.user_id
  left join private.session_activity a on a.session_id = s.id
  where exists (
      select 1 from public.organization_memberships m
      where m.user_id = s.user_id and m.organization_id = p_organization_id and m.is_active
    )
    and (s.not_after is null or s.not_after > now())
  order by 6 desc;
end;
$$;
