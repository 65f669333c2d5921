-- A WEBHOOK TEST THAT PUBLISHES NOTHING, AND THE PUBLISH-MODE CHOICE (issue 18).
--
-- 1. preview_webhook_delivery: what a delivery would do (create or update which post, with which status,
--    in which category), answered without writing anything. The back office's "Send Test Webhook" asks it
--    after the payload went through the webhook's own parse / validate / render / sanitize step, so a test
--    leaves no post, no revision, no delivery record and no rebuild request. Service role only.
-- 2. set_webhook_publish_mode: an organization's admin chooses what deliveries do (publish at once, or save
--    drafts for review), audited in the same transaction. It is the only writer of settings.webhook from the
--    API: an UPDATE of organizations by a signed-in user keeps the stored settings.webhook (the Settings
--    form sends the whole settings object, possibly read before the mode changed).

-- 1. THE DRY RUN

/**
 * The post a webhook delivery with this slug would update, or null when it would create one: the same
 * organization and slug. Reproduces upsert_webhook_post's `on conflict (organization_id, slug)`; keep the two
 * together.
 */
create function private.webhook_post_for_slug(p_organization_id uuid, p_slug text) returns uuid
language sql stable security invoker set search_path = ''
as $$
  select p.id from public.blog_posts p where p.organization_id = p_organization_id and p.slug = p_slug
$$;
revoke execute on function private.webhook_post_for_slug(uuid, text) from public, anon, authenticated;
grant execute on function private.webhook_post_for_slug(uuid, text) to service_role;

/**
 * The category a webhook delivery naming `p_name` lands in, or null when it would create one: by name
 * (case-insensitively), else by a former slug of a renamed or merged category. Reproduces
 * upsert_webhook_post's lookup; keep the two together.
 */
create function private.webhook_category_for(p_organization_id uuid, p_name text, p_slug text) returns uuid
language sql stable security invoker set search_path = ''
as $$
  select coalesce(
    (select c.id from public.blog_categories c
     where c.organization_id = p_organization_id and lower(c.name) = lower(p_name)
     order by c.created_at limit 1),
    (select r.category_id from public.blog_category_redirects r
     where r.organization_id = p_organization_id and r.old_slug = p_slug)
  )
$$;
revoke execute on function private.webhook_category_for(uuid, text, text) from public, anon, authenticated;
grant execute on function private.webhook_category_for(uuid, text, text) to service_role;

/**
 * What a delivery of this slug, title and category would do for the organization, written nowhere:
 * `{ found: false }` for an unknown organization, else
 * `{ found: true, organization: { slug, domain }, action: 'create' | 'update', post: { id, title, slug,
 * status } | null, status, category: { name, created } }`:
 * - create: `status` follows the organization's publish mode (published or draft);
 * - update: `post` is the post it would overwrite; `status` is that post's own, which an update keeps;
 * - `category.created` is true when the delivery would create the category, and a delivery without a
 *   category lands in the organization's default one.
 * Security invoker and granted to the service role only (it reads every post of the organization).
 */
create function public.preview_webhook_delivery(
  p_organization_id uuid,
  p_slug text,
  p_title text,
  p_category_name text default null,
  p_category_slug text default null
) returns jsonb
language plpgsql stable security invoker set search_path = ''
as $$
declare
  v_org public.organizations;
  v_post public.blog_posts;
  v_category text;
  v_post_id uuid := private.webhook_post_for_slug(p_organization_id, p_slug);
