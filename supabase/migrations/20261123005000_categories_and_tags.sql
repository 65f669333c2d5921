-- CATEGORIES AND TAGS ARE MANAGED, AND THE DATABASE KEEPS THEM TIDY.
--
-- 1. Every organization has exactly one default category, "Uncategorized" (blog_categories.is_default, one
--    per organization by a partial unique index). The migration gives each existing organization one (an
--    existing `uncategorized` category becomes it); a trigger on organizations does it for new ones. A post
--    saved without a category (editor, REST, webhook) gets the default, and posts without one move to it now.
-- 2. The default cannot be deleted (except with its organization). Deleting another category moves its posts
--    to the default first, in a BEFORE DELETE trigger, so a raw REST delete does it too.
-- 3. Renaming a category (a new slug) leaves its old slug as a redirect (blog_category_redirects, written by
--    triggers only); a slug that becomes a live category's slug stops being a redirect.
-- 4. merge_categories(source, target): posts, slug and redirects of the source go to the target, then the
--    source is deleted. Editors and admins of the organization only; never the default into another.
-- 5. Tags are case-insensitive per organization: blog_tags remembers the first spelling of each tag, and a
--    BEFORE trigger on blog_posts de-duplicates a post's tags and spells each as the registry does (an index
--    lookup per tag, no scan of posts). The migration merges existing duplicates, keeping the earliest post's
--    spelling. rename_tag(organization, from, to) renames or, when `to` already exists, merges.
-- 6. Each change writes one user_activity_logs entry in the same transaction (category_created,
--    category_renamed, categories_merged, category_deleted, tag_renamed, tags_merged; resource_type
--    blog_category / blog_tag). Bulk post updates set app.post_change = 'bulk' (transaction-local) so the
--    post audit triggers skip their per-post entries for them.

-- 1. THE DEFAULT CATEGORY

alter table public.blog_categories add column is_default boolean not null default false;
comment on column public.blog_categories.is_default is
  'The organization''s "Uncategorized" category: exactly one per organization, posts without a category land in it.';
create unique index blog_categories_one_default_idx on public.blog_categories (organization_id) where is_default;

/** The organization's default category, created (or an existing `uncategorized` one promoted) when missing. */
create function private.default_category_id(p_organization_id uuid) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  select c.id into v_id from public.blog_categories c where c.organization_id = p_organization_id and c.is_default;
  if v_id is not null then
    return v_id;
  end if;
  update public.blog_categories c set is_default = true
  where c.organization_id = p_organization_id and c.slug = 'uncategorized'
  returning c.id into v_id;
  if v_id is null then
    insert into public.blog_categories (organization_id, name, slug, is_default)
    values (p_organization_id, 'Uncategorized', 'uncategorized', true)
    returning id into v_id;
  end if;
  return v_id;
end;
$$;
revoke execute on function private.default_category_id(uuid) from public, anon, authenticated;

create function private.create_default_category() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.default_category_id(new.id);
  return null;
end;
$$;
revoke execute on function private.create_default_category() from public, anon, authenticated;
create trigger organizations_create_default_category after insert on public.organizations
  for each row execute function private.create_default_category();

select private.default_category_id(o.id) from public.organizations o;

/** Clients never choose or move the default, nor move a category to another organization. */
create function private.guard_category() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and (
    (tg_op = 'INSERT' and new.is_default)
    or (tg_op = 'UPDATE' and (new.is_default, new.organization_id) is distinct from (old.is_default, old.organization_id))
  ) then
    raise exception 'default_category: the default category is set by the database' using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke execute on function private.guard_category() from public, anon, authenticated;
create trigger blog_categories_guard before insert or update on public.blog_categories
  for each row execute function private.guard_category();

-- 5 (first half). THE TAG REGISTRY

