-- SIGN-IN ATTEMPTS, CHECKED AND RECORDED ATOMICALLY. The sign-in function (src/lib/server/sign-in.ts) makes
-- two calls around Supabase Auth's password check:
--
-- 1. begin_sign_in(email, address, user agent) takes a transaction lock on the client address, decides the
--    lockout from the stored attempts and records this attempt in the same transaction: refused while
--    locked, otherwise provisionally as a failure. Parallel guesses therefore queue on the lock and each one
--    sees the ones before it: the sixth of six simultaneous wrong passwords is refused. A function that dies
--    mid-way leaves a failure behind, never a free try.
-- 2. finish_sign_in(attempt, user, session, area), only after Auth accepted the password: applies the area's
--    rule (the dashboard: an active admin; blog management: any active member), and for an allowed account
--    turns the attempt into a success, vouches for the session (private.trusted_sessions: only such sessions
--    read data), logs the sign-in and sets last_login, all in one transaction.
--
-- The lockout keys on the e-mail AND the client address: 5 wrong passwords for one account from one address
-- within 15 minutes lock that pair for 15 minutes after the last one, so a stranger elsewhere cannot lock an
-- admin out. Each address also has a global limit: 30 wrong passwords within 15 minutes, whatever the
-- accounts, lock the address until the oldest of them is 15 minutes old. Only wrong passwords count; a
-- success, or a correct password refused for the area, starts the pair's count again.

/** The failure reasons stored in login_attempts.failure_reason (FAILURE_REASONS in src/lib/server/login-attempts.ts). */
create function private.sign_in_failure(p_kind text) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select case p_kind
    when 'invalid_credentials' then 'Invalid login credentials'
    when 'not_admin' then 'Admin privileges required'
    when 'inactive' then 'Account inactive'
    when 'locked_out' then 'Too many failed attempts'
  end
$$;

/** Until when an (e-mail, address) pair or the address alone is locked out, or null. */
create function private.sign_in_locked_until(p_email text, p_ip inet) returns timestamptz
language plpgsql stable set search_path = ''
as $$
declare
  v_invalid constant text := private.sign_in_failure('invalid_credentials');
  v_locked constant text := private.sign_in_failure('locked_out');
  v_pair timestamptz[];
  v_address timestamptz[];
  v_until timestamptz;
begin
  -- The pair: the newest 5 wrong passwords since its last success or correct password.
  select array_agg(f.created_at order by f.created_at desc) into v_pair
  from (
    select a.created_at
    from public.login_attempts a
    where lower(a.email) = p_email
      and a.ip_address is not distinct from p_ip
      and a.failure_reason = v_invalid
      and a.created_at > now() - interval '30 minutes'
      and a.created_at > coalesce((
        select max(b.created_at) from public.login_attempts b
        where lower(b.email) = p_email and b.ip_address is not distinct from p_ip
          and b.failure_reason is distinct from v_invalid and b.failure_reason is distinct from v_locked
      ), '-infinity')
    order by a.created_at desc
    limit 5
  ) f;
  if cardinality(v_pair) = 5 and v_pair[1] - v_pair[5] <= interval '15 minutes'
     and v_pair[1] + interval '15 minutes' > now() then
    v_until := v_pair[1] + interval '15 minutes';
  end if;

  if p_ip is not null then
    select array_agg(f.created_at order by f.created_at desc) into v_address
    from (
      select a.created_at from public.login_attempts a
      where a.ip_address = p_ip and a.failure_reason = v_invalid and a.created_at > now() - interval '15 minutes'
      order by a.created_at desc
      limit 30
    ) f;
    if cardinality(v_address) = 30 then
      v_until := greatest(v_until, v_address[30] + interval '15 minutes');
    end if;
  end if;
  return v_until;
end;
$$;

/**
 * Step 1 of a sign-in (service role only): `{ "locked_until": ... }` when the pair or the address is locked
 * out (the refusal is recorded), else `{ "attempt_id": ... }` for an attempt recorded as a failure until
 * finish_sign_in says otherwise.
 */
create function public.begin_sign_in(p_email text, p_ip inet, p_user_agent text) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_email text := lower(left(btrim(p_email), 254));
  v_until timestamptz;
  v_id uuid;
