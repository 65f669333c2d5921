/**
 * AUTHOR CARDS ARE FOR WRITERS. The author card (title, bio, website, photo) is shown under the posts a person
 * writes, and only editors and admins write posts (the blog_posts policies use private.is_org_editor). A member
 * who is a viewer in every organization has no posts to show it under, so the back office does not offer it
 * and the database refuses to set it, whatever the client. Clearing a field stays allowed (someone who stopped
 * writing may take their card down), and the name stays everyone's own: it names them in the back office too.
 */

/** True when the caller is an active editor or admin of at least one organization: they may write posts. */
create function private.writes_posts() returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.organization_memberships m
    where m.user_id = (select private.current_active_user_id())
      and m.is_active
      and m.role in ('editor', 'admin')
  )
$$;
revoke execute on function private.writes_posts() from public, anon;
grant execute on function private.writes_posts() to authenticated, service_role;

/** Refuses a client's setting of author card fields by someone who writes no posts (see the banner). */
create function private.guard_author_card() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and ((new.author_title is not null and new.author_title is distinct from old.author_title)
       or (new.bio is not null and new.bio is distinct from old.bio)
       or (new.author_website is not null and new.author_website is distinct from old.author_website)
       or (new.avatar_url is not null and new.avatar_url is distinct from old.avatar_url))
     and not private.writes_posts() then
    raise exception 'only members who write posts (editors and admins) have an author card' using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke execute on function private.guard_author_card() from public, anon, authenticated;

create trigger profiles_guard_author_card before update of author_title, bio, author_website, avatar_url on public.profiles
  for each row execute function private.guard_author_card();