create table public.blog_tags (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null check (length(name) between 1 and 50 and name = btrim(name)),
  created_at timestamptz not null default now()
);
alter table public.blog_tags enable row level security;
create unique index blog_tags_organization_lower_name_idx on public.blog_tags (organization_id, lower(name));
comment on table public.blog_tags is
  'One row per tag of an organization, in the spelling first used; posts spell their tags this way (case-insensitive).';

revoke all on table public.blog_tags from public, anon, authenticated;
grant select on table public.blog_tags to authenticated;
grant all on table public.blog_tags to service_role;
create policy "Members read the tags of their organizations" on public.blog_tags
  for select to authenticated using ((select private.is_org_member(organization_id)));

/**
 * The tags as the organization spells them: each registered on first use, duplicates (case-insensitive)
 * dropped, order kept. Null stays null.
 */
create function private.canonical_tags(p_organization_id uuid, p_tags text[]) returns text[]
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_tag text;
  v_name text;
  v_out text[] := '{}';
begin
  if p_tags is null then
    return null;
  end if;
  foreach v_tag in array p_tags loop
    select t.name into v_name from public.blog_tags t
    where t.organization_id = p_organization_id and lower(t.name) = lower(v_tag);
    if v_name is null then
      insert into public.blog_tags (organization_id, name) values (p_organization_id, v_tag)
      on conflict (organization_id, lower(name)) do nothing;
      select t.name into v_name from public.blog_tags t
      where t.organization_id = p_organization_id and lower(t.name) = lower(v_tag);
    end if;
    if not v_name = any (v_out) then
      v_out := v_out || v_name;
    end if;
  end loop;
  return v_out;
end;
$$;
revoke execute on function private.canonical_tags(uuid, text[]) from public, anon, authenticated;

/** Posts: no category means the default one; tags spelled as the organization spells them. */
create function private.apply_post_taxonomy() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.category_id is null then
    new.category_id := private.default_category_id(new.organization_id);
  end if;
  -- Invalid lists are left for the table's check constraint to refuse with its usual error.
  if (tg_op = 'INSERT' or new.tags is distinct from old.tags or new.organization_id <> old.organization_id)
     and public.is_valid_tag_list(new.tags) then
    new.tags := private.canonical_tags(new.organization_id, new.tags);
  end if;
  return new;
end;
$$;
revoke execute on function private.apply_post_taxonomy() from public, anon, authenticated;
-- Named to run before blog_posts_set_updated_at (BEFORE triggers fire in name order).
create trigger blog_posts_apply_taxonomy before insert or update on public.blog_posts
  for each row execute function private.apply_post_taxonomy();

/**
 * Registers the tags of an organization's posts, the earliest post's spelling first, and rewrites the posts
 * whose tags change (duplicates merged). Used by this migration; returns how many posts changed.
 */
create function private.normalize_organization_tags(p_organization_id uuid) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_count integer;
  v_previous text := coalesce(current_setting('app.post_change', true), '');
begin
  insert into public.blog_tags (organization_id, name)
  select distinct on (lower(t.tag)) p_organization_id, t.tag
  from public.blog_posts p, unnest(p.tags) with ordinality as t (tag, position)
  where p.organization_id = p_organization_id and public.is_valid_tag_list(p.tags)
  order by lower(t.tag), p.created_at, p.id, t.position
  on conflict (organization_id, lower(name)) do nothing;

  perform set_config('app.post_change', 'bulk', true);
  update public.blog_posts p set tags = private.canonical_tags(p.organization_id, p.tags)
  where p.organization_id = p_organization_id
    and public.is_valid_tag_list(p.tags)
    and p.tags is distinct from private.canonical_tags(p.organization_id, p.tags);
  get diagnostics v_count = row_count;
  perform set_config('app.post_change', v_previous, true);
  return v_count;
end;
$$;
revoke execute on function private.normalize_organization_tags(uuid) from public, anon, authenticated;

select private.normalize_organization_tags(o.id) from public.organizations o;

-- Posts without a category move to their organization's default (the trigger fills it in).
select set_config('app.post_change', 'bulk', true);
update public.blog_posts set category_id = null where category_id is null;
select set_config('app.post_change', '', true);

