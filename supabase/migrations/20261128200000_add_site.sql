-- A CLIENT'S SITE IN ONE CALL: `npm run site:add` (tools/site-add.ts) sets up an organization through add_site.
--
-- Before, the operator wrote SQL by hand (the organization, its confirmed domain, the build hook), and each
-- step could go wrong on its own. add_site does every write in one transaction, so a bad input (a slug or a
-- domain another organization has, an unknown time zone, a value a constraint refuses) writes nothing:
-- 1. the organization is found by its slug; a slug held by an organization of another name is taken (the
--    name is how the operator says which client they mean), and so is a domain another organization holds;
-- 2. a new organization is inserted with its domain confirmed (the operator is the one who confirms a domain);
--    its triggers give it the default category and a publishing queue. An existing one gets its domain
--    updated when the run names another one;
-- 3. the time zone goes to the publishing queue through set_publishing_queue (re-flows queued posts, logged);
-- 4. the build hook, when given, is stored in site_rebuild_settings (a run without one keeps the stored one);
-- 5. the answer says what changed (nothing, on a second identical run) and where the first admin stands:
--    already an active member, invited (a pending invitation), or neither. The caller creates the invitation
--    then, through the back office's own path (src/lib/server/invitations.ts), after every check here passed.
-- Only the service role may call it: it writes what no member may (domain_confirmed, a new organization).

create function public.add_site(
  p_name text,
  p_slug text,
  p_domain text,
  p_time_zone text,
  p_admin_email text,
  p_build_hook_url text default null
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_org public.organizations;
  v_other public.organizations;
  v_queue public.publishing_queues;
  v_changes text[] := '{}';
  v_admin jsonb;
begin
  if not exists (select 1 from pg_catalog.pg_timezone_names z where z.name = p_time_zone) then
    raise exception 'Unknown time zone: % (use an IANA name such as America/New_York)', coalesce(p_time_zone, 'none') using errcode = '22023';
  end if;

  -- 1. Which organization, and whether its slug and domain are free for it. Locked, so two runs queue up.
  select o.* into v_org from public.organizations o where o.slug = p_slug for update;
  if found and v_org.name <> btrim(p_name) then
    raise exception 'The slug "%" is taken by another organization, "%"', p_slug, v_org.name using errcode = '23505';
  end if;
  select o.* into v_other from public.organizations o where o.domain = p_domain and o.slug <> p_slug;
  if found then
    raise exception 'The domain % is taken by another organization, "%" (%)', p_domain, v_other.name, v_other.slug using errcode = '23505';
  end if;

  -- 2. The organization and its confirmed domain.
  if v_org.id is null then
    insert into public.organizations (name, slug, domain, domain_confirmed)
    values (btrim(p_name), p_slug, p_domain, true)
    returning * into v_org;
    v_changes := v_changes || 'organization created, with its default category and publishing queue'::text;
  elsif (v_org.domain, v_org.domain_confirmed) is distinct from (p_domain, true) then
    update public.organizations o set domain = p_domain, domain_confirmed = true where o.id = v_org.id;
    v_changes := v_changes || format('domain set to %s (confirmed)', p_domain);
  end if;

  -- 3. The time zone, through the queue's own path.
  select q.* into v_queue from public.publishing_queues q where q.organization_id = v_org.id;
  if v_queue.time_zone is distinct from p_time_zone then
    perform private.set_publishing_queue(v_org.id, p_time_zone, v_queue.posts_per_day, v_queue.weekdays,
      v_queue.window_start, v_queue.window_end, v_queue.spread_minutes);
    v_changes := v_changes || format('time zone set to %s', p_time_zone);
  end if;

  -- 4. The build hook.
  if p_build_hook_url is not null and not exists (
    select 1 from public.site_rebuild_settings s where s.organization_id = v_org.id and s.build_hook_url = p_build_hook_url
  ) then
    insert into public.site_rebuild_settings (organization_id, build_hook_url) values (v_org.id, p_build_hook_url)
    on conflict (organization_id) do update set build_hook_url = excluded.build_hook_url;
    v_changes := v_changes || 'build hook stored'::text;
  end if;

  -- 5. The first admin.
  select case
      when exists (
        select 1 from public.organization_memberships m join public.profiles p on p.id = m.user_id
        where m.organization_id = v_org.id and p.email = lower(p_admin_email) and m.is_active and m.role = 'admin'
      ) then jsonb_build_object('status', 'member')
      else coalesce((
        select jsonb_build_object('status', 'invited', 'expires_at', i.expires_at)
        from public.user_invitations i
        where i.organization_id = v_org.id and i.email = lower(p_admin_email)
          and i.used_at is null and i.revoked_at is null and i.expires_at > now()
      ), jsonb_build_object('status', 'none'))
    end
  into v_admin;

  return jsonb_build_object(
    'organization_id', v_org.id,
    'build_hook_url', (select s.build_hook_url from public.site_rebuild_settings s where s.organization_id = v_org.id),
    'changes', to_jsonb(v_changes),
    'admin', v_admin
  );
end;
$$;
revoke execute on function public.add_site(text, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.add_site(text, text, text, text, text, text) to service_role;