begin
  if v_email = '' then
    raise exception 'begin_sign_in: an e-mail address is required' using errcode = '22023';
  end if;
  -- One sign-in at a time per client address: the check below and the insert after it cannot interleave.
  perform pg_advisory_xact_lock(hashtextextended('begin_sign_in:' || coalesce(host(p_ip), ''), 0));
  v_until := private.sign_in_locked_until(v_email, p_ip);
  insert into public.login_attempts (email, success, failure_reason, ip_address, user_agent)
  values (
    v_email, false,
    private.sign_in_failure(case when v_until is null then 'invalid_credentials' else 'locked_out' end),
    p_ip, left(p_user_agent, 1000)
  )
  returning id into v_id;
  if v_until is not null then
    return jsonb_build_object('locked_until', v_until);
  end if;
  return jsonb_build_object('attempt_id', v_id);
end;
$$;

/**
 * Step 2, after Supabase Auth accepted the password and created p_session_id for p_user_id (service role
 * only). Answers 'granted' (the session may now read data) or 'not-allowed' (the caller ends the session).
 */
create function public.finish_sign_in(p_attempt_id uuid, p_user_id uuid, p_session_id uuid, p_area text)
returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_attempt public.login_attempts;
  v_profile public.profiles;
begin
  if p_area not in ('admin', 'blog') then
    raise exception 'finish_sign_in: unknown area %', p_area using errcode = '22023';
  end if;
  select * into v_attempt from public.login_attempts a
  where a.id = p_attempt_id and not a.success and a.failure_reason = private.sign_in_failure('invalid_credentials')
  for update;
  select * into v_profile from public.profiles p where p.id = p_user_id;
  if v_attempt.id is null or v_profile.id is null or lower(v_profile.email) <> v_attempt.email
     or not exists (select 1 from auth.sessions s where s.id = p_session_id and s.user_id = p_user_id) then
    raise exception 'finish_sign_in: attempt %, user % and session % do not belong together', p_attempt_id, p_user_id, p_session_id
      using errcode = '22023';
  end if;

  if not v_profile.is_active or (p_area = 'admin' and v_profile.role <> 'admin') then
    update public.login_attempts
    set failure_reason = private.sign_in_failure(
      case when v_profile.role = 'admin' or p_area = 'blog' then 'inactive' else 'not_admin' end)
    where id = p_attempt_id;
    return 'not-allowed';
  end if;

  update public.login_attempts set success = true, failure_reason = null where id = p_attempt_id;
  insert into private.trusted_sessions (session_id, user_id) values (p_session_id, p_user_id);
  insert into public.user_activity_logs (user_id, organization_id, action, details)
  values (
    p_user_id, v_profile.organization_id,
    case when v_profile.role = 'admin' then 'admin_login_success' else 'login_success' end,
    jsonb_build_object('ip_address', host(v_attempt.ip_address), 'user_agent', v_attempt.user_agent)
  );
  update public.profiles set last_login = now() where id = p_user_id;
  return 'granted';
end;
$$;

revoke execute on function private.sign_in_failure(text), private.sign_in_locked_until(text, inet) from public;
grant execute on function private.sign_in_failure(text), private.sign_in_locked_until(text, inet) to service_role;
revoke execute on function public.begin_sign_in(text, inet, text), public.finish_sign_in(uuid, uuid, uuid, text)
  from public, anon, authenticated;
grant execute on function public.begin_sign_in(text, inet, text), public.finish_sign_in(uuid, uuid, uuid, text)
  to service_role;

-- The lockout reads attempts by address too.
create index login_attempts_ip_address_idx on public.login_attempts (ip_address, created_at desc);

-- BUILD HOOKS: Netlify's, or a loopback address for local development and tests (the rebuild sender refuses
-- a loopback hook unless the backend itself is local, so a stored one cannot aim a production function at
-- its own host).
alter table public.site_rebuild_settings drop constraint site_rebuild_settings_build_hook_url_check;
alter table public.site_rebuild_settings add constraint site_rebuild_settings_build_hook_url_check check (
  length(build_hook_url) <= 2048
  and (build_hook_url ~ '^https://api\.netlify\.com/build_hooks/[A-Za-z0-9_-]{1,100}$'
    or build_hook_url ~ '^http://(127\.0\.0\.1|localhost)(:[0-9]{1,5})?/[^\s]*$')
);
