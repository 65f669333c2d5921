-- POSTS KEEP WHAT THEIR AUTHOR WROTE, KEEP THEIR REVISIONS, AND THE DATABASE LOGS THE WORK ON THEM (issue 17).
--
-- * blog_posts.content_source / content_format: the author's own text (Markdown, or HTML when only HTML
--   arrived); `content` stays the sanitized HTML derived from it on every save (src/lib/post-content.ts, the
--   one shaping path of the editor and the webhook). Existing rows had only HTML: it becomes their source.
-- * blog_post_revisions: every save of title, content, excerpt or SEO fields keeps a revision (who, when,
--   what changed), written by a trigger; members read them, nobody writes them; restore_post_revision()
--   puts one back (itself a new revision). Deleted with their post. An existing post's current version is
--   its first revision.
-- * The post's audit trail (created, updated, published, unpublished, scheduled, schedule cancelled,
--   restored, deleted) is written by a trigger on blog_posts, in the transaction of the write: a closed tab
--   or a raw REST call cannot skip it, and nobody can write those actions themselves.
--
-- The transaction-local setting `app.post_change` tells the triggers who is writing when it is not a
-- signed-in user: 'webhook' (upsert_webhook_post), 'schedule' (publish_due_posts), 'restore'
-- (restore_post_revision) or 'bulk' (a change across many posts that logs one entry of its own, e.g. a tag
-- merge). Only SQL functions set it: PostgREST lets API callers set no settings outside `request.*`.

-- THE AUTHOR'S SOURCE.

alter table public.blog_posts
  add column content_source text,
  add column content_format text not null default 'html' check (content_format in ('markdown', 'html'));

