-- INDEXNOW WITH A LEASE: no submission lost, none re-read for ever, each sent with the key its site serves.
--
-- 1. A submission is claimed into `pending` (being sent) with a lease (lease_until). One whose lease ran out (the
--    function died before the engine answered, or could not record the answer during a backend blip) is due again;
--    retries are claimed (claim_indexnow_retries, rows locked and skipped by a concurrent claimer), not just read.
-- 2. A submission that cannot be sent (its organization has no key; its site has no address IndexNow accepts) is
--    recorded `unsendable` with the reason, and never read again; retries wait while an admin has switched
--    submissions off.
-- 3. The key: a rotation keeps the previous key (indexnow_sites.previous_key), and a submission is sent with the key
--    its site serves: the new one once a deploy started after the rotation succeeded, the previous one before.

-- 3. THE KEY A SITE SERVES

alter table public.indexnow_sites add column previous_key text check (previous_key ~ '^[a-f0-9]{32}$');
comment on column public.indexnow_sites.previous_key is
  'The key before the last rotation: the one a site built before the rotation still serves.';

/** A rotation keeps the key it replaces, for the deploys built before it. */
create function private.keep_previous_indexnow_key() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if new.key is distinct from old.key then
    new.previous_key := old.key;
  end if;
  return new;
end;
$$;
revoke execute on function private.keep_previous_indexnow_key() from public, anon, authenticated;
create trigger indexnow_sites_keep_previous_key before update of key on public.indexnow_sites
  for each row execute function private.keep_previous_indexnow_key();

/**
 * The key the organization's site serves now: its live deploy (the latest that succeeded, or p_deploy_id's when
 * given) was built with the current key if it started after the last rotation, else with the previous one.
 */
create function private.served_indexnow_key(p_organization_id uuid, p_deploy_id uuid default null) returns text
language sql stable set search_path = ''
as $$
  select case
    when s.previous_key is null then s.key
    when coalesce(
      (select d.started_at from public.site_deploys d where d.id = p_deploy_id),
      (select max(d.started_at) from public.site_deploys d where d.organization_id = p_organization_id and d.state = 'succeeded')
    ) >= s.rotated_at then s.key
    else s.previous_key
  end
  from public.indexnow_sites s where s.organization_id = p_organization_id
$$;
revoke execute on function private.served_indexnow_key(uuid, uuid) from public, anon, authenticated;

-- 1, 2. THE LEASE, AND WHAT CANNOT BE SENT

/** How long a claimed submission may wait for its outcome to be recorded before it is due again. */
create function private.indexnow_lease() returns interval
language sql immutable set search_path = '' as $$ select interval '2 minutes' $$;

alter table public.indexnow_submissions add column lease_until timestamptz;
comment on column public.indexnow_submissions.lease_until is
  'While `pending`: until when the call that claimed it may still record its outcome; after that it is due again.';
alter table public.indexnow_submissions drop constraint indexnow_submissions_status_check;
alter table public.indexnow_submissions add constraint indexnow_submissions_status_check
  check (status in ('pending', 'sent', 'failed', 'unsendable'));
-- Submissions left pending before leases existed are due now.
update public.indexnow_submissions set lease_until = created_at + private.indexnow_lease() where status = 'pending';
create index indexnow_submissions_leased_idx on public.indexnow_submissions (lease_until) where status = 'pending';

drop function public.claim_indexnow_submission(uuid, uuid, bigint[], text[]);

/**
 * Takes changes p_change_ids into one submission of p_urls (their addresses, as the function wrote them) for
 * deploy p_deploy_id, claimed for sending under a lease: the changes are removed in the same transaction. Answers
 * the submission's id and the key deploy p_deploy_id's site serves, or raises 40001 when another call took the
 * changes first (then nothing is written). Service role only.
 */
create function public.claim_indexnow_submission(p_organization_id uuid, p_deploy_id uuid, p_change_ids bigint[], p_urls text[])
returns table (id uuid, key text)
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  v_taken integer;
  v_id uuid;
begin
  delete from private.indexnow_changes c where c.organization_id = p_organization_id and c.id = any (p_change_ids);
  get diagnostics v_taken = row_count;
  if v_taken < cardinality(p_change_ids) then
    raise exception 'claim_indexnow_submission: the changes were taken by another call' using errcode = '40001';
  end if;
  insert into public.indexnow_submissions (organization_id, deploy_id, urls, lease_until)
  values (p_organization_id, p_deploy_id, p_urls, now() + private.indexnow_lease())
  returning indexnow_submissions.id into v_id;
  return query select v_id, private.served_indexnow_key(p_organization_id, p_deploy_id);
end;
$$;
revoke execute on function public.claim_indexnow_submission(uuid, uuid, bigint[], text[]) from public, anon, authenticated;
grant execute on function public.claim_indexnow_submission(uuid, uuid, bigint[], text[]) to service_role;

/**
 * Claims up to p_limit submissions due for another try, oldest due first: failed ones whose retry time came, and
 * claimed ones whose lease ran out; only of organizations with submissions on. Each is claimed under a new lease
 * (rows another claimer holds are skipped) and answered with the key its site serves. Due submissions of an
 * organization without a key are recorded unsendable instead. Service role only.
 */
create function public.claim_indexnow_retries(p_limit integer default 5)
returns table (id uuid, organization_id uuid, urls text[], key text)
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
begin
  update public.indexnow_submissions s
  set status = 'unsendable', error = 'This organization has no IndexNow key.', next_attempt_at = null, lease_until = null
  where ((s.status = 'failed' and s.next_attempt_at <= now()) or (s.status = 'pending' and s.lease_until < now()))
    and not exists (select 1 from public.indexnow_sites k where k.organization_id = s.organization_id);
  return query
  with due as (
    select s.id from public.indexnow_submissions s
    join public.indexnow_sites k on k.organization_id = s.organization_id and k.enabled
    where (s.status = 'failed' and s.next_attempt_at <= now()) or (s.status = 'pending' and s.lease_until < now())
    order by coalesce(s.next_attempt_at, s.lease_until)
    limit greatest(p_limit, 0)
    for update of s skip locked
  )
  update public.indexnow_submissions s
  set status = 'pending', lease_until = now() + private.indexnow_lease()
  from due where s.id = due.id
  returning s.id, s.organization_id, s.urls, private.served_indexnow_key(s.organization_id);
end;
$$;
revoke execute on function public.claim_indexnow_retries(integer) from public, anon, authenticated;
grant execute on function public.claim_indexnow_retries(integer) to service_role;

/**
 * Records one attempt of a claimed submission: sent (`p_status` 'sent'); failed with the engine's answer or the
 * reason it could not be reached, tried again after 1, 2, 4, 8, 16 minutes (six tries in all); or unsendable with
 * the reason (never tried again). The lease ends.
 */
create or replace function public.record_indexnow_attempt(p_submission_id uuid, p_status text, p_response_status integer default null, p_error text default null)
returns void
language sql volatile security definer set search_path = ''
as $$
  update public.indexnow_submissions s set
    attempts = s.attempts + case when p_status = 'unsendable' then 0 else 1 end,
    status = p_status,
    response_status = p_response_status,
    error = left(p_error, 1000),
    sent_at = case when p_status = 'sent' then now() end,
    lease_until = null,
    next_attempt_at = case when p_status = 'failed' and s.attempts + 1 < private.indexnow_tries()
      then now() + interval '1 minute' * power(2, s.attempts) end
  where s.id = p_submission_id and p_status in ('sent', 'failed', 'unsendable')
$$;
