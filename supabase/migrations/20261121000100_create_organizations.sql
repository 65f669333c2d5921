-- ORGANIZATIONS and the shared building blocks of the schema.
--
-- Access model for every table (details in each migration):
--   * anon and authenticated get only the table privileges they need (explicit grants, nothing implied by
--     default privileges); row-level security decides which rows.
--   * service_role (Netlify functions) bypasses RLS and gets all privileges.
--   * Value rules mirror the zod schemas in src/schemas/ (tests/unit/schemas/sql-mirror.test.ts keeps the
--     patterns identical).

-- Format checks shared by several tables. IMMUTABLE so they can be used in CHECK constraints.

/** Lower-case words joined by single hyphens: the URL form of names (organizations, posts, categories). */
create function public.is_valid_slug(p_value text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$ select p_value ~ '^[a-z0-9]+(?:-[a-z0-9]+)*$' and length(p_value) <= 200 $$;

/** An e-mail address as the forms accept it (same pattern as EMAIL_PATTERN in src/schemas/common.ts). */
create function public.is_valid_email(p_value text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$ select length(p_value) <= 254
  and p_value ~ '^[A-Za-z0-9._%+''-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$' $$;

/** An absolute http(s) URL (same pattern as HTTP_URL_PATTERN in src/schemas/common.ts). */
create function public.is_valid_http_url(p_value text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$ select length(p_value) <= 2048 and p_value ~ '^https?://[^\s/?#]+[^\s]*$' $$;

/** Keeps updated_at honest on every update, whatever the client sends. */
create function public.set_updated_at() returns trigger
language plpgsql set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

/**
 * The organization settings document (OrganizationSettingsSchema in src/schemas/organization.ts): all keys
 * optional, no unknown keys, strings bounded, URLs http(s). Everything in it is public.
 */
create function public.is_valid_organization_settings(p_settings jsonb) returns boolean
language plpgsql immutable parallel safe set search_path = ''
as $$
declare
  v_key text;
  v_value jsonb;
begin
  if jsonb_typeof(p_settings) is distinct from 'object' then
    return false;
  end if;
  for v_key, v_value in select key, value from jsonb_each(p_settings) loop
    case v_key
      when 'blog_title' then
        if jsonb_typeof(v_value) <> 'string' or length(v_value #>> '{}') not between 1 and 120 then return false; end if;
      when 'blog_description' then
        if jsonb_typeof(v_value) <> 'string' or length(v_value #>> '{}') not between 1 and 500 then return false; end if;
      when 'contact_email' then
        if jsonb_typeof(v_value) <> 'string' or not public.is_valid_email(v_value #>> '{}') then return false; end if;
      when 'contact_phone' then
        if jsonb_typeof(v_value) <> 'string' or (v_value #>> '{}') !~ '^[0-9+().\s-]{7,40}$' then return false; end if;
      when 'booking_embed_url', 'contact_form_embed_url' then
        if jsonb_typeof(v_value) <> 'string' or not public.is_valid_http_url(v_value #>> '{}') then return false; end if;
      when 'social_links' then
        if jsonb_typeof(v_value) <> 'object' then return false; end if;
        if exists (
          select 1 from jsonb_each(v_value) as link
          where link.key not in ('facebook', 'twitter', 'instagram', 'linkedin', 'youtube')
             or jsonb_typeof(link.value) <> 'string'
             or not public.is_valid_http_url(link.value #>> '{}')
        ) then return false; end if;
      when 'webhook' then
        if jsonb_typeof(v_value) <> 'object' then return false; end if;
        if exists (select 1 from jsonb_object_keys(v_value) as k where k <> 'publish_mode') then return false; end if;
        if v_value ? 'publish_mode' and (v_value ->> 'publish_mode') not in ('publish', 'draft') then return false; end if;
      else
        return false;
    end case;
  end loop;
  return true;
end;
$$;

create table public.organizations (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(btrim(name)) between 1 and 120),
  slug text not null unique check (public.is_valid_slug(slug) and length(slug) <= 63),
  -- The site's host name (e.g. scalepromarketing.com); the build matches the deploy host against it.
  domain text unique check (
    domain ~ '^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$' and length(domain) <= 253
  ),
  settings jsonb not null default '{}' check (public.is_valid_organization_settings(settings)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.organizations enable row level security;

comment on table public.organizations is 'A tenant: one public site, its blog and its staff.';
comment on column public.organizations.settings is 'Public site settings (OrganizationSettingsSchema); secrets live in their own tables.';

create trigger organizations_set_updated_at before update on public.organizations
  for each row execute function public.set_updated_at();

revoke all on table public.organizations from anon, authenticated;
grant select on table public.organizations to anon, authenticated;
grant update (name, domain, settings) on table public.organizations to authenticated;
grant all on table public.organizations to service_role;

create policy "Anyone can read organizations" on public.organizations
  for select to anon, authenticated using (true);
-- The update policy needs the membership helpers: it is created with them in the next migration.
