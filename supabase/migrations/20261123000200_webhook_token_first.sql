-- WEBHOOK: THE TOKEN FIRST, AND NO POSTGRES TEXT FOR THE CALLER.
--
-- The webhook function now looks the token up (organization_for_webhook_token, unchanged) before it reads
-- the body: an unknown token costs that one lookup and nothing else. A known token's delivery then makes
-- one call, receive_webhook_delivery, as before; it checks the token again in its own transaction, so a
-- token rotated away while the body was read writes nothing.
--
-- What changes here: a failed upsert gets a reference, the first 8 hex digits of its delivery record's id.
-- The record's error reads 'Could not store the post (reference ab12cd34): <Postgres text>' (admins see it
-- in the delivery log); the answer carries `reference` next to `error`, so the function can log the
-- detail and give the caller only a generic message with the same reference. Same signature, so
-- `create or replace` keeps every caller and grant; the grants are restated anyway.

/**
 * Receives one writing-tool delivery for the organization named by p_token (the public webhook) or by
 * p_organization_id (the back office's test form, whose caller the function has verified as an admin).
 *
 * Answers `{ found: false }` for an unknown token or organization, having written nothing. Otherwise
 * `{ found: true, organization: { slug, domain }, ... }` and the delivery is recorded:
 * - p_refused_status given (400/413/422 decided by the function, or 500 for a failure before the
 *   database): the refusal with p_refused_error, no post;
 * - the upsert failed (a constraint, say): a 500 delivery whose error names its reference, and
 *   `error` (the Postgres text, for the function's log only) and `reference` in the answer; the upsert's
 *   writes (post, new category) are rolled back;
 * - else `post: { id, status, slug, created }` (upsert_webhook_post records the delivery in the same
 *   statement) and, for a published post, `rebuild` (request_site_rebuild's answer; its failure is only a
 *   warning, the post stays stored).
 */
create or replace function public.receive_webhook_delivery(
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
      v_org_id, p_slug, p_title, p_content, p_excerpt, p_category_name, p_category_slug, p_tags,
      p_featured_image_url, p_reading_time, p_note
    );
  exception when others then
    v_delivery_id := gen_random_uuid();
    v_reference := left(v_delivery_id::text, 8);
    insert into public.webhook_deliveries (id, organization_id, status_code, slug, error)
    values (v_delivery_id, v_org_id, 500, p_slug,
            left('Could not store the post (reference ' || v_reference || '): ' || sqlerrm, 2000));
    return jsonb_build_object('found', true, 'organization', v_org, 'error', sqlerrm, 'reference', v_reference);
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
