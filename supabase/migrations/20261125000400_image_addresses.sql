-- Image addresses the build may download. featured_image_url and avatar_url accepted any http(s) URL, and the
-- build fetched it with no address check: `http://169.254.169.254/…` or any internal host was fetched by the
-- build machine, and an answer that decoded as an image was published. Now a new or changed address must be a
-- file of the Media Library (`…/storage/v1/object/public/media/<organization id>/<file>`) or an https address
-- of a public host name (no IP address, local name, port or credentials), refused otherwise with the reason
-- (22023). The build checks again, with DNS, when it downloads (src/lib/site/post-images.ts). The same rule in
-- TypeScript: src/schemas/image-url.ts. Addresses saved before stay until they are changed (a post or profile can
-- still be edited; the build refuses them).

/** Why an image address cannot be kept (the words the editor shows), or null when it can. */
create function private.image_url_problem(p_url text) returns text
language plpgsql immutable parallel safe set search_path = ''
as $$
declare
  v_parts text[] := regexp_match(coalesce(p_url, ''), '^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#\\]*)([^?#]*)(\?[^#]*)?(#.*)?$');
  v_scheme text := lower(v_parts[1]);
  -- https's own port is no port (as the URL standard reads it).
  v_authority text := regexp_replace(lower(v_parts[2]), ':443$', '');
begin
  if p_url is null or p_url = '' then
    return null;
  end if;
  if v_parts is null or length(p_url) > 2048 then
    return 'Enter a full URL starting with https://';
  end if;
  if v_scheme in ('http', 'https') and position('@' in v_authority) = 0 and v_parts[4] is null
     and v_parts[3] ~ '^/storage/v1/object/public/media/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[^/]+$' then
    return null;
  end if;
  if v_scheme <> 'https' then
    return 'An image address must start with https:// (or be a file of the Media Library)';
  end if;
  if position('@' in v_authority) > 0 then
    return 'An image address cannot contain a user name or password';
  end if;
  if v_authority ~ '^\[' or v_authority ~ '^[0-9.]+(:[0-9]*)?$' or v_authority ~ '^0x' then
    return 'An image address must name a public host, not an IP address';
  end if;
  if v_authority ~ ':[0-9]*$' then
    return 'An image address cannot name a port';
  end if;
  if position('.' in v_authority) = 0 or v_authority ~ '[^[:alnum:].-]'
     or rtrim(v_authority, '.') ~ '(^|\.)(localhost|local|internal|lan|home\.arpa)$' then
    return 'An image address must name a public host';
  end if;
  return null;
end;
$$;
revoke execute on function private.image_url_problem(text) from public, anon;
grant execute on function private.image_url_problem(text) to authenticated, service_role;

/** Refuses a new or changed featured_image_url / avatar_url that the build may not download. */
create function private.guard_image_address() returns trigger
language plpgsql set search_path = ''
as $$
declare
  v_column text := tg_argv[0];
  v_new text := to_jsonb(new) ->> v_column;
  v_problem text := private.image_url_problem(v_new);
begin
  if v_problem is not null and (tg_op = 'INSERT' or v_new is distinct from to_jsonb(old) ->> v_column) then
    raise exception '%: %', v_column, v_problem using errcode = '22023';
  end if;
  return new;
end;
$$;
revoke execute on function private.guard_image_address() from public, anon, authenticated;

create trigger blog_posts_guard_image_address before insert or update of featured_image_url on public.blog_posts
  for each row execute function private.guard_image_address('featured_image_url');
create trigger profiles_guard_image_address before insert or update of avatar_url on public.profiles
  for each row execute function private.guard_image_address('avatar_url');
