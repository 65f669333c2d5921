-- The local backend's own tables, in the schema `local_dev`: nothing hosted Supabase has, so they stay out of
-- Supabase's schemas. The schema is not exposed to the API and the API roles have no grant on it. Applied
-- (as the superuser `supabase_admin`) on every start after bootstrap.sql, so every statement is idempotent: a
-- cluster created before a table was added gets it on its next start.

create schema if not exists local_dev;

-- MAIL OUTBOX ------------------------------------------------------------------------------------------
-- The local backend sends no email: Auth writes each mail here instead. Read it with `npm run db:mail` or
-- GET /__local/outbox.
create table if not exists local_dev.outbox (
  id bigint generated always as identity primary key,
  to_email text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  link text,
  type text not null,
  created_at timestamptz not null default now()
);
create index if not exists outbox_to_email_idx on local_dev.outbox (lower(to_email), created_at desc);

-- WRONG VERIFICATION CODES -----------------------------------------------------------------------------
-- How many wrong codes were sent (POST /auth/v1/verify with email + code) against a user's outstanding
-- token of one kind since it was issued; at the limit the token is invalidated (auth/verification.ts).
-- Kept in the database, like the tokens, so the count holds across restarts and API processes.
create table if not exists local_dev.verification_attempts (
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type auth.one_time_token_type not null,
  failed_attempts integer not null default 0 check (failed_attempts >= 0),
  updated_at timestamptz not null default now(),
  primary key (user_id, token_type)
);

-- WHO MAY USE THEM -------------------------------------------------------------------------------------
-- The local Auth (connected as GoTrue's role) writes both; `postgres` reads the outbox (`npm run db:mail`) and
-- tests read both. Neither may create anything here.
grant usage on schema local_dev to supabase_auth_admin, postgres;
grant select, insert, update, delete on all tables in schema local_dev to supabase_auth_admin, postgres;
