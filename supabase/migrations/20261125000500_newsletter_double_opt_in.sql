-- A newsletter that asks the reader (double opt-in). Until now POST /api/newsletter put any address on the
-- list of the organization the request named, and its answers told who was subscribed ("You're already
-- subscribed." against "Thanks for subscribing!"). Now:
-- * a sign-up is for the site's own organization (the function decides, never the request);
-- * every valid address gets the same answer; a confirmation mail goes out with a link to confirm and one to
--   unsubscribe (at most one mail per address per hour, and at most p_hourly_limit per organization per hour,
--   so the form cannot be used to flood an inbox or to send mail in bulk);
-- * an address is on the list (counted, exported as subscribed) only once its owner confirmed; the unsubscribe
--   link takes it off again. Only SHA-256 hashes of the links' tokens are stored, in private.newsletter_links
--   (out of the API's reach).
-- * admins read the list with each address's state and may remove addresses; nobody but these functions
--   writes it.
-- Addresses stored before this migration were never confirmed by their owners: they are pending.

alter table public.newsletter_subscribers
  add column confirmed_at timestamptz,
  add column unsubscribed_at timestamptz,
  add column confirmation_sent_at timestamptz;
comment on column public.newsletter_subscribers.confirmed_at is
  'When the owner of the address confirmed it through the link in the confirmation mail; null: pending.';
comment on column public.newsletter_subscribers.unsubscribed_at is
  'When the owner took the address off the list through the unsubscribe link (kept until it confirms again).';
comment on column public.newsletter_subscribers.confirmation_sent_at is
  'When the last confirmation mail went to the address (at most one an hour).';
create index newsletter_subscribers_sent_idx on public.newsletter_subscribers (organization_id, confirmation_sent_at);

revoke all on table public.newsletter_subscribers from anon, authenticated;
grant select, delete on table public.newsletter_subscribers to authenticated;

/** The links' tokens, as SHA-256 hashes, out of the API's reach (schema private, no grants). */
create table private.newsletter_links (
  subscriber_id uuid primary key references public.newsletter_subscribers (id) on delete cascade,
  confirm_token_hash text unique check (confirm_token_hash ~ '^[0-9a-f]{64}$'),
  unsubscribe_token_hash text not null unique check (unsubscribe_token_hash ~ '^[0-9a-f]{64}$')
);
alter table private.newsletter_links enable row level security;
revoke all on table private.newsletter_links from public, anon, authenticated;

/** How long a confirmation link works. */
create function private.newsletter_confirm_days() returns integer
language sql immutable parallel safe set search_path = ''
as $$ select 7 $$;

/**
 * A sign-up: answers true when a confirmation mail with these token hashes is to be sent now (the caller sends
 * it), false when nothing is to be sent (the address is confirmed already, a mail went to it within the hour,
 * or the organization sent p_hourly_limit mails in the last hour). The same answer goes back to the visitor
 * either way. Service role only.
 */
create function private.request_newsletter_subscription(
  p_organization_id uuid, p_email text, p_confirm_hash text, p_unsubscribe_hash text, p_hourly_limit integer
) returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_email text := lower(btrim(p_email));
  v_row public.newsletter_subscribers;
  v_id uuid;
begin
  -- One sign-up of an organization at a time: the hourly count and the row change together.
  perform pg_advisory_xact_lock(hashtextextended('newsletter:' || p_organization_id::text, 0));
  select * into v_row from public.newsletter_subscribers s
  where s.organization_id = p_organization_id and lower(s.email) = v_email;
  if v_row.id is not null and v_row.confirmed_at is not null and v_row.unsubscribed_at is null then
    return false;
  end if;
  if v_row.confirmation_sent_at > now() - interval '1 hour' then
    return false;
  end if;
  if (select count(*) from public.newsletter_subscribers s
      where s.organization_id = p_organization_id and s.confirmation_sent_at > now() - interval '1 hour') >= p_hourly_limit then
    return false;
  end if;
  insert into public.newsletter_subscribers as s (organization_id, email, confirmation_sent_at)
  values (p_organization_id, v_email, now())
  on conflict (organization_id, lower(email)) do update set confirmation_sent_at = now()
  returning s.id into v_id;
  insert into private.newsletter_links as l (subscriber_id, confirm_token_hash, unsubscribe_token_hash)
  values (v_id, p_confirm_hash, p_unsubscribe_hash)
  on conflict (subscriber_id) do update set confirm_token_hash = p_confirm_hash, unsubscribe_token_hash = p_unsubscribe_hash;
  return true;
end;
$$;

/** The owner confirms: 'confirmed', or 'invalid' for an unknown, used or expired link. Service role only. */
create function private.confirm_newsletter_subscription(p_token_hash text) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_subscriber uuid;
begin
  update private.newsletter_links l set confirm_token_hash = null
  from public.newsletter_subscribers s
  where l.confirm_token_hash = p_token_hash and s.id = l.subscriber_id
    and s.confirmation_sent_at > now() - make_interval(days => private.newsletter_confirm_days())
  returning l.subscriber_id into v_subscriber;
  if v_subscriber is null then
    return 'invalid';
  end if;
  update public.newsletter_subscribers set confirmed_at = now(), unsubscribed_at = null where id = v_subscriber;
  return 'confirmed';
end;
$$;

/** The owner leaves the list: 'unsubscribed' (also when already off it), or 'invalid'. Service role only. */
create function private.unsubscribe_newsletter(p_token_hash text) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_subscriber uuid;
begin
  update private.newsletter_links l set confirm_token_hash = null
  where l.unsubscribe_token_hash = p_token_hash
  returning l.subscriber_id into v_subscriber;
  if v_subscriber is null then
    return 'invalid';
  end if;
  update public.newsletter_subscribers set unsubscribed_at = coalesce(unsubscribed_at, now()) where id = v_subscriber;
  return 'unsubscribed';
end;
$$;

create function public.request_newsletter_subscription(
  p_organization_id uuid, p_email text, p_confirm_hash text, p_unsubscribe_hash text, p_hourly_limit integer
) returns boolean
language sql volatile security invoker set search_path = ''
as $$ select private.request_newsletter_subscription(p_organization_id, p_email, p_confirm_hash, p_unsubscribe_hash, p_hourly_limit) $$;
create function public.confirm_newsletter_subscription(p_token_hash text) returns text
language sql volatile security invoker set search_path = ''
as $$ select private.confirm_newsletter_subscription(p_token_hash) $$;
create function public.unsubscribe_newsletter(p_token_hash text) returns text
language sql volatile security invoker set search_path = ''
as $$ select private.unsubscribe_newsletter(p_token_hash) $$;

revoke execute on function
  private.newsletter_confirm_days(),
  private.request_newsletter_subscription(uuid, text, text, text, integer), private.confirm_newsletter_subscription(text),
  private.unsubscribe_newsletter(text), public.request_newsletter_subscription(uuid, text, text, text, integer),
  public.confirm_newsletter_subscription(text), public.unsubscribe_newsletter(text)
  from public, anon, authenticated;
grant execute on function
  private.newsletter_confirm_days(),
  private.request_newsletter_subscription(uuid, text, text, text, integer), private.confirm_newsletter_subscription(text),
  private.unsubscribe_newsletter(text), public.request_newsletter_subscription(uuid, text, text, text, integer),
  public.confirm_newsletter_subscription(text), public.unsubscribe_newsletter(text)
  to service_role;
