-- A VIEW IS NOT AN EDIT. Counting a view (public.count_post_view) moved the post's updated_at: the WHEN clause
-- of blog_posts_set_updated_at leaves view_count out, but in a BEFORE trigger the generated columns
-- (title_key, body_sketch) of NEW are not computed yet, so the whole-row comparison always differed. Every
-- visitor's view then told an editor open on the post that "someone edited it" and refused their save, and
-- dated the post anew in the sitemap. blog_posts_version_ignores_marks (private.keep_post_version_on_marks,
-- which already puts the version back when nothing but the duplicate mark and the view count changed, generated
-- columns left out) now runs for an update of the view count too.

drop trigger blog_posts_version_ignores_marks on public.blog_posts;
create trigger blog_posts_version_ignores_marks before update of duplicate_of, view_count on public.blog_posts
  for each row execute function private.keep_post_version_on_marks();
