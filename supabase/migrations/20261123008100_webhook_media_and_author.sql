-- The writing tool's images go into the Media Library, and its posts have an author the admin chose.
--
-- 1. upsert_webhook_post / receive_webhook_delivery take p_featured_media_id (the image the webhook function
--    stored in the organization's media, from image_base64 or a fetched image_url) instead of
--    p_featured_image_url: the site no longer hotlinks the tool's WordPress. A redelivery without an image
--    keeps the post's featured image (an editor may have chosen one since); one with an image sets it and
--    clears a legacy featured_image_url. The category lookup is private.webhook_category_for, the same
--    function the dry run asks, so the two can no longer drift apart.
-- 2. set_webhook_author: an organization's admin picks the author of the tool's posts (an editor or admin of
--    the organization, or nobody), audited. Deliveries already used webhook_integrations.author_id; nothing
--    in the API could set it.
-- 3. A change of an author card (name, title, bio, website, photo) requests a rebuild where it is shown.

-- 1. THE FEATURED IMAGE FROM THE MEDIA LIBRARY

drop function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], text, integer, text, integer, text, integer);
drop function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], text, integer, text);

/**
 * Creates or updates (same organization and slug) the writing tool's post: publish mode from the
 * organization's settings, the configured author while still an active member, the category by
 * private.webhook_category_for (by name, else a former slug) or created, the featured image from the
 * organization's media; and the delivery record in the same statement. Logged and revised via 'webhook'.
 */
create function public.upsert_webhook_post(
  p_organization_id uuid,
  p_slug text,
  p_title text,
  p_content text,
  p_content_source text,
  p_content_format text,
  p_excerpt text default null,
  p_category_name text default null,
  p_category_slug text default null,
  p_tags text[] default null,
  p_featured_media_id uuid default null,
  p_reading_time integer default null,
  p_note text default null
) returns table (post_id uuid, post_status text, post_slug text, created boolean)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_mode text;
  v_author uuid;
  v_category uuid;
begin
  select coalesce(o.settings #>> '{webhook,publish_mode}', 'publish') into v_mode
  from public.organizations o where o.id = p_organization_id;
  if not found then
    raise exception 'upsert_webhook_post: no organization %', p_organization_id using errcode = 'P0002';
  end if;
  perform set_config('app.post_change', 'webhook', true);

  -- The configured author only while they still belong to the organization.
  select w.author_id into v_author
  from public.webhook_integrations w
  join public.organization_memberships m on m.user_id = w.author_id and m.organization_id = w.organization_id
  where w.organization_id = p_organization_id;

  if p_category_name is not null then
    v_category := private.webhook_category_for(p_organization_id, p_category_name, p_category_slug);
    if v_category is null then
      -- The no-op update makes a concurrent creator's row come back from RETURNING too.
      insert into public.blog_categories as c (organization_id, name, slug)
      values (p_organization_id, p_category_name, p_category_slug)
      on conflict (organization_id, slug) do update set slug = c.slug
      returning c.id into v_category;
    end if;
  end if;

  return query
  with upserted as (
    insert into public.blog_posts as p (
      organization_id, slug, title, content, content_source, content_format, excerpt, category_id, tags,
      featured_media_id, reading_time, status, published_at, author_id
    ) values (
      p_organization_id, p_slug, p_title, p_content, p_content_source, p_content_format, p_excerpt, v_category,
      p_tags, p_featured_media_id, p_reading_time, case when v_mode = 'publish' then 'published' else 'draft' end,
      case when v_mode = 'publish' then now() end, v_author
    )
    on conflict (organization_id, slug) do update set
      title = excluded.title,
      content = excluded.content,
      content_source = excluded.content_source,
      content_format = excluded.content_format,
      excerpt = excluded.excerpt,
      category_id = excluded.category_id,
      tags = excluded.tags,
      featured_media_id = coalesce(excluded.featured_media_id, p.featured_media_id),
      featured_image_url = case when excluded.featured_media_id is null then p.featured_image_url end,
      reading_time = excluded.reading_time
    -- xmax is 0 only on a row this statement inserted.
    returning p.id, p.status, p.slug, (p.xmax = 0) as inserted
  ), delivery as (
    insert into public.webhook_deliveries (organization_id, status_code, post_id, slug, note)
    select p_organization_id, case when u.inserted then 201 else 200 end, u.id, u.slug, p_note from upserted u
  )
  select u.id, u.status, u.slug, u.inserted from upserted u;
  perform set_config('app.post_change', '', true);
end;
$$;
revoke execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text)
  from public, anon, authenticated;
grant execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text)
  to service_role;

/**
 * Receives one writing-tool delivery for the organization named by p_token (the public webhook) or by
 * p_organization_id (the back office, whose caller the function has verified as an admin). Answers
 * `{ found: false }` for an unknown token or organization, having written nothing. Otherwise
 * `{ found: true, organization: { slug, domain }, ... }` and the delivery is recorded:
 * - p_refused_status given: the refusal with p_refused_error, no post;
 * - the upsert failed: a 500 delivery whose error names its reference, and `error` and `reference` in the
 *   answer; the upsert's writes are rolled back;
 * - else `post: { id, status, slug, created }` and `rebuild: { batches }`, the rebuilds already due.
 */
