import type { SupabaseClient } from '@supabase/supabase-js';

/** The four 'System Overview' counters of one organization. */
export interface SystemCounters {
  totalPosts: number;
  published: number;
  totalUsers: number;
  totalViews: number;
}

/** The organization's most viewed post, for the Content tab. */
export interface MostViewedPost {
  id: string;
  title: string;
  slug: string;
  status: string;
  viewCount: number;
}

async function count(query: PromiseLike<{ count: number | null; error: { message: string } | null }>, what: string) {
  const { count: value, error } = await query;
  if (error) throw new Error(`Counting ${what} failed: ${error.message}`);
  return value ?? 0;
}

/**
 * Counts posts, published posts and members with `count: 'exact', head: true` queries, and sums views in the
 * database (`count_organization_views`): no rows travel. Users are the organization's memberships (`organization_members`, a user may belong
 * to several), counted as the Users tab's Total Users counts them.
 */
export async function loadSystemCounters(client: SupabaseClient, organizationId: string): Promise<SystemCounters> {
  const head = { count: 'exact', head: true } as const;
  const [totalPosts, published, totalUsers, totalViews] = await Promise.all([
    count(client.from('blog_posts').select('*', head).eq('organization_id', organizationId), 'posts'),
    count(client.from('blog_posts').select('*', head).eq('organization_id', organizationId).eq('status', 'published'), 'published posts'),
    count(client.from('organization_members').select('*', head).eq('organization_id', organizationId), 'users'),
    loadTotalViews(client, organizationId),
  ]);
  return { totalPosts, published, totalUsers, totalViews };
}

/** The post with the most views (ties: the newest), or null when the organization has no post with a view. */
export async function loadMostViewedPost(client: SupabaseClient, organizationId: string): Promise<MostViewedPost | null> {
  const { data, error } = await client
    .from('blog_posts')
    .select('id, title, slug, status, view_count')
    .eq('organization_id', organizationId)
    .gt('view_count', 0)
    .order('view_count', { ascending: false })
    .order('created_at', { ascending: false })
    .limit(1)
    .maybeSingle();
  if (error) throw new Error(`Loading the most viewed post failed: ${error.message}`);
  return data && { id: data.id, title: data.title, slug: data.slug, status: data.status, viewCount: data.view_count };
}

/** Views of all time: the sum of the organization's posts' counted views (count_post_view keeps them). */
async function loadTotalViews(client: SupabaseClient, organizationId: string): Promise<number> {
  const { data, error } = await client.rpc('count_organization_views', { p_organization_id: organizationId });
  if (error) throw new Error(`Counting views failed: ${error.message}`);
  return Number(data ?? 0);
}

/** Counted views of one UTC day (`YYYY-MM-DD`). */
export interface DayViews {
  day: string;
  views: number;
}

/**
 * The organization's views per UTC day for the last `days` days, oldest first, days without views as 0
 * (`post_views_per_day` fills them in).
 */
export async function loadViewsPerDay(client: SupabaseClient, organizationId: string, days = 30): Promise<DayViews[]> {
  const { data, error } = await client.rpc('post_views_per_day', { p_organization_id: organizationId, p_days: days });
  if (error) throw new Error(`Loading views per day failed: ${error.message}`);
  return ((data ?? []) as { day: string; views: number | string }[]).map((row) => ({ day: row.day, views: Number(row.views) }));
}
