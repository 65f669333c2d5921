-- ONE ROUND TRIP PER WEBHOOK DELIVERY (issue 8: median handling under 100 ms).
--
-- A delivery used to make five sequential calls to the backend (token lookup, organization, upsert, rebuild
-- request, rebuild claim). Now the function parses, validates, renders and sanitizes in JavaScript and then
-- makes one call, receive_webhook_delivery(), which does all the database work in one transaction:
--
-- * request_site_rebuild(): records a rebuild request and claims the organization's due batches (the
--   coalescing of claim_due_site_rebuilds). It is the SQL of the rebuilds module's requestRebuild, so the
--   webhook and every other caller share it.
-- * receive_webhook_delivery(): token check (organization_for_webhook_token: unknown tokens write nothing),
--   upsert_webhook_post() (publish mode, category, idempotent upsert, delivery record), a failed upsert
--   recorded as a 500 delivery with no post left behind, refused deliveries (400/413/422) recorded, and the
--   rebuild request of a published post.

/**
 * Records a pending rebuild request for the organization and claims the batches that are due at once (see
 * claim_due_site_rebuilds: normally none, since the new request opens a quiet window). Returns
 * `{ request_id, batches }`, batches in claim_due_site_rebuilds' shape, for the caller to send.
 */
create function public.request_site_rebuild(p_organization_id uuid, p_reason text, p_quiet_window_ms integer)
returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_request_id uuid;
begin
  insert into public.site_rebuild_requests (organization_id, reason)
  values (p_organization_id, left(p_reason, 200))
  returning id into v_request_id;
  return jsonb_build_object(
    'request_id', v_request_id,
    'batches', coalesce(
      (select jsonb_agg(to_jsonb(b)) from public.claim_due_site_rebuilds(p_quiet_window_ms, p_organization_id) b),
      '[]'::jsonb
    )
  );
end;
$$;
revoke execute on function public.request_site_rebuild(uuid, text, integer) from public, anon, authenticated;
grant execute on function public.request_site_rebuild(uuid, text, integer) to service_role;

/**
 * Receives one writing-tool delivery for the organization named by p_token (the public webhook) or by
 * p_organization_id (the back office's test form, whose caller the function has verified as an admin).
 *
 * Answers `{ found: false }` for an unknown token or organization, having written nothing. Otherwise
 * `{ found: true, organization: { slug, domain }, ... }` and the delivery is recorded:
 * - p_refused_status given (400/413/422 decided by the function): the refusal with p_refused_error, no post;
 * - the upsert failed (a constraint, say): a 500 delivery with the error and `error` in the answer; the
 *   upsert's writes (post, new category) are rolled back;
 * - else `post: { id, status, slug, created }` (upsert_webhook_post records the delivery in the same
 *   statement) and, for a published post, `rebuild` (request_site_rebuild's answer; its failure is only a
 *   warning, the post stays stored).
 */
create function public.receive_webhook_delivery(
  p_token text default null,
  p_organization_id uuid default null,
  p_slug text default null,
  p_title text default null,
  p_content text default null,
  p_excerpt text default null,
  p_category_name text default null,
  p_category_slug text default null,
  p_tags text[] default null,
  p_featured_image_url text default null,
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
  v_rebuild jsonb;
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
      v_org_id, p_slug, p_title, p_content, p_excerpt, p_category_name, p_category_slug, p_tags,
      p_featured_image_url, p_reading_time, p_note
    );
  exception when others then
    insert into public.webhook_deliveries (organization_id, status_code, slug, error)
    values (v_org_id, 500, p_slug, left('Could not store the post: ' || sqlerrm, 2000));
    return jsonb_build_object('found', true, 'organization', v_org, 'error', sqlerrm);
  end;

  if v_post.post_status = 'published' then
    begin
      v_rebuild := public.request_site_rebuild(
        v_org_id,
        case when v_post.created then 'post published by webhook' else 'post updated by webhook' end,
        p_quiet_window_ms
      );
    exception when others then
      raise warning 'receive_webhook_delivery: rebuild request of % failed: %', v_org ->> 'slug', sqlerrm;
    end;
  end if;

  return jsonb_build_object(
    'found', true,
    'organization', v_org,
    'post', jsonb_build_object('id', v_post.post_id, 'status', v_post.post_status, 'slug', v_post.post_slug, 'created', v_post.created),
    'rebuild', v_rebuild
  );
end;
$$;
revoke execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text[], text, integer, text, integer, text, integer)
  from public, anon, authenticated;
grant execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text[], text, integer, text, integer, text, integer)
  to service_role;
