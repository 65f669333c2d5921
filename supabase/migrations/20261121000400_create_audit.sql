-- AUDIT AND STAFF ACCESS: invitations, activity logs, sign-in attempts.
-- Only admins read them (for their organization); logs and attempts are append-only for everyone but the
-- service role.

create table public.user_invitations (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  email text not null check (public.is_valid_email(email) and email = lower(email)),
  role text not null default 'viewer' check (role in ('admin', 'editor', 'viewer')),
  -- Hex SHA-256 of the invitation token; the token itself is only ever in the invitation link.
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  invited_by uuid references public.profiles (id) on delete set null,
  expires_at timestamptz not null default now() + interval '7 days',
  used_at timestamptz,
  created_at timestamptz not null default now()
);
alter table public.user_invitations enable row level security;
create index user_invitations_organization_id_idx on public.user_invitations (organization_id);
create index user_invitations_invited_by_idx on public.user_invitations (invited_by);
-- One pending invitation per person and organization.
create unique index user_invitations_pending_email_idx on public.user_invitations (organization_id, email)
  where used_at is null;

create table public.user_activity_logs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references public.profiles (id) on delete set null,
  -- The organization the entry belongs to (the user's primary organization when logged), for admin scoping.
  organization_id uuid references public.organizations (id) on delete cascade,
  action text not null check (action ~ '^[a-z][a-z0-9_]{1,63}$'),
  resource_type text check (length(resource_type) between 1 and 64),
  resource_id text check (length(resource_id) between 1 and 128),
  details jsonb not null default '{}' check (jsonb_typeof(details) = 'object'),
  created_at timestamptz not null default now()
);
alter table public.user_activity_logs enable row level security;
create index user_activity_logs_user_id_idx on public.user_activity_logs (user_id, created_at desc);
create index user_activity_logs_organization_id_idx on public.user_activity_logs (organization_id, created_at desc);

create table public.login_attempts (
  id uuid primary key default gen_random_uuid(),
  email text not null check (length(email) between 1 and 254),
  success boolean not null,
  failure_reason text check (length(failure_reason) <= 200),
  ip_address inet,
  user_agent text check (length(user_agent) <= 1000),
  created_at timestamptz not null default now()
);
alter table public.login_attempts enable row level security;
-- Lockout counts recent failures per address; admins list attempts by member e-mail.
create index login_attempts_email_idx on public.login_attempts (lower(email), created_at desc);

/**
 * Writes one activity entry. Allowed for the caller's own user id, for an admin about a user of their
 * organization, and for the service role. Returns the entry's id.
 */
create function public.log_user_activity(
  p_user_id uuid,
  p_action text,
  p_details jsonb default '{}',
  p_resource_type text default null,
  p_resource_id text default null
) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_org uuid;
  v_id uuid;
begin
  select p.organization_id into v_org from public.profiles p where p.id = p_user_id;
  if not found then
    raise exception 'log_user_activity: no profile %', p_user_id using errcode = 'P0002';
  end if;
  if coalesce((select auth.jwt()) ->> 'role', '') not in ('service_role', '')
     and p_user_id is distinct from public.current_active_user_id()
     and not public.is_org_admin(v_org) then
    raise exception 'log_user_activity: only the user or an admin of their organization can log for %', p_user_id
      using errcode = '42501';
  end if;
  insert into public.user_activity_logs (user_id, organization_id, action, details, resource_type, resource_id)
  values (p_user_id, v_org, p_action, coalesce(p_details, '{}'), p_resource_type, p_resource_id)
  returning id into v_id;
  return v_id;
end;
$$;
revoke execute on function public.log_user_activity(uuid, text, jsonb, text, text) from public, anon;
grant execute on function public.log_user_activity(uuid, text, jsonb, text, text) to authenticated, service_role;

/** True when the e-mail belongs to a member of an organization the caller administers. */
create function public.is_member_email_of_admin_org(p_email text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1
    from public.profiles p
    join public.organization_memberships m on m.user_id = p.id
    where lower(p.email) = lower(p_email)
      and public.is_org_admin(m.organization_id)
  )
$$;
revoke execute on function public.is_member_email_of_admin_org(text) from public, anon;
grant execute on function public.is_member_email_of_admin_org(text) to authenticated, service_role;

-- PRIVILEGES AND POLICIES.

revoke all on table public.user_invitations, public.user_activity_logs, public.login_attempts from anon, authenticated;
grant select, insert, delete on table public.user_invitations to authenticated;
grant update (role, expires_at, used_at) on table public.user_invitations to authenticated;
grant select on table public.user_activity_logs, public.login_attempts to authenticated;
grant all on table public.user_invitations, public.user_activity_logs, public.login_attempts to service_role;

create policy "Admins can read invitations of their organization" on public.user_invitations
  for select to authenticated using ((select public.is_org_admin(organization_id)));
create policy "Admins can invite to their organization" on public.user_invitations
  for insert to authenticated with check (
    (select public.is_org_admin(organization_id)) and invited_by = (select auth.uid())
  );
create policy "Admins can update invitations of their organization" on public.user_invitations
  for update to authenticated
  using ((select public.is_org_admin(organization_id)))
  with check ((select public.is_org_admin(organization_id)));
create policy "Admins can revoke invitations of their organization" on public.user_invitations
  for delete to authenticated using ((select public.is_org_admin(organization_id)));

create policy "Users can read their own activity" on public.user_activity_logs
  for select to authenticated using (user_id = (select public.current_active_user_id()));
create policy "Admins can read activity of their organization" on public.user_activity_logs
  for select to authenticated using ((select public.is_org_admin(organization_id)));

create policy "Admins can read sign-in attempts of their members" on public.login_attempts
  for select to authenticated using (public.is_member_email_of_admin_org(email));
