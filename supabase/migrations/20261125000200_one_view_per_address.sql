-- One view per address: a post's count rises at most once per visitor address (an IPv6 /64 network counts
-- as one address) and UTC day, whatever the User-Agent. The visitor used to be the address and the user
-- agent together, so ten requests from one client with ten browser names added ten views (up to the hourly
-- request limit). The hash is now sha256(today's salt, address, organization); requests per address and hour
-- stay limited (p_address_limit, ADDRESS_HOURLY_LIMIT in src/lib/server/post-views.ts). Today's visitor rows
-- were hashed the old way: they are deleted with the function, so a visitor may count once more today.

revoke execute on function public.count_post_view(uuid, uuid, text, text, integer, integer) from service_role;
drop function public.count_post_view(uuid, uuid, text, text, integer, integer);
drop function private.count_post_view(uuid, uuid, text, text, integer, integer);
delete from private.post_view_visitors;
delete from private.post_view_rate_windows;

/**
 * Counts one view of a published post of p_organization_id from the address (an IPv4 address, or the /64
 * network of an IPv6 one, as the function normalized it), at most once per post per UTC day. Answers
 * 'counted', 'duplicate' (already counted today), 'not_found' (no published post of that organization) or
 * 'rate_limited' (over p_address_limit requests of this address in the current hour; nothing written). Only
 * 'counted' changes a count. Service role only.
 */
create function private.count_post_view(p_organization_id uuid, p_post_id uuid, p_address text, p_address_limit integer)
returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_today date := (now() at time zone 'utc')::date;
  v_hour timestamptz := date_trunc('hour', now());
  v_salt bytea;
  v_visitor text;
begin
  if not exists (
    select 1 from public.blog_posts p
    where p.id = p_post_id and p.organization_id = p_organization_id and p.status = 'published' and p.published_at <= now()
  ) then
    return 'not_found';
  end if;

  -- The day rolls over: yesterday's salt goes, and with it any way to link yesterday's hashes to an address.
  delete from private.post_view_salts where day < v_today;
  delete from private.post_view_visitors where day < v_today;
  delete from private.post_view_rate_windows where window_start < v_hour;
  insert into private.post_view_salts (day, salt) values (v_today, extensions.gen_random_bytes(32))
  on conflict (day) do nothing;
  select s.salt into strict v_salt from private.post_view_salts s where s.day = v_today;

  v_visitor := encode(extensions.digest(
    v_salt || convert_to(coalesce(p_address, '') || E'\n' || p_organization_id::text, 'UTF8'), 'sha256'), 'hex');

  -- The rate limit: a window over its limit is not touched, so a refused request writes nothing.
  insert into private.post_view_rate_windows as w (key_hash, window_start, hits) values ('address:' || v_visitor, v_hour, 1)
  on conflict (key_hash, window_start) do update set hits = w.hits + 1 where w.hits < p_address_limit;
  if not found then
    return 'rate_limited';
  end if;

  insert into private.post_view_visitors (day, post_id, visitor_hash) values (v_today, p_post_id, v_visitor)
  on conflict do nothing;
  if not found then
    return 'duplicate';
  end if;

  insert into public.post_view_days as d (post_id, organization_id, day, views)
  values (p_post_id, p_organization_id, v_today, 1)
  on conflict (post_id, day) do update set views = d.views + 1;
  update public.blog_posts set view_count = view_count + 1 where id = p_post_id;
  return 'counted';
end;
$$;

/** Counts a view for the post-view function (service role only); see private.count_post_view. */
create function public.count_post_view(p_organization_id uuid, p_post_id uuid, p_address text, p_address_limit integer)
returns text
language sql volatile security invoker set search_path = ''
as $$ select private.count_post_view(p_organization_id, p_post_id, p_address, p_address_limit) $$;

revoke execute on function private.count_post_view(uuid, uuid, text, integer) from public, anon, authenticated;
revoke execute on function public.count_post_view(uuid, uuid, text, integer) from public, anon, authenticated;
grant execute on function private.count_post_view(uuid, uuid, text, integer) to service_role;
grant execute on function public.count_post_view(uuid, uuid, text, integer) to service_role;
