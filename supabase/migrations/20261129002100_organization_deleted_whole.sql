-- AN ORGANIZATION WITH PUBLISHED POSTS AND MEMBERS CAN BE DELETED.
--
-- Deleting an organization deletes its posts with it (on delete cascade); the posts' statement trigger then asked
-- for a rebuild of the organization being deleted, and the request's foreign key refused the whole delete. A site
-- deleted with its organization has nothing left to build: changes of an organization that no longer exists
-- request nothing.

/** Records one rebuild request per organization of the changes ([{ organization_id, reason }]) that still exists. */
create or replace function private.record_rebuild_requests(p_changes jsonb) returns void
language sql volatile security definer set search_path = ''
as $$
  insert into public.site_rebuild_requests (organization_id, reason)
  select (c ->> 'organization_id')::uuid,
         left(case when count(*) = 1 then min(c ->> 'reason') else count(*) || ' changes: ' || string_agg(c ->> 'reason', ', ') end, 200)
  from jsonb_array_elements(p_changes) as c
  where exists (select 1 from public.organizations o where o.id = (c ->> 'organization_id')::uuid)
  group by c ->> 'organization_id'
$$;

-- Its members' profiles then lose it as their primary organization, which asked whether the organization keeps an
-- admin: one being deleted keeps none.

/**
 * Fails with `last_admin` when the change would leave an organization without an active admin. p_user_id is
 * the user losing admin rights, p_orgs the organizations where they lose them. Called by the role guards. An
 * organization being deleted (no longer there) needs no admin.
 */
create or replace function private.assert_admins_remain(p_user_id uuid, p_orgs uuid[]) returns void
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_org uuid;
begin
  select m.organization_id into v_org
  from public.organization_memberships m
  where m.organization_id = any (p_orgs)
    and m.user_id = p_user_id
    and m.role = 'admin'
    and m.is_active
    and exists (select 1 from public.organizations o where o.id = m.organization_id)
    and not exists (
      select 1
      from public.organization_memberships other
      join public.profiles p on p.id = other.user_id
      where other.organization_id = m.organization_id
        and other.role = 'admin'
        and other.is_active
        and other.user_id <> p_user_id
        and p.is_active
    )
  limit 1;
  if v_org is not null then
    raise exception 'last_admin: organization % must keep at least one active admin', v_org
      using errcode = 'P0001', hint = 'Make another member admin first.';
  end if;
end;
$$;