create function public.receive_webhook_delivery(
  p_token text default null,
  p_organization_id uuid default null,
  p_slug text default null,
  p_title text default null,
  p_content text default null,
  p_content_source text default null,
  p_content_format text default null,
  p_excerpt text default null,
  p_category_name text default null,
  p_category_slug text default null,
  p_tags text[] default null,
  p_featured_media_id uuid default null,
  p_reading_time integer default null,
  p_note text default null,
  p_refused_status integer default null,
  p_refused_error text default null,
  p_quiet_window_ms integer default 60000
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_org_id uuid;
  v_org jsonb;
  v_post record;
  v_batches jsonb;
  v_delivery_id uuid;
  v_reference text;
begin
  if (p_token is null) = (p_organization_id is null) then
    raise exception 'receive_webhook_delivery: give either p_token or p_organization_id' using errcode = '22023';
  end if;
  v_org_id := coalesce(p_organization_id, public.organization_for_webhook_token(p_token));
  select jsonb_build_object('slug', o.slug, 'domain', o.domain) into v_org
  from public.organizations o where o.id = v_org_id;
  if v_org is null then
    return jsonb_build_object('found', false);
  end if;

  if p_refused_status is not null then
    insert into public.webhook_deliveries (organization_id, status_code, slug, error)
    values (v_org_id, p_refused_status, p_slug, left(p_refused_error, 2000));
    return jsonb_build_object('found', true, 'organization', v_org);
  end if;

  begin
    select * into strict v_post from public.upsert_webhook_post(
      v_org_id, p_slug, p_title, p_content, p_content_source, p_content_format, p_excerpt, p_category_name,
      p_category_slug, p_tags, p_featured_media_id, p_reading_time, p_note
    );
  exception when others then
    v_delivery_id := gen_random_uuid();
    v_reference := left(v_delivery_id::text, 8);
    insert into public.webhook_deliveries (id, organization_id, status_code, slug, error)
    values (v_delivery_id, v_org_id, 500, p_slug,
            left('Could not store the post (reference ' || v_reference || '): ' || sqlerrm, 2000));
    return jsonb_build_object('found', true, 'organization', v_org, 'error', sqlerrm, 'reference', v_reference);
  end;

  -- The post's trigger recorded the rebuild request; send at once only what is already due.
  select coalesce(jsonb_agg(to_jsonb(b)), '[]'::jsonb) into v_batches
  from public.claim_due_site_rebuilds(p_quiet_window_ms, v_org_id) b;

  return jsonb_build_object(
    'found', true,
    'organization', v_org,
    'post', jsonb_build_object('id', v_post.post_id, 'status', v_post.post_status, 'slug', v_post.post_slug, 'created', v_post.created),
    'rebuild', jsonb_build_object('batches', v_batches)
  );
end;
$$;
revoke execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer)
  from public, anon, authenticated;
grant execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer)
  to service_role;

-- 2. THE AUTHOR OF THE TOOL'S POSTS

create function private.set_webhook_author(p_organization_id uuid, p_author_id uuid) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_from uuid;
begin
  if not private.is_org_admin(p_organization_id) then
    raise exception 'set_webhook_author: only an admin of organization % can choose the author', p_organization_id
      using errcode = '42501';
  end if;
  if p_author_id is not null and not exists (
    select 1 from public.organization_memberships m join public.profiles p on p.id = m.user_id
    where m.organization_id = p_organization_id and m.user_id = p_author_id
      and m.role in ('admin', 'editor') and m.is_active and p.is_active
  ) then
    raise exception 'set_webhook_author: the author must be an active editor or admin of the organization'
      using errcode = '22023';
  end if;
  select w.author_id into v_from from public.webhook_integrations w where w.organization_id = p_organization_id for update;
  if not found then
    raise exception 'set_webhook_author: create the webhook address first' using errcode = 'P0002';
  end if;
  if v_from is not distinct from p_author_id then
    return p_author_id;
  end if;
  update public.webhook_integrations set author_id = p_author_id where organization_id = p_organization_id;
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  values (private.current_active_user_id(), p_organization_id, 'webhook_author_changed', 'user',
          p_author_id::text, jsonb_build_object('from', v_from, 'to', p_author_id));
  return p_author_id;
end;
$$;
revoke execute on function private.set_webhook_author(uuid, uuid) from public, anon, authenticated;
grant execute on function private.set_webhook_author(uuid, uuid) to authenticated;

/** Sets the author of the writing tool's posts (an active editor or admin of the organization, or null). Admins only, audited. */
create function public.set_webhook_author(p_organization_id uuid, p_author_id uuid) returns uuid
language sql volatile security invoker set search_path = ''
as $$ select private.set_webhook_author(p_organization_id, p_author_id) $$;
revoke execute on function public.set_webhook_author(uuid, uuid) from public, anon;
grant execute on function public.set_webhook_author(uuid, uuid) to authenticated;

-- 3. AN AUTHOR CARD CHANGED IS A CHANGE VISITORS SEE

/**
 * A change of what the public author card shows (name, title, bio, website, photo) requests a rebuild of
 * every organization where the person authors a published post. Sign-ins (last_login) and the rest do not.
 */
create function private.request_rebuild_for_authors() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_changes jsonb;
begin
  select jsonb_agg(distinct jsonb_build_object('organization_id', p.organization_id, 'reason', 'Author card changed: ' || coalesce(n.full_name, 'an author')))
  into v_changes
  from old_rows o
  join new_rows n on n.id = o.id
  join public.blog_posts p on p.author_id = n.id and p.status = 'published'
  where (o.full_name, o.bio, o.avatar_url, o.author_title, o.author_website)
    is distinct from (n.full_name, n.bio, n.avatar_url, n.author_title, n.author_website);
  if v_changes is not null then perform private.record_rebuild_requests(v_changes); end if;
  return null;
end;
$$;
revoke execute on function private.request_rebuild_for_authors() from public, anon, authenticated;
create trigger profiles_request_rebuild after update on public.profiles
  referencing old table as old_rows new table as new_rows for each statement execute function private.request_rebuild_for_authors();
