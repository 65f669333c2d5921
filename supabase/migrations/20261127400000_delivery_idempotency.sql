-- Exactly once under retries: a delivery sent again (the writing tool retrying after a timeout, a 503 or a
-- dropped connection) is recognised by an idempotency key the webhook derives from the payload (SHA-256 of
-- the validated payload's canonical JSON), kept per organization for at least 7 days, and answered with the
-- first delivery's outcome; nothing is written the second time. The key is recorded in the delivery's own
-- transaction, so a delivery either stores everything (post, revision, audit entry, rebuild request,
-- delivery record, key) or nothing, and a retry of one that stored nothing stores it.

create table private.webhook_delivery_keys (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  key text not null check (key ~ '^[0-9a-f]{64}$'),
  received_at timestamptz not null default now(),
  -- The first delivery's answer (`post` of receive_webhook_delivery), set in the same transaction.
  post jsonb,
  primary key (organization_id, key)
);
create index webhook_delivery_keys_received_idx on private.webhook_delivery_keys (organization_id, received_at);
alter table private.webhook_delivery_keys enable row level security;
revoke all on table private.webhook_delivery_keys from public, anon, authenticated;
comment on table private.webhook_delivery_keys is
  'Idempotency keys of writing-tool deliveries (SHA-256 of the payload) with the first outcome, kept 7 days at least.';

drop function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean, text);

/**
 * Receives one writing-tool delivery for the organization named by p_token (the public webhook) or by
 * p_organization_id (the back office, whose caller the function has verified as an admin). Answers
 * `{ found: false }` for an unknown token or organization, having written nothing. Otherwise
 * `{ found: true, organization: { slug, domain }, ... }` and the delivery is recorded:
 * - p_refused_status given: the refusal with p_refused_error, no post;
 * - the upsert failed: a 500 delivery whose error names its reference, and `error` and `reference` in the
 *   answer; the upsert's writes are rolled back;
 * - else `post: { id, status, slug, created, duplicate_of, category }` and `rebuild: { batches }`, the rebuilds
 *   already due (p_at_once: claim_due_site_rebuilds' rule for a lone change);
 * - p_idempotency_key given and already stored for the organization (kept 7 days at least): the first
 *   delivery's `post` again with `replayed: true`, and nothing is written (no post change, revision, delivery
 *   record or rebuild request).
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
  p_at_once boolean default true,
  p_image text default null,
  p_idempotency_key text default null
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
  v_first jsonb;
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

  -- The same delivery again (a retry after a timeout, a 503 or a dropped connection): its first outcome,
  -- nothing written. A concurrent first try holds the key's row until it commits (then this is a replay)
  -- or rolls back (then this one stores the delivery).
  if p_idempotency_key is not null and p_refused_status is null then
    delete from private.webhook_delivery_keys k
    where k.organization_id = v_org_id and k.received_at < now() - interval '8 days';
    insert into private.webhook_delivery_keys (organization_id, key) values (v_org_id, p_idempotency_key)
    on conflict do nothing;
    if not found then
      select k.post into v_first from private.webhook_delivery_keys k
      where k.organization_id = v_org_id and k.key = p_idempotency_key;
      return jsonb_build_object('found', true, 'organization', v_org, 'post', v_first, 'replayed', true);
    end if;
  end if;

  if p_refused_status is not null then
    insert into public.webhook_deliveries (organization_id, status_code, slug, error, webhook_name)
    values (v_org_id, p_refused_status, p_slug, left(p_refused_error, 2000), p_webhook_name);
    return jsonb_build_object('found', true, 'organization', v_org);
  end if;

  begin
    select * into strict v_post from public.upsert_webhook_post(
      v_org_id, p_slug, p_title, p_content, p_content_source, p_content_format, p_excerpt, p_category_name,
      p_category_slug, p_tags, p_featured_media_id, p_reading_time, p_note, p_webhook_name, p_image
    );
  exception when others then
    v_delivery_id := gen_random_uuid();
    v_reference := left(v_delivery_id::text, 8);
    insert into public.webhook_deliveries (id, organization_id, status_code, slug, error, webhook_name)
    values (v_delivery_id, v_org_id, 500, p_slug,
            left('Could not store the post (reference ' || v_reference || '): ' || sqlerrm, 2000), p_webhook_name);
    -- Nothing was stored: a retry must store it, not replay the failure.
    delete from private.webhook_delivery_keys k where k.organization_id = v_org_id and k.key = p_idempotency_key;
    return jsonb_build_object('found', true, 'organization', v_org, 'error', sqlerrm, 'reference', v_reference);
  end;

  -- The post's trigger recorded the rebuild request; send at once only what is already due.
  select coalesce(jsonb_agg(to_jsonb(b)), '[]'::jsonb) into v_batches
  from public.claim_due_site_rebuilds(p_quiet_window_ms, v_org_id, p_at_once) b;

  v_first := jsonb_build_object('id', v_post.post_id, 'status', v_post.post_status, 'slug', v_post.post_slug, 'created', v_post.created,
                                'duplicate_of', v_post.duplicate_of, 'category', v_post.category);
  if p_idempotency_key is not null then
    update private.webhook_delivery_keys k set post = v_first where k.organization_id = v_org_id and k.key = p_idempotency_key;
  end if;
  return jsonb_build_object('found', true, 'organization', v_org, 'post', v_first, 'rebuild', jsonb_build_object('batches', v_batches));
end;
$$;
revoke execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean, text, text)
  from public, anon, authenticated;
grant execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], uuid, integer, text, integer, text, integer, text, boolean, text, text)
  to service_role;