-- Backfill without touching updated_at (it drives rebuilds and the sitemap's lastmod).
alter table public.blog_posts disable trigger blog_posts_set_updated_at;
update public.blog_posts set content_source = content;
alter table public.blog_posts enable trigger blog_posts_set_updated_at;

alter table public.blog_posts
  alter column content_source set not null,
  add constraint blog_posts_content_source_check check (length(btrim(content_source)) between 1 and 2000000);

comment on column public.blog_posts.content is 'Sanitized article HTML, derived from content_source on every save.';
comment on column public.blog_posts.content_source is 'What the author wrote, in content_format (Markdown or HTML).';

/**
 * Keeps the source/HTML pair coherent for writers that know only `content` (a REST client, an old script):
 * a row inserted without a source, or whose HTML changed while its source did not, gets that HTML as its
 * HTML source. The editor and the webhook always send both.
 */
create function public.keep_post_source() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if new.content_source is null then
      new.content_source := new.content;
      new.content_format := 'html';
    end if;
  elsif new.content is distinct from old.content and new.content_source is not distinct from old.content_source then
    new.content_source := new.content;
    new.content_format := 'html';
  end if;
  return new;
end;
$$;
revoke execute on function public.keep_post_source() from public, anon, authenticated;

create trigger blog_posts_keep_source before insert or update of content, content_source on public.blog_posts
  for each row execute function public.keep_post_source();

-- REVISIONS.

create table public.blog_post_revisions (
  id uuid primary key default gen_random_uuid(),
  post_id uuid not null,
  organization_id uuid not null,
  -- Who saved it; null for the writing tool, the scheduler, or a deleted account.
  editor_id uuid references public.profiles (id) on delete set null,
  -- 'editor' (a signed-in member), 'webhook', 'restore' or 'system' (anything else with the service role).
  source text not null check (source in ('editor', 'webhook', 'restore', 'system')),
  -- The revision this one restored (it may since have been pruned).
  restored_from uuid,
  -- What this save changed; empty for the post's first version.
  changed_fields text[] not null default '{}',
  title text not null,
  excerpt text,
  content_source text not null,
  content_format text not null,
  content text not null,
  reading_time integer,
  meta_title text,
  meta_description text,
  created_at timestamptz not null default clock_timestamp(),
  foreign key (post_id, organization_id) references public.blog_posts (id, organization_id) on delete cascade
);
alter table public.blog_post_revisions enable row level security;
create index blog_post_revisions_post_idx on public.blog_post_revisions (post_id, organization_id, created_at desc);
create index blog_post_revisions_editor_idx on public.blog_post_revisions (editor_id);

comment on table public.blog_post_revisions is
  'A post''s saved versions (title, content, excerpt, SEO fields); written only by blog_posts'' trigger, newest 50 kept per post.';

revoke all on table public.blog_post_revisions from anon, authenticated;
grant select on table public.blog_post_revisions to authenticated;
grant all on table public.blog_post_revisions to service_role;

create policy "Members can read revisions of their organizations' posts" on public.blog_post_revisions
  for select to authenticated using ((select private.is_org_member(organization_id)));

/** How many revisions a post keeps (the oldest beyond go). */
create function private.post_revisions_kept() returns integer
language sql immutable parallel safe set search_path = ''
as $$ select 50 $$;

/** Who is changing posts in this transaction, when it is not a signed-in member (see the header). */
create function private.post_change() returns text
language sql stable set search_path = ''
as $$ select coalesce(current_setting('app.post_change', true), '') $$;

/** The fields an update of a post changed, as the audit log and the revisions name them. */
create function private.post_changed_fields(p_old public.blog_posts, p_new public.blog_posts) returns text[]
language sql immutable set search_path = ''
as $$
  select coalesce(array_agg(field order by ord), '{}')
  from (values
    (1, 'title', p_old.title is distinct from p_new.title),
    (2, 'slug', p_old.slug is distinct from p_new.slug),
    (3, 'excerpt', p_old.excerpt is distinct from p_new.excerpt),
    (4, 'content', p_old.content_source is distinct from p_new.content_source
                   or p_old.content_format is distinct from p_new.content_format
                   or p_old.content is distinct from p_new.content),
    (5, 'category', p_old.category_id is distinct from p_new.category_id),
    (6, 'tags', p_old.tags is distinct from p_new.tags),
    (7, 'featured_image', p_old.featured_image_url is distinct from p_new.featured_image_url),
    (8, 'meta_title', p_old.meta_title is distinct from p_new.meta_title),
    (9, 'meta_description', p_old.meta_description is distinct from p_new.meta_description),
    (10, 'publication_time', p_old.published_at is distinct from p_new.published_at)
  ) as f (ord, field, changed)
  where changed
$$;

/** Keeps a revision of a post whose title, content, excerpt or SEO fields were written (and prunes old ones). */
create function private.record_post_revision() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_change text := private.post_change();
  v_editor uuid := private.current_active_user_id();
  v_fields text[];
begin
  if tg_op = 'INSERT' then
    v_fields := '{}';
  else
    v_fields := array(
      select f from unnest(private.post_changed_fields(old, new)) f
      where f in ('title', 'excerpt', 'content', 'meta_title', 'meta_description')
    );
    if cardinality(v_fields) = 0 and v_change <> 'restore' then
      return null;
    end if;
  end if;
  insert into public.blog_post_revisions (
    post_id, organization_id, editor_id, source, restored_from, changed_fields, title, excerpt, content_source,
    content_format, content, reading_time, meta_title, meta_description
  ) values (
    new.id, new.organization_id, v_editor,
    case
      when v_change in ('webhook', 'restore') then v_change
      when v_editor is not null then 'editor'
      else 'system'
    end,
    case when v_change = 'restore' then nullif(current_setting('app.restored_revision', true), '')::uuid end,
    v_fields, new.title, new.excerpt, new.content_source, new.content_format, new.content, new.reading_time,
    new.meta_title, new.meta_description
  );
  delete from public.blog_post_revisions r
  where r.id in (
    select old_r.id from public.blog_post_revisions old_r
    where old_r.post_id = new.id
    order by old_r.created_at desc, old_r.id desc
    offset private.post_revisions_kept()
  );
  return null;
end;
$$;
revoke execute on function private.record_post_revision() from public, anon, authenticated;

-- Existing posts start their history with the version they have now, so the first edit can be undone.
insert into public.blog_post_revisions (
  post_id, organization_id, source, title, excerpt, content_source, content_format, content, reading_time,
  meta_title, meta_description, created_at
)
select id, organization_id, 'system', title, excerpt, content_source, content_format, content, reading_time,
  meta_title, meta_description, updated_at
from public.blog_posts;

create trigger blog_posts_record_revision
  after insert or update of title, excerpt, content_source, content_format, content, meta_title, meta_description
  on public.blog_posts
  for each row execute function private.record_post_revision();

/**
 * Puts a revision's title, content, excerpt and SEO fields back on its post; the restore is itself a new
 * revision (with `restored_from`) and is logged `post_restored`. Runs with the caller's rights: members
 * read revisions, editors and admins write posts, so a viewer or another organization's member gets an
 * error and nothing changes. Returns the post's id.
 */
create function public.restore_post_revision(p_revision_id uuid) returns uuid
language plpgsql volatile security invoker set search_path = ''
as $$
declare
  v_revision public.blog_post_revisions;
  v_post_id uuid;
begin
  select * into v_revision from public.blog_post_revisions r where r.id = p_revision_id;
  if v_revision.id is null then
    raise exception 'This revision does not exist or you may not read it.' using errcode = 'P0002';
  end if;
  perform set_config('app.post_change', 'restore', true);
  perform set_config('app.restored_revision', p_revision_id::text, true);
  update public.blog_posts p set
    title = v_revision.title,
    excerpt = v_revision.excerpt,
    content_source = v_revision.content_source,
    content_format = v_revision.content_format,
    content = v_revision.content,
    reading_time = v_revision.reading_time,
    meta_title = v_revision.meta_title,
    meta_description = v_revision.meta_description
  where p.id = v_revision.post_id
  returning p.id into v_post_id;
  perform set_config('app.post_change', '', true);
  perform set_config('app.restored_revision', '', true);
  if v_post_id is null then
    raise exception 'You do not have permission to change this post.' using errcode = '42501';
  end if;
  return v_post_id;
end;
$$;
revoke execute on function public.restore_post_revision(uuid) from public, anon;
grant execute on function public.restore_post_revision(uuid) to authenticated, service_role;

-- THE POST AUDIT TRAIL.

/**
 * Logs what a write did to a post: post_created, post_published, post_unpublished, post_scheduled (also a
 * new time), post_schedule_cancelled, post_restored, post_updated (with the fields changed) or
 * post_deleted, with the post's title, slug and status. The actor is the signed-in member; the writing
 * tool and the scheduler write with the service role, so their entries have no user and say `via`.
 * A view-count bump or an author change of a deleted account logs nothing; neither does a 'bulk' change
 * (its function logs one entry) nor the cascade of a deleted organization.
 */
create function private.log_post_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_change text := private.post_change();
  v_post public.blog_posts := case when tg_op = 'DELETE' then old else new end;
  v_fields text[] := '{}';
  v_action text;
  v_details jsonb;
begin
  if v_change = 'bulk' then
    return null;
  end if;
  if tg_op = 'DELETE' then
    if not exists (select 1 from public.organizations o where o.id = old.organization_id) then
      return null;
    end if;
    v_action := 'post_deleted';
  elsif tg_op = 'INSERT' then
    v_action := 'post_created';
  else
    v_fields := private.post_changed_fields(old, new);
    v_action := case
      when v_change = 'restore' then 'post_restored'
      when new.status = 'published' and old.status <> 'published' then 'post_published'
      when new.status = 'draft' and old.status = 'published' then 'post_unpublished'
      when new.status = 'draft' and old.status = 'scheduled' then 'post_schedule_cancelled'
      when new.status = 'scheduled' and (old.status <> 'scheduled' or 'publication_time' = any (v_fields)) then 'post_scheduled'
      when cardinality(v_fields) > 0 then 'post_updated'
    end;
    if v_action is null then
      return null;
    end if;
  end if;
  v_details := jsonb_build_object('title', v_post.title, 'slug', v_post.slug, 'status', v_post.status)
    || case when cardinality(v_fields) > 0 then jsonb_build_object('fields', to_jsonb(v_fields)) else '{}' end
    || case when v_post.status = 'scheduled' then jsonb_build_object('published_at', v_post.published_at) else '{}' end
    || case when v_change in ('webhook', 'schedule') then jsonb_build_object('via', v_change) else '{}' end
    || case when v_change = 'restore' then jsonb_build_object('revision_id', current_setting('app.restored_revision', true)) else '{}' end;
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  values (private.current_active_user_id(), v_post.organization_id, v_action, 'blog_post', v_post.id::text, v_details);
  return null;
end;
$$;
revoke execute on function private.log_post_change() from public, anon, authenticated;

create trigger blog_posts_log_change after insert or update or delete on public.blog_posts
  for each row execute function private.log_post_change();

-- Post work is logged by the database now: the browser may no longer write post_deleted itself.
create or replace function private.is_client_activity(p_action text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$ select p_action in ('admin_logout', 'password_changed') $$;

-- THE WRITERS WITH THE SERVICE ROLE SAY WHO THEY ARE.

/** Publishes scheduled posts whose time has come (the scheduled function); logged via 'schedule'. */
create or replace function public.publish_due_posts() returns table (post_id uuid, organization_id uuid)
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform set_config('app.post_change', 'schedule', true);
  return query
  update public.blog_posts p set status = 'published'
  where p.status = 'scheduled' and p.published_at <= now()
  returning p.id, p.organization_id;
  perform set_config('app.post_change', '', true);
end;
$$;
revoke execute on function public.publish_due_posts() from public, anon, authenticated;
grant execute on function public.publish_due_posts() to service_role;

-- The webhook's upsert and its one-call wrapper take the source and its format next to the HTML.
drop function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text[], text, integer, text, integer, text, integer);
drop function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text[], text, integer, text);

