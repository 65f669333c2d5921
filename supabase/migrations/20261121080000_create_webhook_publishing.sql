-- THE WRITING-TOOL WEBHOOK AND THE REBUILD PIPELINE: what the Netlify functions zimmwriter-webhook and
-- publish-scheduled need beyond the tables of 20261121000500 (all called with the service role only).
--
-- * webhook_integrations.author_id: the author the integration's posts get (null = no author).
-- * upsert_webhook_post(): category lookup/creation, the idempotent post upsert per (organization, slug) and
--   the delivery record in ONE transaction, so concurrent identical deliveries converge on one row.
-- * site_rebuild_requests.batch_id / attempts: the requests coalesced into one build-hook call share a batch;
--   claim_due_site_rebuilds() claims due requests atomically, so concurrent flushers never call twice.
-- * Build hooks may point at a loopback http address (local development and tests); elsewhere https only.

alter table public.webhook_integrations
  add column author_id uuid references public.profiles (id) on delete set null;
comment on column public.webhook_integrations.author_id is
  'Author of the posts the writing tool delivers (a member of the organization), or null for none.';
create index webhook_integrations_author_id_idx on public.webhook_integrations (author_id);
grant select (author_id) on table public.webhook_integrations to authenticated;

alter table public.webhook_deliveries
  add column note text check (length(note) <= 2000);
comment on column public.webhook_deliveries.note is 'What the webhook did differently from the payload (e.g. an ignored image_base64).';

alter table public.site_rebuild_settings drop constraint site_rebuild_settings_build_hook_url_check;
alter table public.site_rebuild_settings add constraint site_rebuild_settings_build_hook_url_check check (
  length(build_hook_url) <= 2048
  and (build_hook_url ~ '^https://[^\s/?#]+[^\s]*$' or build_hook_url ~ '^http://(127\.0\.0\.1|localhost)(:[0-9]{1,5})?/[^\s]*$')
);

alter table public.site_rebuild_requests
  add column batch_id uuid,
  add column attempts integer not null default 0 check (attempts between 0 and 20);
comment on column public.site_rebuild_requests.batch_id is
  'Requests coalesced into one build-hook call (or local build) share this id; null while pending.';
comment on column public.site_rebuild_requests.attempts is 'How many times the batch''s hook was called (retries included).';
create index site_rebuild_requests_batch_id_idx on public.site_rebuild_requests (batch_id) where batch_id is not null;

/**
 * Creates or updates the post a writing-tool delivery describes and records the delivery, atomically.
 * Idempotent per (organization, slug): `insert ... on conflict do update`, never check-then-insert, so a
 * retry or a concurrent identical delivery updates the same row. A new post gets the organization's
 * settings.webhook.publish_mode (default publish) and the integration's author; an update changes the
 * content only and keeps status, publication time and author, so a redelivery never unpublishes,
 * republishes or reschedules a post an editor has handled. The category is matched by name
 * (case-insensitive) and created when missing.
 */
create function public.upsert_webhook_post(
  p_organization_id uuid,
  p_slug text,
  p_title text,
  p_content text,
  p_excerpt text default null,
  p_category_name text default null,
  p_category_slug text default null,
  p_tags text[] default null,
  p_featured_image_url text default null,
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

  -- The configured author only while they still belong to the organization.
  select w.author_id into v_author
  from public.webhook_integrations w
  join public.organization_memberships m on m.user_id = w.author_id and m.organization_id = w.organization_id
  where w.organization_id = p_organization_id;

  if p_category_name is not null then
    select c.id into v_category from public.blog_categories c
    where c.organization_id = p_organization_id and lower(c.name) = lower(p_category_name)
    order by c.created_at limit 1;
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
      organization_id, slug, title, content, excerpt, category_id, tags, featured_image_url, reading_time,
      status, published_at, author_id
    ) values (
      p_organization_id, p_slug, p_title, p_content, p_excerpt, v_category, p_tags, p_featured_image_url,
      p_reading_time, case when v_mode = 'publish' then 'published' else 'draft' end,
      case when v_mode = 'publish' then now() end, v_author
    )
    on conflict (organization_id, slug) do update set
      title = excluded.title,
      content = excluded.content,
      excerpt = excluded.excerpt,
      category_id = excluded.category_id,
      tags = excluded.tags,
      featured_image_url = excluded.featured_image_url,
      reading_time = excluded.reading_time
    -- xmax is 0 only on a row this statement inserted.
    returning p.id, p.status, p.slug, (p.xmax = 0) as inserted
  ), delivery as (
    insert into public.webhook_deliveries (organization_id, status_code, post_id, slug, note)
    select p_organization_id, case when u.inserted then 201 else 200 end, u.id, u.slug, p_note from upserted u
  )
  select u.id, u.status, u.slug, u.inserted from upserted u;
end;
$$;
revoke execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text[], text, integer, text)
  from public, anon, authenticated;
grant execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text[], text, integer, text)
  to service_role;

/**
 * Claims the pending rebuild requests that are due and returns one batch per organization, with its build
 * hook (null = none configured). An organization is due when its newest pending request is older than the
 * quiet window (a burst coalesces into one build) or its oldest is older than ten windows (a steady stream
 * still builds). The claim is one UPDATE of rows still 'pending': a concurrent flusher blocks on the row
 * locks, then finds them no longer pending and claims nothing, so every request is sent exactly once.
 */
create function public.claim_due_site_rebuilds(p_quiet_window_ms integer, p_organization_id uuid default null)
returns table (batch_id uuid, organization_id uuid, organization_slug text, build_hook_url text, request_count integer, reasons text[])
language sql volatile security definer set search_path = ''
as $$
  with due as materialized (
    select r.organization_id, gen_random_uuid() as batch_id
    from public.site_rebuild_requests r
    where r.status = 'pending' and (p_organization_id is null or r.organization_id = p_organization_id)
    group by r.organization_id
    having max(r.requested_at) <= now() - make_interval(secs => p_quiet_window_ms / 1000.0)
        or min(r.requested_at) <= now() - make_interval(secs => 10 * p_quiet_window_ms / 1000.0)
  ), claimed as (
    update public.site_rebuild_requests r
    set status = 'sent', sent_at = now(), batch_id = d.batch_id
    from due d
    where r.organization_id = d.organization_id and r.status = 'pending'
    returning r.batch_id, r.organization_id, r.reason
  )
  select c.batch_id, c.organization_id, o.slug, s.build_hook_url, count(*)::integer, array_agg(distinct c.reason)
  from claimed c
  join public.organizations o on o.id = c.organization_id
  left join public.site_rebuild_settings s on s.organization_id = c.organization_id
  group by c.batch_id, c.organization_id, o.slug, s.build_hook_url
$$;
revoke execute on function public.claim_due_site_rebuilds(integer, uuid) from public, anon, authenticated;
grant execute on function public.claim_due_site_rebuilds(integer, uuid) to service_role;