-- 3. REDIRECTS FROM OLD CATEGORY SLUGS

create table public.blog_category_redirects (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  old_slug text not null check (public.is_valid_slug(old_slug)),
  category_id uuid not null,
  created_at timestamptz not null default now(),
  unique (organization_id, old_slug),
  foreign key (category_id, organization_id) references public.blog_categories (id, organization_id) on delete cascade
);
alter table public.blog_category_redirects enable row level security;
create index blog_category_redirects_category_id_idx on public.blog_category_redirects (category_id, organization_id);
comment on table public.blog_category_redirects is
  'Old slugs of renamed or merged categories, so their old pages redirect; written by the database only.';

revoke all on table public.blog_category_redirects from public, anon, authenticated;
grant select on table public.blog_category_redirects to anon, authenticated;
grant all on table public.blog_category_redirects to service_role;
create policy "Anyone can read category redirects" on public.blog_category_redirects
  for select to anon, authenticated using (true);

-- 6. THE AUDIT ENTRY OF A CATEGORY OR TAG CHANGE

/**
 * Writes one activity entry for a taxonomy change, by the caller; the server's own changes (the webhook
 * creating a category) have no actor and say so with details.by_server.
 */
create function private.log_taxonomy_change(
  p_organization_id uuid, p_action text, p_resource_type text, p_resource_id text, p_details jsonb
) returns void
language sql volatile security definer set search_path = ''
as $$
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  select v.actor, p_organization_id, p_action, p_resource_type, left(p_resource_id, 128),
    p_details || case when v.actor is null and private.is_service_caller() then '{"by_server": true}'::jsonb else '{}'::jsonb end
  from (select private.current_active_user_id() as actor) v
$$;
revoke execute on function private.log_taxonomy_change(uuid, text, text, text, jsonb) from public, anon, authenticated;

/** Category rows: a new or renamed category's slug stops being a redirect; the old slug of a rename becomes one. */
create function private.record_category_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from public.blog_category_redirects r where r.organization_id = new.organization_id and r.old_slug = new.slug;
  if tg_op = 'INSERT' then
    if not new.is_default then
      perform private.log_taxonomy_change(new.organization_id, 'category_created', 'blog_category', new.id::text,
        jsonb_build_object('name', new.name, 'slug', new.slug));
    end if;
  elsif (old.name, old.slug) is distinct from (new.name, new.slug) then
    if old.slug <> new.slug then
      insert into public.blog_category_redirects (organization_id, old_slug, category_id)
      values (old.organization_id, old.slug, new.id)
      on conflict (organization_id, old_slug) do update set category_id = excluded.category_id;
    end if;
    perform private.log_taxonomy_change(new.organization_id, 'category_renamed', 'blog_category', new.id::text,
      jsonb_build_object('old_name', old.name, 'new_name', new.name, 'old_slug', old.slug, 'new_slug', new.slug,
        'post_count', (select count(*) from public.blog_posts p where p.category_id = new.id)));
  end if;
  return null;
end;
$$;
revoke execute on function private.record_category_change() from public, anon, authenticated;
create trigger blog_categories_record_change after insert or update on public.blog_categories
  for each row execute function private.record_category_change();

-- 2. DELETING A CATEGORY

/**
 * Before a category goes: the default one stays (unless its organization is being deleted); another one's
 * posts move to the default, and the deletion is logged (a merge logs its own entry instead).
 */
create function private.before_category_delete() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_default uuid;
  v_count integer;
  v_previous text := coalesce(current_setting('app.post_change', true), '');