/**
 * Creates or updates (same organization and slug) the writing tool's post: publish mode from the
 * organization's settings, the configured author while still a member, the category by name, else by a
 * former slug of a renamed or merged category (so ZimmWriter's old names follow an editor's rename or merge
 * instead of creating the category again), else created; and the delivery record in the same statement.
 * Logged and revised via 'webhook'.
 */
create function public.upsert_webhook_post(
  p_organization_id uuid,
  p_slug text,
  p_title text,
  p_content text,
  p_content_source text,
  p_content_format text,
  p_excerpt text default null,
  p_category_name text default null,
  p_category_slug text default null,
  p_tags text[] default null,
  p_featured_image_url text default null,
  p_reading_time integer default null,
  p_note text default null
) returns table (post_id uuid, post_status text, post_slug text, created boolean)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_mode text;
  v_author uuid;
  v_category uuid;
begin
  select coalesce(o.settings #>> '{webhook,publish_mode}', 'publish') into v_mode
  from public.organizations o where o.id = p_organization_id;
  if not found then
    raise exception 'upsert_webhook_post: no organization %', p_organization_id using errcode = 'P0002';
  end if;
  perform set_config('app.post_change', 'webhook', true);

  -- The configured author only while they still belong to the organization.
  select w.author_id into v_author
  from public.webhook_integrations w
  join public.organization_memberships m on m.user_id = w.author_id and m.organization_id = w.organization_id
  where w.organization_id = p_organization_id;

  if p_category_name is not null then
    select c.id into v_category from public.blog_categories c
    where c.organization_id = p_organization_id and lower(c.name) = lower(p_category_name)
    order by c.created_at limit 1;
    if v_category is null then
      -- A former slug of a renamed or merged category: the tool's old name follows the change.
      select r.category_id into v_category from public.blog_category_redirects r
      where r.organization_id = p_organization_id and r.old_slug = p_category_slug;
    end if;
    if v_category is null then
      -- The no-op update makes a concurrent creator's row come back from RETURNING too.
      insert into public.blog_categories as c (organization_id, name, slug)
      values (p_organization_id, p_category_name, p_category_slug)
      on conflict (organization_id, slug) do update set slug = c.slug
      returning c.id into v_category;
    end if;
  end if;

  return query
  with upserted as (
    insert into public.blog_posts as p (
      organization_id, slug, title, content, content_source, content_format, excerpt, category_id, tags,
      featured_image_url, reading_time, status, published_at, author_id
    ) values (
      p_organization_id, p_slug, p_title, p_content, p_content_source, p_content_format, p_excerpt, v_category,
      p_tags, p_featured_image_url, p_reading_time, case when v_mode = 'publish' then 'published' else 'draft' end,
      case when v_mode = 'publish' then now() end, v_author
    )
    on conflict (organization_id, slug) do update set
      title = excluded.title,
      content = excluded.content,
      content_source = excluded.content_source,
      content_format = excluded.content_format,
      excerpt = excluded.excerpt,
      category_id = excluded.category_id,
      tags = excluded.tags,
      featured_image_url = excluded.featured_image_url,
      reading_time = excluded.reading_time
    -- xmax is 0 only on a row this statement inserted.
    returning p.id, p.status, p.slug, (p.xmax = 0) as inserted
  ), delivery as (
    insert into public.webhook_deliveries (organization_id, status_code, post_id, slug, note)
    select p_organization_id, case when u.inserted then 201 else 200 end, u.id, u.slug, p_note from upserted u
  )
  select u.id, u.status, u.slug, u.inserted from upserted u;
  perform set_config('app.post_change', '', true);
end;
$$;
revoke execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], text, integer, text)
  from public, anon, authenticated;
