-- A lone publish builds at once; a burst still becomes at most two builds.
--
-- Every request waited for 60 s of quiet and then for the scheduler's next minute, so one post published on a
-- quiet afternoon showed after 1 to 2.5 minutes, although it had nothing to coalesce with. Now an
-- organization's pending requests are due:
-- 1. at once, when no build of the organization is running and nothing else was requested or sent in the
--    quiet window before the oldest of them (a lone publish: the first change after a quiet spell);
-- 2. else, as before, once the newest has been quiet for the window (or the oldest waited ten windows), and
--    no build is running.
-- A burst thus makes one build at its first change (rule 1) and one follow-up build for everything that
-- arrived after it, once the burst has been quiet (rule 2): at most two builds, as Netlify's own build queue
-- does (one running, one waiting). Claims of one organization take turns (an advisory lock), so concurrent
-- first deliveries cannot each see themselves alone. Rule 1 can be switched off (p_at_once false,
-- REBUILD_AT_ONCE=off in the functions) where builds must wait for the window, as in the test suites.

drop function public.claim_due_site_rebuilds(integer, uuid);

/**
 * Claims the organizations' due rebuild requests (one organization, or all: then it also leaves the
 * scheduler's heartbeat) and answers one batch per organization: the rules above. The claim marks the rows
 * `sent` with the batch id in one UPDATE, so concurrent callers never claim a request twice.
 */
create function public.claim_due_site_rebuilds(p_quiet_window_ms integer, p_organization_id uuid default null, p_at_once boolean default true)
returns table (batch_id uuid, organization_id uuid, organization_slug text, build_hook_url text, request_count integer, reasons text[])
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  v_window interval := make_interval(secs => p_quiet_window_ms / 1000.0);
begin
  if p_organization_id is null then
    insert into private.rebuild_scheduler (last_run_at, quiet_window_ms) values (now(), p_quiet_window_ms)
    on conflict (id) do update set last_run_at = excluded.last_run_at, quiet_window_ms = excluded.quiet_window_ms;
  end if;
  -- One claimer per organization at a time: two concurrent first deliveries of a burst would each see only
  -- their own request (the other's is not committed yet) and each build at once. In organization order, so
  -- the scheduler's claim of all organizations never deadlocks with another.
  perform pg_advisory_xact_lock(hashtextextended('site_rebuild:' || o.organization_id::text, 0))
  from (
    select distinct r.organization_id from public.site_rebuild_requests r
    where r.status = 'pending' and (p_organization_id is null or r.organization_id = p_organization_id)
    order by r.organization_id
  ) o;
  return query
  with due as materialized (
    select r.organization_id, gen_random_uuid() as batch_id
    from public.site_rebuild_requests r
    where r.status = 'pending' and (p_organization_id is null or r.organization_id = p_organization_id)
      and not exists (
        select 1 from public.site_deploys d
        where d.organization_id = r.organization_id and d.state = 'building' and d.started_at > now() - private.deploy_hold()
      )
    group by r.organization_id
    having max(r.requested_at) <= now() - v_window
        or min(r.requested_at) <= now() - 10 * v_window
        or (p_at_once and not exists (
          select 1 from public.site_rebuild_requests q
          where q.organization_id = r.organization_id and q.status <> 'pending'
            and (q.requested_at > min(r.requested_at) - v_window or q.sent_at > now() - v_window)
        ))
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
  group by c.batch_id, c.organization_id, o.slug, s.build_hook_url;
end;
$$;
revoke execute on function public.claim_due_site_rebuilds(integer, uuid, boolean) from public, anon, authenticated;
grant execute on function public.claim_due_site_rebuilds(integer, uuid, boolean) to service_role;

-- The webhook claims its organization's due rebuilds right after the delivery, with the functions' setting.

drop function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text);

/**
 * Receives one writing-tool delivery for the organization named by p_token (the public webhook) or by
 * p_organization_id (the back office, whose caller the function has verified as an admin). Answers
 * `{ found: false }` for an unknown token or organization, having written nothing. Otherwise
 * `{ found: true, organization: { slug, domain }, ... }` and the delivery is recorded:
 * - p_refused_status given: the refusal with p_refused_error, no post;
 * - the upsert failed: a 500 delivery whose error names its reference, and `error` and `reference` in the
 *   answer; the upsert's writes are rolled back;
 * - else `post: { id, status, slug, created }` and `rebuild: { batches }`, the rebuilds already due (p_at_once:
 *   claim_due_site_rebuilds' rule for a lone change).
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
  p_webhook_name text default null,
  p_at_once boolean default true
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
  from public.claim_due_site_rebuilds(p_quiet_window_ms, v_org_id, p_at_once) b;

  return jsonb_build_object(
    'found', true,
    'organization', v_org,
    'post', jsonb_build_object('id', v_post.post_id, 'status', v_post.post_status, 'slug', v_post.post_slug, 'created', v_post.created),
    'rebuild', jsonb_build_object('batches', v_batches)
  );
end;
$$;
revoke execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean)
  from public, anon, authenticated;
grant execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean)
  to service_role;