begin
  -- The organization's own deletion cascades here after its row is gone: let everything go.
  if not exists (select 1 from public.organizations o where o.id = old.organization_id) then
    return old;
  end if;
  if old.is_default then
    raise exception 'default_category: the default category "%" cannot be deleted', old.name
      using errcode = 'P0001', hint = 'Posts without a category need it. Rename it instead.';
  end if;
  v_default := private.default_category_id(old.organization_id);
  perform set_config('app.post_change', 'bulk', true);
  update public.blog_posts p set category_id = v_default where p.category_id = old.id;
  get diagnostics v_count = row_count;
  perform set_config('app.post_change', v_previous, true);
  if coalesce(current_setting('app.category_merge', true), '') <> old.id::text then
    perform private.log_taxonomy_change(old.organization_id, 'category_deleted', 'blog_category', old.id::text,
      jsonb_build_object('name', old.name, 'slug', old.slug, 'post_count', v_count,
        'moved_to', (select c.name from public.blog_categories c where c.id = v_default)));
  end if;
  return old;
end;
$$;
revoke execute on function private.before_category_delete() from public, anon, authenticated;
create trigger blog_categories_before_delete before delete on public.blog_categories
  for each row execute function private.before_category_delete();

-- 4. MERGING CATEGORIES

/**
 * Moves the source category's posts to the target, makes the source's slug and redirects point at the
 * target, and deletes the source. Both in one organization the caller edits; returns the posts moved.
 */
create function private.merge_categories(p_source_id uuid, p_target_id uuid) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_source public.blog_categories;
  v_target public.blog_categories;
  v_count integer;
  v_previous text := coalesce(current_setting('app.post_change', true), '');
begin
  select * into v_source from public.blog_categories c where c.id = p_source_id for update;
  select * into v_target from public.blog_categories c where c.id = p_target_id for update;
  if v_source.id is null or v_target.id is null
     or not private.is_org_editor(v_source.organization_id) or not private.is_org_editor(v_target.organization_id) then
    raise exception 'merge_categories: only an editor or admin of the categories'' organization can merge them'
      using errcode = '42501';
  end if;
  if v_source.organization_id <> v_target.organization_id then
    raise exception 'merge_categories: both categories must belong to the same organization' using errcode = '22023';
  end if;
  if v_source.id = v_target.id then
    raise exception 'merge_categories: a category cannot be merged into itself' using errcode = '22023';
  end if;
  if v_source.is_default then
    raise exception 'default_category: the default category "%" cannot be merged into another', v_source.name
      using errcode = '22023', hint = 'Merge the other category into it instead.';
  end if;

  perform set_config('app.post_change', 'bulk', true);
  update public.blog_posts p set category_id = v_target.id where p.category_id = v_source.id;
  get diagnostics v_count = row_count;
  perform set_config('app.post_change', v_previous, true);

  update public.blog_category_redirects r set category_id = v_target.id where r.category_id = v_source.id;
  insert into public.blog_category_redirects (organization_id, old_slug, category_id)
  values (v_source.organization_id, v_source.slug, v_target.id)
  on conflict (organization_id, old_slug) do update set category_id = excluded.category_id;

  perform set_config('app.category_merge', v_source.id::text, true);
  delete from public.blog_categories c where c.id = v_source.id;
  perform set_config('app.category_merge', '', true);

  perform private.log_taxonomy_change(v_target.organization_id, 'categories_merged', 'blog_category', v_target.id::text,
    jsonb_build_object('from_name', v_source.name, 'from_slug', v_source.slug, 'to_name', v_target.name,
      'to_slug', v_target.slug, 'post_count', v_count));
  return v_count;
end;
$$;
revoke execute on function private.merge_categories(uuid, uuid) from public, anon;
grant execute on function private.merge_categories(uuid, uuid) to authenticated, service_role;

/** Merges one category into another (see private.merge_categories); returns how many posts moved. */
create function public.merge_categories(p_source_id uuid, p_target_id uuid) returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.merge_categories(p_source_id, p_target_id) $$;
revoke execute on function public.merge_categories(uuid, uuid) from public, anon;
grant execute on function public.merge_categories(uuid, uuid) to authenticated, service_role;

-- 5 (second half). RENAMING AND MERGING TAGS