grant execute on function public.upsert_webhook_post(uuid, text, text, text, text, text, text, text, text, text[], text, integer, text)
  to service_role;

/**
 * Receives one writing-tool delivery for the organization named by p_token (the public webhook) or by
 * p_organization_id (the back office's test form, whose caller the function has verified as an admin).
 *
 * Answers `{ found: false }` for an unknown token or organization, having written nothing. Otherwise
 * `{ found: true, organization: { slug, domain }, ... }` and the delivery is recorded:
 * - p_refused_status given (400/413/422 decided by the function, or 500 for a failure before the
 *   database): the refusal with p_refused_error, no post;
 * - the upsert failed (a constraint, say): a 500 delivery whose error names its reference, and
 *   `error` (the Postgres text, for the function's log only) and `reference` in the answer; the
 *   upsert's writes (post, new category) are rolled back;
 * - else `post: { id, status, slug, created }` (upsert_webhook_post records the delivery in the same
 *   statement) and, for a published post, `rebuild` (request_site_rebuild's answer; its failure is only a
 *   warning, the post stays stored).
 */
create function public.receive_webhook_delivery(
  p_token text default null,
  p_organization_id uuid default null,
  p_slug text default null,
  p_title text default null,
  p_content text default null,
  p_content_source text default null,
  p_content_format text default null,
  p_excerpt text default null,
  p_category_name text default null,
  p_category_slug text default null,
  p_tags text[] default null,
  p_featured_image_url text default null,
  p_reading_time integer default null,
  p_note text default null,
  p_refused_status integer default null,
  p_refused_error text default null,
  p_quiet_window_ms integer default 60000
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_org_id uuid;
  v_org jsonb;
  v_post record;
  v_rebuild jsonb;
  v_delivery_id uuid;
  v_reference text;
begin
  if (p_token is null) = (p_organization_id is null) then
    raise exception 'receive_webhook_delivery: give either p_token or p_organization_id' using errcode = '22023';
  end if;
  v_org_id := coalesce(p_organization_id, public.organization_for_webhook_token(p_token));
  select jsonb_build_object('slug', o.slug, 'domain', o.domain) into v_org
  from public.organizations o where o.id = v_org_id;
  if v_org is null then
    return jsonb_build_object('found', false);
  end if;

  if p_refused_status is not null then
    insert into public.webhook_deliveries (organization_id, status_code, slug, error)
    values (v_org_id, p_refused_status, p_slug, left(p_refused_error, 2000));
    return jsonb_build_object('found', true, 'organization', v_org);
  end if;

  begin
    select * into strict v_post from public.upsert_webhook_post(
      v_org_id, p_slug, p_title, p_content, p_content_source, p_content_format, p_excerpt, p_category_name,
      p_category_slug, p_tags, p_featured_image_url, p_reading_time, p_note
    );
  exception when others then
    v_delivery_id := gen_random_uuid();
    v_reference := left(v_delivery_id::text, 8);
    insert into public.webhook_deliveries (id, organization_id, status_code, slug, error)
    values (v_delivery_id, v_org_id, 500, p_slug,
            left('Could not store the post (reference ' || v_reference || '): ' || sqlerrm, 2000));
    return jsonb_build_object('found', true, 'organization', v_org, 'error', sqlerrm, 'reference', v_reference);
  end;

  if v_post.post_status = 'published' then
    begin
      v_rebuild := public.request_site_rebuild(
        v_org_id,
        case when v_post.created then 'post published by webhook' else 'post updated by webhook' end,
        p_quiet_window_ms
      );
    exception when others then
      raise warning 'receive_webhook_delivery: rebuild request of % failed: %', v_org ->> 'slug', sqlerrm;
    end;
  end if;

  return jsonb_build_object(
    'found', true,
    'organization', v_org,
    'post', jsonb_build_object('id', v_post.post_id, 'status', v_post.post_status, 'slug', v_post.post_slug, 'created', v_post.created),
    'rebuild', v_rebuild
  );
end;
$$;
revoke execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], text, integer, text, integer, text, integer)
  from public, anon, authenticated;
grant execute on function public.receive_webhook_delivery(text, uuid, text, text, text, text, text, text, text, text, text[], text, integer, text, integer, text, integer)
  to service_role;
