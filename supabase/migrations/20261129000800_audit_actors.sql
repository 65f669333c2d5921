-- WHO REALLY ACTED. An entry without a member was read as the writing tool's (details.by_server) or as
-- "Someone": the seed's categories read "ZimmWriter (writing tool) created the blog category …" even at an
-- organization without a webhook, and the operator's `npm run site:add` read "Someone set the publishing
-- queue". The server's own writers now say who they are, and the entry records it as details.via:
-- - the seed sets `app.actor` to 'seed' for its session (supabase/seed.sql);
-- - the operator's commands (tools/site-add.ts) send the header `x-app-actor: operator` with the service key;
-- - the writing tool and the scheduler already record via 'webhook' and 'schedule'.
-- Only entries without a member written by the server (the service role or a direct connection) take the mark;
-- a member's own entries, and every client's, are never relabelled.

/** Marks the server's own entries with the writer it names ('seed' or 'operator'), replacing by_server. */
create function private.note_server_actor() returns trigger
language plpgsql set search_path = ''
as $$
declare
  v_actor text := coalesce(
    nullif(current_setting('app.actor', true), ''),
    nullif(current_setting('request.headers', true), '')::jsonb ->> 'x-app-actor'
  );
begin
  if new.user_id is null and v_actor in ('seed', 'operator') and private.is_service_caller()
     and coalesce(new.details ->> 'via', '') not in ('webhook', 'schedule') then
    new.details := (coalesce(new.details, '{}'::jsonb) - 'by_server') || jsonb_build_object('via', v_actor);
  end if;
  return new;
end;
$$;
revoke execute on function private.note_server_actor() from public, anon, authenticated;
create trigger user_activity_logs_note_server_actor before insert on public.user_activity_logs
  for each row execute function private.note_server_actor();
