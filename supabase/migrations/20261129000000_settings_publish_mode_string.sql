-- ORGANIZATION SETTINGS: A PUBLISH MODE IS A STRING.
--
-- The settings check let `{"webhook": {"publish_mode": null}}` through (`null not in (...)` is not true), a
-- value OrganizationSettingsSchema refuses: a stored null would have stopped every site and function reading
-- the organization. The check now wants one of the three modes when the key is there
-- (tests/integration/settings-contract.test.ts holds the check and the schema together), and a null already
-- stored is removed, which reads as before: no mode means publish.

update public.organizations
set settings = settings #- '{webhook,publish_mode}'
where jsonb_typeof(settings #> '{webhook,publish_mode}') = 'null';

/**
 * The organization settings document (OrganizationSettingsSchema in src/schemas/organization.ts): all keys
 * optional, no unknown keys, strings bounded, URLs http(s), a phone with 7 to 15 digits, a webhook publish
 * mode of publish, draft or queue. Everything in it is public.
 */
create or replace function public.is_valid_organization_settings(p_settings jsonb) returns boolean
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
        if jsonb_typeof(v_value) <> 'string'
          or (v_value #>> '{}') !~ '^[0-9+().\s-]{7,40}$'
          or length(regexp_replace(v_value #>> '{}', '[^0-9]', '', 'g')) not between 7 and 15
        then return false; end if;
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
        if v_value ? 'publish_mode' and (
          jsonb_typeof(v_value -> 'publish_mode') <> 'string' or (v_value ->> 'publish_mode') not in ('publish', 'draft', 'queue')
        ) then return false; end if;
      else
        return false;
    end case;
  end loop;
  return true;
end;
$$;
