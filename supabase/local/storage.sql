-- STORAGE SCHEMA. The part of hosted Supabase's `storage` schema that migrations and policies rely on:
-- buckets, objects and the path helpers policies call. Hosted Supabase creates it itself, so our migrations
-- only add buckets and policies; here the local backend creates it, idempotently, on every start BEFORE the
-- migrations, as Storage's role `supabase_storage_admin` (which owns the schema, made by bootstrap.sql), so
-- it owns every table and function, as on hosted. Column names, types and defaults follow supabase/storage's
-- migrations so a policy written here behaves the same after `supabase db push`.

grant usage on schema storage to anon, authenticated, service_role;
-- `postgres` uses the schema but creates nothing in it: hosted revokes CREATE on it.
grant usage on schema storage to postgres with grant option;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  public boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);
alter table storage.buckets enable row level security;
create unique index if not exists bname on storage.buckets using btree (name);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  -- Hosted's shape: size, mimetype, eTag, cacheControl, lastModified, contentLength, httpStatusCode.
  metadata jsonb,
  user_metadata jsonb,
  version text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  path_tokens text[] generated always as (string_to_array(name, '/')) stored
);
alter table storage.objects enable row level security;
create unique index if not exists bucketid_objname on storage.objects using btree (bucket_id, name);
create index if not exists name_prefix_search on storage.objects using btree (name text_pattern_ops);

-- Hosted grants every API role all four privileges; row-level security decides (service_role bypasses it).
grant select, insert, update, delete on storage.buckets, storage.objects to anon, authenticated, service_role;
-- `postgres` may read and write both (migrations insert buckets, seeds describe files) and grant on them, but
-- does not own them: no ALTER TABLE, no trigger or index of its own. Its policies on them: supautils.sql.
grant all on storage.buckets, storage.objects to postgres with grant option;

-- PATH HELPERS, as hosted defines them: `storage.foldername('org/a/b.png')` = {org,a}, `filename` = b.png,
-- `extension` = png. Policies use them to scope objects by their first folder.
create or replace function storage.foldername(name text) returns text[]
  language plpgsql immutable
  set search_path = ''
as $$
declare
  parts text[];
begin
  select string_to_array(name, '/') into parts;
  return parts[1 : array_length(parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
  language plpgsql immutable
  set search_path = ''
as $$
declare
  parts text[];
begin
  select string_to_array(name, '/') into parts;
  return parts[array_length(parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
  language plpgsql immutable
  set search_path = ''
as $$
declare
  parts text[];
  file text;
begin
  select string_to_array(name, '/') into parts;
  select parts[array_length(parts, 1)] into file;
  return reverse(split_part(reverse(file), '.', 1));
end
$$;

grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role;
