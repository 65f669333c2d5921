-- SESSIONS PER BROWSER. Every sign-in is its own Auth session, so one person who signs in again and again from
-- the same browser (a new window, a cleared profile, an expired sign-in) showed as a long list of sessions. The
-- Sessions tab now shows one entry per person and browser (the same user agent: browser, version and system);
-- ending it ends every session of that person in that browser, in one call and one audit entry.

/**
 * Ends a session and the same person's other sessions from the same browser (the same user agent). The caller's
 * right is terminate_session's (the user, an admin of their organization, or the server), checked on the chosen
 * session, which is ended and logged first; the entry then records how many sessions ended. Returns that number.
 */
create function private.terminate_browser_sessions(p_session_id uuid) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_session auth.sessions;
  v_siblings integer;
begin
  select * into v_session from auth.sessions s where s.id = p_session_id;
  perform private.terminate_session(p_session_id);
  delete from auth.refresh_tokens t
  using auth.sessions s
  where t.session_id = s.id and s.user_id = v_session.user_id and s.user_agent is not distinct from v_session.user_agent;
  delete from auth.sessions s where s.user_id = v_session.user_id and s.user_agent is not distinct from v_session.user_agent;
  get diagnostics v_siblings = row_count;
  update public.user_activity_logs l set details = l.details || jsonb_build_object('sessions', v_siblings + 1)
  where l.action = 'session_terminated' and l.resource_type = 'session' and l.resource_id = p_session_id::text;
  return v_siblings + 1;
end;
$$;
revoke execute on function private.terminate_browser_sessions(uuid) from public, anon;
grant execute on function private.terminate_browser_sessions(uuid) to authenticated, service_role;

/** The API's door to private.terminate_browser_sessions. */
create function public.terminate_browser_sessions(p_session_id uuid) returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.terminate_browser_sessions(p_session_id) $$;
revoke execute on function public.terminate_browser_sessions(uuid) from public, anon;
grant execute on function public.terminate_browser_sessions(uuid) to authenticated, service_role;
