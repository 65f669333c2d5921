-- USER NAMES. Every person gets a user name (`profiles.user_login`, WordPress's `user_login`): what publishing
-- tools label "Username" and sign in with beside an application password, and what WordPress's login-approval
-- flow hands back to the tool. It is made once from the part of the e-mail before the @ (lower case, other
-- characters as "-", a number added when another person has it), shown in Profile and in the API's
-- `users/me`, and never changed by anyone through the API (as in WordPress): `authenticated` has no update
-- grant on it. It holds no @, so it never reads as an e-mail address.
--
-- private.authenticate_application_password now takes the e-mail or the user name. A user name is turned into
-- the account's e-mail before anything else, so the lockout and the sign-in attempts count one account
-- whichever of the two a guesser sends.

alter table public.profiles add column user_login text check (user_login ~ '^[a-z0-9._-]{1,60}$');
create unique index profiles_user_login_key on public.profiles (user_login);
comment on column public.profiles.user_login is
  'The user name publishing tools sign in with (WordPress''s user_login); made once from the e-mail, never changed.';

/** A free user name for `p_email`: its part before the @ made safe, with -2, -3... when taken. */
create function private.free_user_login(p_email text) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_base text := left(btrim(regexp_replace(lower(split_part(coalesce(p_email, ''), '@', 1)), '[^a-z0-9._-]+', '-', 'g'), '-.'), 50);
  v_login text;
  v_n int := 1;
begin
  if v_base = '' then v_base := 'user'; end if;
  -- Two people of one base made at once wait for each other, so neither picks the name the other took.
  perform pg_advisory_xact_lock(hashtextextended('free_user_login:' || v_base, 0));
  v_login := v_base;
  while exists (select 1 from public.profiles p where p.user_login = v_login) loop
    v_n := v_n + 1;
    v_login := v_base || '-' || v_n;
  end loop;
  return v_login;
end;
$$;
revoke execute on function private.free_user_login(text) from public, anon, authenticated;

create function private.fill_user_login() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.user_login is null then
    new.user_login := private.free_user_login(new.email);
  end if;
  return new;
end;
$$;
revoke execute on function private.fill_user_login() from public, anon, authenticated;
create trigger profiles_fill_user_login before insert on public.profiles
  for each row execute function private.fill_user_login();

do $$
declare
  v_profile record;
begin
  for v_profile in select id, email from public.profiles where user_login is null order by created_at, id loop
    update public.profiles set user_login = private.free_user_login(v_profile.email) where id = v_profile.id;
  end loop;
end;
$$;
alter table public.profiles alter column user_login set not null;

create or replace function private.authenticate_application_password(p_organization_id uuid, p_email text, p_password text, p_ip inet, p_user_agent text)
returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_email text := lower(left(btrim(coalesce(p_email, '')), 254));
  v_until timestamptz;
  v_found record;
begin
  -- A user name (no @) stands for its account's e-mail from here on; an unknown one is kept as sent.
  if v_email <> '' and position('@' in v_email) = 0 then
    v_email := coalesce((select lower(p.email) from public.profiles p where p.user_login = v_email), v_email);
  end if;
  -- One check at a time per client address, as sign-in: parallel guesses each see the ones before them.
  perform pg_advisory_xact_lock(hashtextextended('begin_sign_in:' || coalesce(host(p_ip), ''), 0));
  v_until := private.sign_in_locked_until(v_email, p_ip);
  if v_until is not null then
    insert into public.login_attempts (email, success, failure_reason, ip_address, user_agent)
    values (v_email, false, private.sign_in_failure('locked_out'), p_ip, left(p_user_agent, 1000));
    return jsonb_build_object('locked_until', v_until);
  end if;
  select a.id, a.name, a.user_id, a.organization_id, m.role, a.last_used_at into v_found
  from public.application_passwords a
  join public.profiles p on p.id = a.user_id
  join public.organization_memberships m on m.user_id = a.user_id and m.organization_id = a.organization_id
  where a.password_hash = private.application_password_hash(p_password)
    and a.organization_id = p_organization_id
    and lower(p.email) = v_email and v_email <> ''
    and p.is_active and m.is_active;
  if v_found.id is null then
    insert into public.login_attempts (email, success, failure_reason, ip_address, user_agent)
    values (coalesce(nullif(v_email, ''), '(none)'), false, private.sign_in_failure('invalid_credentials'), p_ip, left(p_user_agent, 1000));
    return jsonb_build_object('refused', true);
  end if;
  -- Noted at most once a minute: a publishing run makes dozens of calls.
  if v_found.last_used_at is null or v_found.last_used_at < now() - interval '1 minute' then
    update public.application_passwords set last_used_at = now(), last_used_ip = p_ip where id = v_found.id;
  end if;
  return jsonb_build_object('user_id', v_found.user_id, 'organization_id', v_found.organization_id, 'role', v_found.role,
                            'password_id', v_found.id, 'name', v_found.name);
end;
$$;
