-- Application passwords: what WordPress publishing tools sign in with (HTTP Basic auth with the member's
-- e-mail and a generated password, WordPress's own scheme), per member and organization.
--
-- - A member who may publish (editor or admin of the organization) makes one with a name; the password is
--   made here from 24 random letters and digits, shown once in WordPress's format (groups of four, spaced)
--   and stored only as its SHA-256 hash. Random 24-character secrets (about 143 bits) need no slow hash.
-- - The member lists their own passwords; an admin of the organization lists everyone's there. Neither ever
--   reads a hash: the column is not granted.
-- - The member revokes their own; an admin of the organization revokes anyone's there. Both are logged.
-- - The publishing API checks a password (service role only): the same lockout as sign-in (five wrong
--   passwords for one e-mail from one address lock that pair, thirty from one address lock it), a wrong or
--   revoked password counting as a wrong sign-in; a right one answers the member, the organization and the
--   member's role there, and notes its last use and address. A deactivated account or membership is refused
--   like a wrong password (the answer says nothing about the account).

-- WordPress clients read ids as numbers: each member also has an integer id, the one the API answers with.
alter table public.profiles add column wp_id bigint generated always as identity unique;
comment on column public.profiles.wp_id is 'The member''s id in the WordPress-compatible publishing API (integers, as WordPress''s).';

create table public.application_passwords (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null check (name = btrim(name) and char_length(name) between 1 and 60),
  password_hash text not null unique check (password_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  last_used_ip inet,
  unique (user_id, organization_id, name)
);
comment on table public.application_passwords is
  'Passwords WordPress publishing tools sign in with (HTTP Basic auth), per member and organization; only their SHA-256 hash is stored.';
create index application_passwords_organization_id_idx on public.application_passwords (organization_id);

alter table public.application_passwords enable row level security;
revoke all on table public.application_passwords from public, anon, authenticated;
-- Never the hash; written only through the functions below.
grant select (id, user_id, organization_id, name, created_at, last_used_at, last_used_ip)
  on table public.application_passwords to authenticated;

create policy "members read their own application passwords, admins those of their organization"
  on public.application_passwords for select to authenticated
  using (user_id = (select private.current_active_user_id()) and private.org_role(organization_id) is not null
         or private.is_org_admin(organization_id));

/** An application password's hash: SHA-256 of its letters and digits (spaces and anything else dropped, as WordPress does). */
create function private.application_password_hash(p_password text) returns text
language sql immutable parallel safe set search_path = ''
as $$ select encode(extensions.digest(regexp_replace(coalesce(p_password, ''), '[^A-Za-z0-9]', '', 'g'), 'sha256'), 'hex') $$;

/**
 * Makes an application password named p_name for the caller in p_organization_id (editors and admins there)
 * and answers it once: { id, name, password ('abcd EFGH 1234 ijkl MNOP 6789'), created_at }.
 */
create function private.create_application_password(p_organization_id uuid, p_name text) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_user uuid := private.current_active_user_id();
  v_name text := btrim(coalesce(p_name, ''));
  v_alphabet constant text := 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  v_bytes bytea;
  v_password text := '';
  v_row public.application_passwords;
begin
  if v_user is null or not private.is_org_editor(p_organization_id) then
    raise exception 'Only editors and admins of this organization can make application passwords (viewers cannot publish).'
      using errcode = '42501';
  end if;
  if v_name = '' then
    raise exception 'Give the application password a name.' using errcode = '22023';
  end if;
  if char_length(v_name) > 60 then
    raise exception 'The name is too long (at most 60 characters).' using errcode = '22023';
  end if;
  if exists (select 1 from public.application_passwords a
             where a.user_id = v_user and a.organization_id = p_organization_id and lower(a.name) = lower(v_name)) then
    raise exception 'You already have an application password named "%". Choose another name.', v_name using errcode = '23505';
  end if;
  -- 24 characters of 62, each from one random byte below 248 (4 x 62: no bias); bytes above are drawn again.
  while char_length(v_password) < 24 loop
    v_bytes := extensions.gen_random_bytes(32);
    for i in 0 .. 31 loop
      exit when char_length(v_password) = 24;
      if get_byte(v_bytes, i) < 248 then
        v_password := v_password || substr(v_alphabet, get_byte(v_bytes, i) % 62 + 1, 1);
      end if;
    end loop;
  end loop;
  insert into public.application_passwords (user_id, organization_id, name, password_hash)
  values (v_user, p_organization_id, v_name, private.application_password_hash(v_password))
  returning * into v_row;
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  values (v_user, p_organization_id, 'application_password_created', 'application_password', v_row.id::text,
          jsonb_build_object('name', v_name));
  return jsonb_build_object(
    'id', v_row.id, 'name', v_row.name, 'created_at', v_row.created_at,
    'password', regexp_replace(v_password, '(.{4})(?!$)', '\1 ', 'g'));
end;
$$;

/** Revokes an application password: the member's own, or any of an organization the caller administers. */
create function private.revoke_application_password(p_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_user uuid := private.current_active_user_id();
  v_row public.application_passwords;
begin
  select * into v_row from public.application_passwords a where a.id = p_id for update;
  if v_user is null or v_row.id is null
     or not (v_row.user_id = v_user and private.org_role(v_row.organization_id) is not null
             or private.is_org_admin(v_row.organization_id)) then
    raise exception 'No such application password, or not yours to revoke.' using errcode = '42501';
  end if;
  delete from public.application_passwords where id = p_id;
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  values (v_user, v_row.organization_id, 'application_password_revoked', 'application_password', v_row.id::text,
          jsonb_build_object('name', v_row.name, 'user_id', v_row.user_id));
end;
$$;

/**
 * The publishing API's check of HTTP Basic credentials on the site of p_organization_id (service role only):
 * a password made for another organization is a wrong one here. Answers
 * { locked_until } while the e-mail and address (or the address) are locked out, { refused: true } for
 * credentials that do not let anyone in (recorded as a wrong sign-in, towards the lockout), else
 * { user_id, organization_id, role, password_id, name } and notes the password's use.
 */
create function private.authenticate_application_password(p_organization_id uuid, p_email text, p_password text, p_ip inet, p_user_agent text)
returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_email text := lower(left(btrim(coalesce(p_email, '')), 254));
  v_until timestamptz;
  v_found record;
begin
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

/** Makes an application password for the caller (see private.create_application_password). */
create function public.create_application_password(p_organization_id uuid, p_name text) returns jsonb
language sql volatile security invoker set search_path = ''
as $$ select private.create_application_password(p_organization_id, p_name) $$;

/** Revokes an application password (see private.revoke_application_password). */
create function public.revoke_application_password(p_id uuid) returns void
language sql volatile security invoker set search_path = ''
as $$ select private.revoke_application_password(p_id) $$;

/** Checks a publishing tool's credentials (service role only; see private.authenticate_application_password). */
create function public.authenticate_application_password(p_organization_id uuid, p_email text, p_password text, p_ip inet, p_user_agent text)
returns jsonb
language sql volatile security invoker set search_path = ''
as $$ select private.authenticate_application_password(p_organization_id, p_email, p_password, p_ip, p_user_agent) $$;

revoke execute on function private.application_password_hash(text), private.create_application_password(uuid, text),
  private.revoke_application_password(uuid), private.authenticate_application_password(uuid, text, text, inet, text)
  from public, anon, authenticated;
grant execute on function private.create_application_password(uuid, text), private.revoke_application_password(uuid)
  to authenticated, service_role;
grant execute on function private.authenticate_application_password(uuid, text, text, inet, text)
  to service_role;
revoke execute on function public.create_application_password(uuid, text), public.revoke_application_password(uuid),
  public.authenticate_application_password(uuid, text, text, inet, text) from public, anon, authenticated;
grant execute on function public.create_application_password(uuid, text), public.revoke_application_password(uuid)
  to authenticated, service_role;
grant execute on function public.authenticate_application_password(uuid, text, text, inet, text) to service_role;
