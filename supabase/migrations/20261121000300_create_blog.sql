-- BLOG: categories, posts, redirects from old slugs, and page views.
-- Anyone reads published posts (published_at in the past), their categories and redirects; members read all
-- posts of their organizations; editors write posts and categories; editors delete only their own posts.

create table public.blog_categories (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 80),
  slug text not null check (public.is_valid_slug(slug)),
  description text check (length(description) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, slug),
  -- Target of the composite foreign key that keeps a post's category inside the post's organization.
  unique (id, organization_id)
);
alter table public.blog_categories enable row level security;

create trigger blog_categories_set_updated_at before update on public.blog_categories
  for each row execute function public.set_updated_at();

/** Tags: at most 20, each 1 to 50 characters without surrounding blanks (mirrors PostTagsSchema). */
create function public.is_valid_tag_list(p_tags text[]) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select coalesce(cardinality(p_tags), 0) <= 20
    and coalesce(bool_and(t is not null and length(t) between 1 and 50 and t = btrim(t)), true)
  from unnest(p_tags) as t
$$;

create table public.blog_posts (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  title text not null check (length(btrim(title)) between 1 and 200),
  slug text not null check (public.is_valid_slug(slug)),
  excerpt text check (length(excerpt) <= 500),
  content text not null check (length(btrim(content)) between 1 and 2000000),
  status text not null default 'draft' check (status in ('draft', 'published', 'scheduled')),
  category_id uuid,
  author_id uuid references public.profiles (id) on delete set null,
  tags text[] check (public.is_valid_tag_list(tags)),
  featured_image_url text check (public.is_valid_http_url(featured_image_url)),
  meta_title text check (length(meta_title) <= 200),
  meta_description text check (length(meta_description) <= 500),
  reading_time integer check (reading_time between 1 and 600),
  view_count integer not null default 0 check (view_count >= 0),
  published_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, slug),
  -- Target of the composite foreign key that keeps a redirect inside its post's organization.
  unique (id, organization_id),
  -- Published and scheduled posts carry their (planned) publication time.
  check (status = 'draft' or published_at is not null),
  foreign key (category_id, organization_id) references public.blog_categories (id, organization_id)
    on delete set null (category_id)
);
alter table public.blog_posts enable row level security;
create index blog_posts_category_id_idx on public.blog_posts (category_id, organization_id);
create index blog_posts_author_id_idx on public.blog_posts (author_id);
create index blog_posts_published_idx on public.blog_posts (organization_id, published_at desc) where status = 'published';
create index blog_posts_tags_idx on public.blog_posts using gin (tags);

comment on column public.blog_posts.content is 'Sanitized article HTML.';
comment on column public.blog_posts.published_at is 'Publication time; for scheduled posts the time they go live.';

-- A view counter bump is not an edit: updated_at (used for rebuilds and sitemaps) stays.
create trigger blog_posts_set_updated_at before update on public.blog_posts
  for each row when ((to_jsonb(old) - 'view_count' - 'updated_at') is distinct from (to_jsonb(new) - 'view_count' - 'updated_at'))
  execute function public.set_updated_at();

create table public.blog_post_redirects (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  old_slug text not null check (public.is_valid_slug(old_slug)),
  post_id uuid not null,
  created_at timestamptz not null default now(),
  unique (organization_id, old_slug),
  foreign key (post_id, organization_id) references public.blog_posts (id, organization_id) on delete cascade
);
alter table public.blog_post_redirects enable row level security;
create index blog_post_redirects_post_id_idx on public.blog_post_redirects (post_id, organization_id);

comment on table public.blog_post_redirects is 'Old slugs of posts whose slug changed, so their old URLs keep working.';

/**
 * When a post's slug changes, its old slug becomes a redirect to it; a slug taken by a live post stops being
 * a redirect (the post wins).
 */
create function public.record_slug_redirect() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from public.blog_post_redirects
  where organization_id = new.organization_id and old_slug = new.slug;
  if tg_op = 'UPDATE' and old.slug <> new.slug and old.organization_id = new.organization_id then
    insert into public.blog_post_redirects (organization_id, old_slug, post_id)
    values (old.organization_id, old.slug, new.id)
    on conflict (organization_id, old_slug) do update set post_id = excluded.post_id;
  end if;
  return null;
end;
$$;
revoke execute on function public.record_slug_redirect() from public, anon, authenticated;

create trigger blog_posts_record_slug_redirect after insert or update of slug on public.blog_posts
  for each row execute function public.record_slug_redirect();

