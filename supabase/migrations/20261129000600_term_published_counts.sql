-- The WordPress-compatible API's term counts come from the database: the counting views gain each term's
-- integer id (wp_id) and its published posts (WordPress counts only those), so a list of terms is one query
-- whatever the number of posts. Columns are added at the end, so the back office's reads are unchanged.

/** Categories with how many posts (any status, and published) each holds, and whether it waits for review. */
create or replace view public.blog_category_counts with (security_invoker = true) as
select c.id, c.organization_id, c.name, c.slug, c.is_default,
  (select count(*) from public.blog_posts p where p.category_id = c.id)::integer as post_count,
  c.needs_review,
  c.wp_id,
  (select count(*) from public.blog_posts p where p.category_id = c.id and p.status = 'published')::integer
    as published_count
from public.blog_categories c;

/** Registered tags with how many posts (any status, and published) carry each (the GIN index answers each). */
create or replace view public.blog_tag_counts with (security_invoker = true) as
select t.id, t.organization_id, t.name,
  (select count(*) from public.blog_posts p where p.organization_id = t.organization_id and p.tags @> array[t.name])::integer
    as post_count,
  t.wp_id,
  (select count(*) from public.blog_posts p
    where p.organization_id = t.organization_id and p.tags @> array[t.name] and p.status = 'published')::integer
    as published_count
from public.blog_tags t;
