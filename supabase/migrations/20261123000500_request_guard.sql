-- A SESSION THAT ENDS IS REFUSED AT ONCE, NOT ANSWERED WITH EMPTY DATA.
--
-- Row-level security hides rows from a caller it does not know: a session ended by an admin, a deactivated
-- account, a session taken straight from Auth's token endpoint all read empty tables, which a browser
-- cannot tell from "no data". PostgREST's pre-request function runs before every API request: a request that
-- carries a user's token (role authenticated) whose session the database no longer vouches for is refused
-- with 401 `session_ended` (403 `account_inactive` for a deactivated account, 403 `membership_ended` when no
-- organization has the caller as an active member any more), so the back office sends the user away at the
-- first request. (A member deactivated in one of several organizations still reads the others: the back
-- office notices at its next access check.) Anonymous and service-role requests are untouched.
--
-- Hosted Supabase reads the setting below from the authenticator role (PostgREST's `db-pre-request`); the
-- local backend does the same.

/** PostgREST pre-request check: refuses an authenticated request whose session, account or memberships have ended. */
create function private.check_request() returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if coalesce((select auth.jwt()) ->> 'role', '') <> 'authenticated' then
    return;
  end if;
  if private.current_active_user_id() is null then
    if exists (select 1 from public.profiles p where p.id = (select auth.uid()) and not p.is_active) then
      raise sqlstate 'PT403' using message = 'account_inactive', detail = 'This account is deactivated.';
    end if;
    raise sqlstate 'PT401' using message = 'session_ended', detail = 'This session has ended. Sign in again.';
  end if;
  if not exists (
    select 1 from public.organization_memberships m
    where m.user_id = (select private.current_active_user_id()) and m.is_active
  ) then
    raise sqlstate 'PT403' using message = 'membership_ended', detail = 'You are not an active member of any organization.';
  end if;
end;
$$;

grant execute on function private.check_request() to anon, authenticated, service_role;

alter role authenticator set pgrst.db_pre_request = 'private.check_request';
notify pgrst, 'reload config';