create table public.post_views (
  id uuid primary key default gen_random_uuid(),
  post_id uuid not null references public.blog_posts (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  viewed_at timestamptz not null default now()
);
alter table public.post_views enable row level security;
create index post_views_post_id_idx on public.post_views (post_id);
create index post_views_organization_id_idx on public.post_views (organization_id, viewed_at);

comment on table public.post_views is 'One row per counted view; written only by increment_post_view().';

/** Counts a view of a published post (callable by visitors); returns the new view count. */
create function public.increment_post_view(p_post_id uuid) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_org uuid;
  v_count integer;
begin
  update public.blog_posts
  set view_count = view_count + 1
  where id = p_post_id and status = 'published' and published_at <= now()
  returning organization_id, view_count into v_org, v_count;
  if v_org is null then
    raise exception 'post % is not a published post', p_post_id using errcode = 'P0002';
  end if;
  insert into public.post_views (post_id, organization_id) values (p_post_id, v_org);
  return v_count;
end;
$$;
revoke execute on function public.increment_post_view(uuid) from public;
grant execute on function public.increment_post_view(uuid) to anon, authenticated, service_role;

/**
 * Publishes scheduled posts whose time has come (run by the scheduled function with the service role);
 * returns the published posts' ids and organizations so their sites can be rebuilt.
 */
create function public.publish_due_posts() returns table (post_id uuid, organization_id uuid)
language sql volatile security definer set search_path = ''
as $$
  update public.blog_posts p set status = 'published'
  where p.status = 'scheduled' and p.published_at <= now()
  returning p.id, p.organization_id
$$;
revoke execute on function public.publish_due_posts() from public, anon, authenticated;
grant execute on function public.publish_due_posts() to service_role;

-- PRIVILEGES AND POLICIES.

revoke all on table public.blog_categories, public.blog_posts, public.blog_post_redirects, public.post_views
  from anon, authenticated;
grant select on table public.blog_categories, public.blog_posts, public.blog_post_redirects to anon, authenticated;
grant insert, update, delete on table public.blog_categories, public.blog_posts, public.blog_post_redirects
  to authenticated;
grant select on table public.post_views to authenticated;
grant all on table public.blog_categories, public.blog_posts, public.blog_post_redirects, public.post_views
  to service_role;

create policy "Anyone can read categories" on public.blog_categories
  for select to anon, authenticated using (true);
create policy "Editors can create categories" on public.blog_categories
  for insert to authenticated with check ((select public.is_org_editor(organization_id)));
create policy "Editors can update categories" on public.blog_categories
  for update to authenticated
  using ((select public.is_org_editor(organization_id)))
  with check ((select public.is_org_editor(organization_id)));
create policy "Editors can delete categories" on public.blog_categories
  for delete to authenticated using ((select public.is_org_editor(organization_id)));

create policy "Anyone can read published posts" on public.blog_posts
  for select to anon, authenticated using (status = 'published' and published_at <= now());
create policy "Members can read all posts of their organizations" on public.blog_posts
  for select to authenticated using ((select public.is_org_member(organization_id)));
create policy "Editors can create posts as themselves" on public.blog_posts
  for insert to authenticated with check (
    (select public.is_org_editor(organization_id))
    and (author_id = (select auth.uid()) or (select public.is_org_admin(organization_id)))
  );
create policy "Editors can update posts of their organizations" on public.blog_posts
  for update to authenticated
  using ((select public.is_org_editor(organization_id)))
  with check ((select public.is_org_editor(organization_id)));
create policy "Admins and authors can delete posts" on public.blog_posts
  for delete to authenticated using (
    (select public.is_org_admin(organization_id))
    or ((select public.is_org_editor(organization_id)) and author_id = (select auth.uid()))
  );

create policy "Anyone can read redirects of published posts" on public.blog_post_redirects
  for select to anon, authenticated using (
    exists (
      select 1 from public.blog_posts p
      where p.id = post_id and p.status = 'published' and p.published_at <= now()
    )
  );
create policy "Members can read redirects of their organizations" on public.blog_post_redirects
  for select to authenticated using ((select public.is_org_member(organization_id)));
create policy "Editors can create redirects" on public.blog_post_redirects
  for insert to authenticated with check ((select public.is_org_editor(organization_id)));
create policy "Editors can update redirects" on public.blog_post_redirects
  for update to authenticated
  using ((select public.is_org_editor(organization_id)))
  with check ((select public.is_org_editor(organization_id)));
create policy "Editors can delete redirects" on public.blog_post_redirects
  for delete to authenticated using ((select public.is_org_editor(organization_id)));

create policy "Members can read views of their organizations" on public.post_views
  for select to authenticated using ((select public.is_org_member(organization_id)));

-- Public author cards: anon may read the granted columns of profiles that author a published post.
create policy "Anyone can read authors of published posts" on public.profiles
  for select to anon using (
    exists (
      select 1 from public.blog_posts p
      where p.author_id = profiles.id and p.status = 'published' and p.published_at <= now()
    )
  );
