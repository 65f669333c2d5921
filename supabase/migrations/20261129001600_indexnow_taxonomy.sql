-- SEARCH ENGINES HEAR OF TAXONOMY CHANGES TOO: an approved, renamed or merged category, or a renamed tag,
-- changes the pages of its posts (their category or tags), the category's or tag's page and the blog's list;
-- IndexNow is told once the change is live, as for a post.
-- 1. Bulk changes of posts (a tag renamed or merged, a category merged: one 'bulk' UPDATE of the posts) note their
--    changes like any other; only the seed's are left out.
--    Posts deleted with their organization note nothing (its site is gone with it).
-- 2. A category approved (needs_review to false: its posts now show it) or renamed notes each of its published
--    posts, with the category's new address and, after a rename, its old one.

-- 1.
/** The addresses a change of posts touches (the rebuild trigger's rule), noted for the next live deploy; not the seed's. */
create or replace function private.note_indexnow_changes()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if private.post_change() = 'bulk' and current_setting('app.actor', true) = 'seed' then return null; end if;
  if tg_op = 'INSERT' then
    insert into private.indexnow_changes (organization_id, post_slug, category_slug, tags)
    select n.organization_id, n.slug, c.slug, n.tags
    from new_rows n left join public.blog_categories c on c.id = n.category_id
    where n.status = 'published';
  elsif tg_op = 'DELETE' then
    insert into private.indexnow_changes (organization_id, post_slug, category_slug, tags)
    select o.organization_id, o.slug, c.slug, o.tags
    from old_rows o left join public.blog_categories c on c.id = o.category_id
    -- Not for an organization being deleted (its posts go with it): nothing of it is left to submit.
    where o.status = 'published' and exists (select 1 from public.organizations g where g.id = o.organization_id);
  else
    -- The post as it is now, and as it was when its address, category or tags moved (the old pages changed too).
    insert into private.indexnow_changes (organization_id, post_slug, category_slug, tags)
    select x.organization_id, x.slug, x.category_slug, x.tags
    from old_rows o join new_rows n on n.id = o.id
    cross join lateral (
      select n.organization_id, n.slug, (select c.slug from public.blog_categories c where c.id = n.category_id) as category_slug, n.tags
      union
      select o.organization_id, o.slug, (select c.slug from public.blog_categories c where c.id = o.category_id), o.tags
      where o.status = 'published' and (o.slug, o.category_id, o.tags) is distinct from (n.slug, n.category_id, n.tags)
    ) x
    where (o.status = 'published' or n.status = 'published')
      and private.post_public_fields(o) is distinct from private.post_public_fields(n);
  end if;
  -- A change no deploy took within a week (a site that submits nothing: local, or without an address) is stale.
  delete from private.indexnow_changes c where c.changed_at < now() - interval '7 days';
  return null;
end;
$function$

;

-- 2.
/** A category approved or renamed: its published posts' pages, and the category's pages, old and new. */
create function private.note_indexnow_category_changes() returns trigger
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if (old.needs_review and not new.needs_review) or old.slug is distinct from new.slug or old.name is distinct from new.name then
    insert into private.indexnow_changes (organization_id, post_slug, category_slug, tags)
    select p.organization_id, p.slug, s.slug, p.tags
    from public.blog_posts p
    cross join lateral (select new.slug union select old.slug where old.slug is distinct from new.slug) s (slug)
    where p.category_id = new.id and p.status = 'published' and p.published_at <= now();
  end if;
  return null;
end;
$$;
revoke execute on function private.note_indexnow_category_changes() from public, anon, authenticated;
create trigger blog_categories_note_indexnow after update on public.blog_categories
  for each row execute function private.note_indexnow_category_changes();
