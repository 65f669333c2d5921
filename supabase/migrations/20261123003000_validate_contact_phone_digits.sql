-- ORGANIZATION SETTINGS: A CONTACT PHONE HAS 7 TO 15 DIGITS.
--
-- The Settings tab now edits `contact_phone`, which the home and contact pages show as a `tel:` link. The
-- first check allowed any 7 to 40 of the characters people type (`^[0-9+().\s-]{7,40}$`), so "-------"
-- passed and became an empty link. The number must now also have 7 to 15 digits (a local number's 7 at
-- least, E.164's 15 at most), as ContactPhoneSchema in src/schemas/organization.ts says. Everything else
-- is unchanged. Same signature, so `create or replace` keeps the organizations table's CHECK constraint
-- pointing at it; stored rows are not re-checked, a row with an older phone is refused at its next update
-- until the phone is corrected (the Settings form shows the field's error).

/**
 * The organization settings document (OrganizationSettingsSchema in src/schemas/organization.ts): all keys
 * optional, no unknown keys, strings bounded, URLs http(s), a phone with 7 to 15 digits. Everything in it
 * is public.
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
        if v_value ? 'publish_mode' and (v_value ->> 'publish_mode') not in ('publish', 'draft') then return false; end if;
      else
        return false;
    end case;
  end loop;
  return true;
end;
$$;