begin
  select * into v_org from public.organizations o where o.id = p_organization_id;
  if v_org.id is null then
    return jsonb_build_object('found', false);
  end if;
  if v_post_id is not null then
    select * into v_post from public.blog_posts p where p.id = v_post_id;
  end if;
  if p_category_name is not null then
    select c.name into v_category from public.blog_categories c
    where c.id = private.webhook_category_for(p_organization_id, p_category_name, p_category_slug);
  else
    select c.name into v_category from public.blog_categories c where c.organization_id = p_organization_id and c.is_default;
  end if;
  return jsonb_build_object(
    'found', true,
    'organization', jsonb_build_object('slug', v_org.slug, 'domain', v_org.domain),
    'action', case when v_post.id is null then 'create' else 'update' end,
    'post', case when v_post.id is not null then
      jsonb_build_object('id', v_post.id, 'title', v_post.title, 'slug', v_post.slug, 'status', v_post.status) end,
    'status', case
      when v_post.id is not null then v_post.status
      when coalesce(v_org.settings #>> '{webhook,publish_mode}', 'publish') = 'publish' then 'published'
      else 'draft' end,
    'category', jsonb_build_object(
      'name', coalesce(v_category, p_category_name, 'Uncategorized'),
      'created', p_category_name is not null and v_category is null)
  );
end;
$$;
revoke execute on function public.preview_webhook_delivery(uuid, text, text, text, text) from public, anon, authenticated;
grant execute on function public.preview_webhook_delivery(uuid, text, text, text, text) to service_role;

-- 2. THE PUBLISH MODE

/**
 * Sets what the organization's webhook deliveries do: 'publish' (published at once) or 'draft' (saved for
 * review). Admins of the organization only (42501), a known mode only (22023). Logs
 * `webhook_publish_mode_changed` with `{ from, to }` in the same transaction; choosing the current mode
 * changes and logs nothing. Returns the mode now in force.
 */
create function private.set_webhook_publish_mode(p_organization_id uuid, p_mode text) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_from text;
begin
  if not private.is_org_admin(p_organization_id) then
    raise exception 'set_webhook_publish_mode: only an admin of organization % can choose its publish mode', p_organization_id
      using errcode = '42501';
  end if;
  if p_mode is null or p_mode not in ('publish', 'draft') then
    raise exception 'set_webhook_publish_mode: the mode is publish or draft, not %', coalesce(p_mode, 'null')
      using errcode = '22023';
  end if;
  select coalesce(o.settings #>> '{webhook,publish_mode}', 'publish') into v_from
  from public.organizations o where o.id = p_organization_id for update;
  if v_from = p_mode then
    return p_mode;
  end if;

  perform set_config('app.webhook_settings_change', 'on', true);
  update public.organizations o
  set settings = jsonb_set(
    coalesce(o.settings, '{}'::jsonb), '{webhook}',
    coalesce(o.settings -> 'webhook', '{}'::jsonb) || jsonb_build_object('publish_mode', p_mode))
  where o.id = p_organization_id;
  perform set_config('app.webhook_settings_change', '', true);

  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  values (private.current_active_user_id(), p_organization_id, 'webhook_publish_mode_changed', 'organization',
          p_organization_id::text, jsonb_build_object('from', v_from, 'to', p_mode));
  return p_mode;
end;
$$;
revoke execute on function private.set_webhook_publish_mode(uuid, text) from public, anon, authenticated;
grant execute on function private.set_webhook_publish_mode(uuid, text) to authenticated;

/** Sets the organization's webhook publish mode ('publish' or 'draft'); admins of it only, audited. */
create function public.set_webhook_publish_mode(p_organization_id uuid, p_mode text) returns text
language sql volatile security invoker set search_path = ''
as $$ select private.set_webhook_publish_mode(p_organization_id, p_mode) $$;
revoke execute on function public.set_webhook_publish_mode(uuid, text) from public, anon;
grant execute on function public.set_webhook_publish_mode(uuid, text) to authenticated;

/**
 * settings.webhook changes only through set_webhook_publish_mode (audited) or the server (service role,
 * migrations, seed). Any other UPDATE keeps the stored value: the Settings form saves the whole settings
 * object, and one read before the mode changed must not switch it back.
 */
create function private.keep_webhook_settings() returns trigger
language plpgsql security invoker set search_path = ''
as $$
begin
  if new.settings -> 'webhook' is distinct from old.settings -> 'webhook'
     and coalesce(current_setting('app.webhook_settings_change', true), '') <> 'on'
     and not private.is_service_caller() then
    new.settings := case
      when old.settings ? 'webhook' then jsonb_set(coalesce(new.settings, '{}'::jsonb), '{webhook}', old.settings -> 'webhook')
      else new.settings - 'webhook' end;
  end if;
  return new;
end;
$$;
revoke execute on function private.keep_webhook_settings() from public, anon, authenticated;
create trigger organizations_keep_webhook_settings before update of settings on public.organizations
  for each row execute function private.keep_webhook_settings();
