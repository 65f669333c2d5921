-- A media row naming a file not (yet) in the bucket is accepted from the database owner's own sessions: the
-- seed describes files that bucket seeding uploads right after it. Those sessions were recognized by the login
-- name (`postgres`, `supabase_admin`), but the Supabase CLI logs in with a temporary role of its own that acts
-- as `postgres`, so the seed failed there. Now any login that is a member of `postgres` is the owner (the API's
-- `authenticator`, Auth's and Storage's roles never do); superusers hold every role's rights.

create or replace function private.media_from_object() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_metadata jsonb;
  v_owner boolean := pg_catalog.pg_has_role(session_user, 'postgres', 'MEMBER');
begin
  select o.metadata into v_metadata from storage.objects o where o.bucket_id = 'media' and o.name = new.storage_path;
  if not found and not v_owner then
    raise exception 'No uploaded file at %', new.storage_path using errcode = '23503';
  end if;
  new.size_bytes := coalesce((v_metadata ->> 'size')::integer, new.size_bytes);
  new.mime_type := coalesce(v_metadata ->> 'mimetype', new.mime_type);
  new.created_by := coalesce(private.current_active_user_id(), case when private.is_service_caller() or v_owner then new.created_by end);
  return new;
end;
$$;
