-- OPENING THE DASHBOARD IS NOT AN AUDIT EVENT. The back office no longer logs `admin_dashboard_access` on
-- every page load (sign-ins and actions are what the audit log is for), so signed-in users may no longer
-- write it either. Rows already logged stay (nothing saved is lost); the Security tab reads them as sentences.

/** The actions a signed-in user may write to the activity log themselves (the server logs the others). */
create or replace function private.is_client_activity(p_action text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select p_action in (
    'admin_logout', 'password_changed', 'post_deleted', 'post_published',
    'role_changed', 'role_changed_bulk', 'user_activated', 'user_activated_bulk', 'user_deactivated',
    'user_deactivated_bulk', 'user_soft_deleted_bulk', 'session_terminated'
  )
$$;
