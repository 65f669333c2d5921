-- NEWSLETTER SUBSCRIBERS, the writing-tool WEBHOOK integration and SITE REBUILDS.
-- All written by Netlify functions with the service role; admins read them for their organization.
--
-- Webhook token hashing scheme: the token is a random string (rotate_webhook_token makes 32 random bytes,
-- hex-encoded, prefixed "whk_"); only encode(extensions.digest(token, 'sha256'), 'hex') is stored, i.e. the
-- lower-case hex SHA-256 of the token's UTF-8 bytes. The webhook function hashes the token from the URL the
-- same way (or calls organization_for_webhook_token) and compares hashes.

create table public.newsletter_subscribers (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  email text not null check (public.is_valid_email(email)),
  created_at timestamptz not null default now()
);
alter table public.newsletter_subscribers enable row level security;
create unique index newsletter_subscribers_email_idx on public.newsletter_subscribers (organization_id, lower(email));

create table public.webhook_integrations (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null unique references public.organizations (id) on delete cascade,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  -- The token replaced by the last rotation keeps working for 24 hours, so the writing tool can be updated.
  previous_token_hash text check (previous_token_hash ~ '^[0-9a-f]{64}$'),
  previous_token_expires_at timestamptz,
  created_at timestamptz not null default now(),
  rotated_at timestamptz,
  check ((previous_token_hash is null) = (previous_token_expires_at is null))
);
alter table public.webhook_integrations enable row level security;
create index webhook_integrations_previous_token_hash_idx on public.webhook_integrations (previous_token_hash);

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  received_at timestamptz not null default now(),
  status_code integer not null check (status_code between 100 and 599),
  post_id uuid references public.blog_posts (id) on delete set null,
  slug text check (length(slug) <= 200),
  error text check (length(error) <= 2000)
);
alter table public.webhook_deliveries enable row level security;
create index webhook_deliveries_organization_id_idx on public.webhook_deliveries (organization_id, received_at desc);
create index webhook_deliveries_post_id_idx on public.webhook_deliveries (post_id);

create table public.site_rebuild_settings (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  -- Netlify build hook: whoever knows it can trigger builds, so it is never readable by visitors.
  build_hook_url text check (build_hook_url ~ '^https://[^\s/?#]+[^\s]*$' and length(build_hook_url) <= 2048),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.site_rebuild_settings enable row level security;

create trigger site_rebuild_settings_set_updated_at before update on public.site_rebuild_settings
  for each row execute function public.set_updated_at();

create table public.site_rebuild_requests (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  reason text not null check (length(reason) between 1 and 200),
  requested_at timestamptz not null default now(),
  sent_at timestamptz,
  finished_at timestamptz,
  status text not null default 'pending' check (status in ('pending', 'sent', 'succeeded', 'failed', 'skipped')),
  error text check (length(error) <= 2000)
);
alter table public.site_rebuild_requests enable row level security;
create index site_rebuild_requests_organization_id_idx on public.site_rebuild_requests (organization_id, requested_at desc);
-- The debouncer looks for the pending request of an organization.
create index site_rebuild_requests_pending_idx on public.site_rebuild_requests (organization_id) where status = 'pending';

/** Hex SHA-256 of a webhook token: the only form in which tokens are stored. */
create function public.hash_webhook_token(p_token text) returns text
language sql immutable parallel safe set search_path = ''
as $$ select encode(extensions.digest(p_token, 'sha256'), 'hex') $$;

/**
 * Makes a new webhook token for an organization (admins of it, or the service role) and returns it: the
 * only time it is visible. The previous token keeps working for 24 hours.
 */
create function public.rotate_webhook_token(p_organization_id uuid) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_token text := 'whk_' || encode(extensions.gen_random_bytes(32), 'hex');
begin
  if coalesce((select auth.jwt()) ->> 'role', '') not in ('service_role', '')
     and not public.is_org_admin(p_organization_id) then
    raise exception 'rotate_webhook_token: only an admin of organization % can rotate its token', p_organization_id
      using errcode = '42501';
  end if;
  insert into public.webhook_integrations (organization_id, token_hash)
  values (p_organization_id, public.hash_webhook_token(v_token))
  on conflict (organization_id) do update set
    previous_token_hash = public.webhook_integrations.token_hash,
    previous_token_expires_at = now() + interval '24 hours',
    token_hash = excluded.token_hash,
    rotated_at = now();
  return v_token;
end;
$$;
revoke execute on function public.rotate_webhook_token(uuid) from public, anon;
grant execute on function public.rotate_webhook_token(uuid) to authenticated, service_role;

/** The organization a webhook token belongs to (current token, or the previous one within its grace). */
create function public.organization_for_webhook_token(p_token text) returns uuid
language sql stable security definer set search_path = ''
as $$
  select w.organization_id
  from public.webhook_integrations w
  where w.token_hash = public.hash_webhook_token(p_token)
     or (w.previous_token_hash = public.hash_webhook_token(p_token) and w.previous_token_expires_at > now())
  limit 1
$$;
revoke execute on function public.organization_for_webhook_token(text) from public, anon, authenticated;
grant execute on function public.organization_for_webhook_token(text) to service_role;

-- PRIVILEGES AND POLICIES.

revoke all on table public.newsletter_subscribers, public.webhook_integrations, public.webhook_deliveries,
  public.site_rebuild_settings, public.site_rebuild_requests from anon, authenticated;
grant select, delete on table public.newsletter_subscribers to authenticated;
-- Admins see when the token was made and rotated, never the hashes.
grant select (id, organization_id, created_at, rotated_at, previous_token_expires_at)
  on table public.webhook_integrations to authenticated;
grant select on table public.webhook_deliveries, public.site_rebuild_requests to authenticated;
grant select, insert, update, delete on table public.site_rebuild_settings to authenticated;
grant all on table public.newsletter_subscribers, public.webhook_integrations, public.webhook_deliveries,
  public.site_rebuild_settings, public.site_rebuild_requests to service_role;

create policy "Admins can read subscribers of their organization" on public.newsletter_subscribers
  for select to authenticated using ((select public.is_org_admin(organization_id)));
create policy "Admins can remove subscribers of their organization" on public.newsletter_subscribers
  for delete to authenticated using ((select public.is_org_admin(organization_id)));

create policy "Admins can read the webhook integration of their organization" on public.webhook_integrations
  for select to authenticated using ((select public.is_org_admin(organization_id)));

create policy "Admins can read webhook deliveries of their organization" on public.webhook_deliveries
  for select to authenticated using ((select public.is_org_admin(organization_id)));

create policy "Admins can read rebuild settings of their organization" on public.site_rebuild_settings
  for select to authenticated using ((select public.is_org_admin(organization_id)));
create policy "Admins can create rebuild settings of their organization" on public.site_rebuild_settings
  for insert to authenticated with check ((select public.is_org_admin(organization_id)));
create policy "Admins can update rebuild settings of their organization" on public.site_rebuild_settings
  for update to authenticated
  using ((select public.is_org_admin(organization_id)))
  with check ((select public.is_org_admin(organization_id)));
create policy "Admins can delete rebuild settings of their organization" on public.site_rebuild_settings
  for delete to authenticated using ((select public.is_org_admin(organization_id)));

create policy "Admins can read rebuild requests of their organization" on public.site_rebuild_requests
  for select to authenticated using ((select public.is_org_admin(organization_id)));