/**
 * Renames a tag across the organization's posts, or merges it into an existing tag when `p_to` names one
 * (case-insensitively; a post holding both keeps one). Changing only the case respells the tag. Returns how
 * many posts changed; 0 and no entry when nothing would change.
 */
create function private.rename_tag(p_organization_id uuid, p_from text, p_to text) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_source public.blog_tags;
  v_target public.blog_tags;
  v_count integer;
  v_previous text := coalesce(current_setting('app.post_change', true), '');
begin
  if not private.is_org_editor(p_organization_id) then
    raise exception 'rename_tag: only an editor or admin of organization % can rename its tags', p_organization_id
      using errcode = '42501';
  end if;
  if p_to is null or length(p_to) not between 1 and 50 or p_to <> btrim(p_to) then
    raise exception 'invalid_tag: a tag has 1 to 50 characters and no surrounding spaces' using errcode = '22023';
  end if;
  select * into v_source from public.blog_tags t
  where t.organization_id = p_organization_id and lower(t.name) = lower(p_from) for update;
  if v_source.id is null then
    raise exception 'tag_not_found: no tag "%" in this organization', left(p_from, 50) using errcode = 'P0002';
  end if;
  if v_source.name = p_to then
    return 0;
  end if;
  select * into v_target from public.blog_tags t
  where t.organization_id = p_organization_id and lower(t.name) = lower(p_to) and t.id <> v_source.id for update;

  if v_target.id is null then
    update public.blog_tags t set name = p_to where t.id = v_source.id;
  end if;
  perform set_config('app.post_change', 'bulk', true);
  -- The posts trigger spells the replaced tag as the registry does and drops a duplicate.
  update public.blog_posts p set tags = array_replace(p.tags, v_source.name, coalesce(v_target.name, p_to))
  where p.organization_id = p_organization_id and p.tags @> array[v_source.name];
  get diagnostics v_count = row_count;
  perform set_config('app.post_change', v_previous, true);
  if v_target.id is not null then
    delete from public.blog_tags t where t.id = v_source.id;
  end if;

  perform private.log_taxonomy_change(p_organization_id,
    case when v_target.id is null then 'tag_renamed' else 'tags_merged' end, 'blog_tag', coalesce(v_target.name, p_to),
    jsonb_build_object('from', v_source.name, 'to', coalesce(v_target.name, p_to), 'post_count', v_count));
  return v_count;
end;
$$;
revoke execute on function private.rename_tag(uuid, text, text) from public, anon;
grant execute on function private.rename_tag(uuid, text, text) to authenticated, service_role;

/** Renames or merges a tag of an organization (see private.rename_tag); returns how many posts changed. */
create function public.rename_tag(p_organization_id uuid, p_from text, p_to text) returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.rename_tag(p_organization_id, p_from, p_to) $$;
revoke execute on function public.rename_tag(uuid, text, text) from public, anon;
grant execute on function public.rename_tag(uuid, text, text) to authenticated, service_role;

-- COUNTS FOR THE BACK OFFICE (security invoker: the caller's row-level security decides what is counted)

/** Categories with how many posts (of any status) each holds. */
create view public.blog_category_counts with (security_invoker = true) as
select c.id, c.organization_id, c.name, c.slug, c.is_default,
  (select count(*) from public.blog_posts p where p.category_id = c.id)::integer as post_count
from public.blog_categories c;
revoke all on table public.blog_category_counts from public, anon, authenticated;
grant select on table public.blog_category_counts to authenticated, service_role;

/** Registered tags with how many posts carry each (the GIN index on tags answers each count). */
create view public.blog_tag_counts with (security_invoker = true) as
select t.id, t.organization_id, t.name,
  (select count(*) from public.blog_posts p where p.organization_id = t.organization_id and p.tags @> array[t.name])::integer
    as post_count
from public.blog_tags t;
revoke all on table public.blog_tag_counts from public, anon, authenticated;
grant select on table public.blog_tag_counts to authenticated, service_role;
