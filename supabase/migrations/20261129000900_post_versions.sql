-- A POST'S VERSION. The editor saves a post only over the version it opened (its updated_at): a change made
-- elsewhere meanwhile (the scheduler publishing it, another member, a delivery, the queue moving its slot)
-- refuses the save instead of being overwritten silently, and the editor says what changed.
-- Dismissing a "Possible duplicate" mark is not an edit: like a view count, it no longer moves updated_at
-- (which also dates the post in the sitemap), so the editor that dismissed it is not told its own dismissal
-- happened "elsewhere". blog_posts_set_updated_at's WHEN clause cannot be widened (a whole-row reference is
-- refused on a table with generated columns), so a later BEFORE trigger (triggers fire in name order) puts the
-- version back when the mark is all that changed.

/** Keeps updated_at when an update changes nothing but the duplicate mark (and what never counts: views). */
create function private.keep_post_version_on_marks() returns trigger
language plpgsql set search_path = ''
as $$
begin
  -- Generated columns are not computed yet in a BEFORE trigger's NEW: left out of the comparison.
  if (to_jsonb(old) - 'duplicate_of' - 'view_count' - 'updated_at' - 'title_key' - 'body_sketch')
     = (to_jsonb(new) - 'duplicate_of' - 'view_count' - 'updated_at' - 'title_key' - 'body_sketch') then
    new.updated_at := old.updated_at;
  end if;
  return new;
end;
$$;
revoke execute on function private.keep_post_version_on_marks() from public, anon, authenticated;
create trigger blog_posts_version_ignores_marks before update of duplicate_of on public.blog_posts
  for each row execute function private.keep_post_version_on_marks();
