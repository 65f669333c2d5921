-- Deliveries under the name their writer gave the webhook.
--
-- ZimmWriter asks its user for a webhook name when the webhook is saved and sends that name as `webhook_name`
-- ("Identifier for the webhook"). The webhook accepted only the literal `blog_post_created`, so a real
-- delivery from a webhook named "Agency blog" was refused. Any name (1 to 100 characters, checked by the
-- function's schema and here) is accepted now and kept with the delivery, refused ones included, so the
-- delivery log shows which of the writer's webhooks sent what. The name is a label: it selects nothing.

alter table public.webhook_deliveries
  add column webhook_name text check (length(webhook_name) between 1 and 100);
comment on column public.webhook_deliveries.webhook_name is 'The name the writing tool''s user gave the webhook (its webhook_name field), when the delivery carried one.';

drop function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer);
drop function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text);

/**
 * Creates or updates (same organization and slug) the writing tool's post: publish mode from the
 * organization's settings, the configured author while still an active member, the category by
 * private.webhook_category_for (by name, else a former slug) or created, the featured image from the
 * organization's media; and the delivery record (with the webhook's name) in the same statement. Logged and revised via 'webhook'.
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
  p_note text default null,
  p_webhook_name text default null
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
    insert into public.webhook_deliveries (organization_id, status_code, post_id, slug, note, webhook_name)
    select p_organization_id, case when u.inserted then 201 else 200 end, u.id, u.slug, p_note, p_webhook_name from upserted u
  )
  select u.id, u.status, u.slug, u.inserted from upserted u;
  perform set_config('app.post_change', '', true);
end;
$$;
revoke execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text)
  from public, anon, authenticated;
grant execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, text)
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
  p_quiet_window_ms integer default 60000,
  p_webhook_name text default null
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
    insert into public.webhook_deliveries (organization_id, status_code, slug, error, webhook_name)
    values (v_org_id, p_refused_status, p_slug, left(p_refused_error, 2000), p_webhook_name);
    return jsonb_build_object('found', true, 'organization', v_org);
  end if;

  begin
    select * into strict v_post from public.upsert_webhook_post(
      v_org_id, p_slug, p_title, p_content, p_content_source, p_content_format, p_excerpt, p_category_name,
      p_category_slug, p_tags, p_featured_media_id, p_reading_time, p_note, p_webhook_name
    );
  exception when others then
    v_delivery_id := gen_random_uuid();
    v_reference := left(v_delivery_id::text, 8);
    insert into public.webhook_deliveries (id, organization_id, status_code, slug, error, webhook_name)
    values (v_delivery_id, v_org_id, 500, p_slug,
            left('Could not store the post (reference ' || v_reference || '): ' || sqlerrm, 2000), p_webhook_name);
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
revoke execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text)
  from public, anon, authenticated;
grant execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text)
  to service_role;
