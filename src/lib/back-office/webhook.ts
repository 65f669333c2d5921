/**
 * The ZimmWriter tab's data: the webhook URL (the token is stored only as a hash, so it can be shown only
 * right after a rotation), token rotation, the publish mode, the organization's categories, the delivery log
 * and the test delivery through `/api/admin/webhook-test` (a dry run: it says what a delivery would do).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { PUBLISH_MODES, type PublishMode } from '../../schemas/organization.ts';
import type { WebhookPayloadInput } from '../../schemas/webhook.ts';
import { answerMessage, postAdminFunction } from './functions.ts';
import { formatInTimeZone, timeZoneLabel } from './zoned-time.ts';

/** Where the writing tool posts, relative to the site's origin. */
export const WEBHOOK_PATH = '/api/webhooks/zimmwriter/';

/** Stands in for the token, which is not readable after it was issued. */
export const MASKED_TOKEN = '••••••••••••••••';

/** The webhook URL for a token, or with the token masked when it is not known. */
export function webhookUrl(origin: string, token?: string): string {
  return `${origin}${WEBHOOK_PATH}${token ?? MASKED_TOKEN}`;
}

/** When the integration was set up and last rotated, and until when the previous token still works. */
export interface WebhookIntegration {
  created_at: string;
  rotated_at: string | null;
  previous_token_expires_at: string | null;
}

/** The organization's integration, or null when it has none yet ("Create webhook address" makes it). */
export async function loadIntegration(client: SupabaseClient, organizationId: string): Promise<WebhookIntegration | null> {
  const { data, error } = await client
    .from('webhook_integrations')
    .select('created_at, rotated_at, previous_token_expires_at')
    .eq('organization_id', organizationId)
    .maybeSingle();
  if (error) throw new Error(`Reading the webhook integration of ${organizationId} failed: ${error.message}`);
  return data as WebhookIntegration | null;
}

/** Issues a new token (the old one keeps working for 24 hours) and returns it: this is its only showing. */
export async function rotateWebhookToken(client: SupabaseClient, organizationId: string): Promise<string> {
  const { data, error } = await client.rpc('rotate_webhook_token', { p_organization_id: organizationId });
  if (error || typeof data !== 'string') throw new Error(`Rotating the webhook token of ${organizationId} failed: ${error?.message ?? 'no token returned'}`);
  return data;
}

/** A category a delivery can name, and whether it waits for an editor's approval (then visitors do not see it). */
export interface DeliveryCategory {
  name: string;
  needs_review: boolean;
}

/** The organization's categories by name, each with whether it awaits review. */
export async function listDeliveryCategories(client: SupabaseClient, organizationId: string): Promise<DeliveryCategory[]> {
  const { data, error } = await client.from('blog_categories').select('name, needs_review').eq('organization_id', organizationId).order('name');
  if (error) throw new Error(`Listing the categories of ${organizationId} failed: ${error.message}`);
  return (data ?? []) as DeliveryCategory[];
}

/** One entry of the delivery log. */
export interface WebhookDelivery {
  id: string;
  received_at: string;
  status_code: number;
  /** The name the writer gave the webhook that sent it, when the delivery carried one. */
  webhook_name: string | null;
  slug: string | null;
  error: string | null;
  /** What the delivery log noted about a stored post (an image not taken, a possible duplicate). */
  note: string | null;
  /** The featured image: stored, none sent, or failed (the note says why); null for a refused or older delivery. */
  image: DeliveryImage | null;
  /** The post it stored, as it stands now (a queued post's slot moves when the queue changes). */
  post: { id: string; title: string; status: string; published_at: string | null; queued: boolean } | null;
}

/** What a delivery log entry says of its post's going out: when a scheduled or queued post goes out, else nothing. */
export function deliveryGoesOut(post: WebhookDelivery['post'], timeZone: string): string | null {
  if (!post || post.status !== 'scheduled' || !post.published_at) return null;
  return `${post.queued ? 'In the queue, goes out' : 'Scheduled, goes out'} ${formatInTimeZone(post.published_at, timeZone)} ${timeZoneLabel(timeZone, new Date(post.published_at))}`;
}

/** What happened to a delivery's featured image (webhook_deliveries.image). */
export type DeliveryImage = 'stored' | 'none' | 'failed';

/** The delivery log's words for an image outcome. */
export const DELIVERY_IMAGE_LABELS: Record<DeliveryImage, string> = {
  stored: 'Image stored',
  none: 'No image sent',
  failed: 'Image not stored',
};

/** The newest deliveries first (at most `limit`). */
export async function listDeliveries(client: SupabaseClient, organizationId: string, limit = 20): Promise<WebhookDelivery[]> {
  const { data, error } = await client
    .from('webhook_deliveries')
    .select('id, received_at, status_code, webhook_name, slug, error, note, image, post:blog_posts(id, title, status, published_at, queued)')
    .eq('organization_id', organizationId)
    .order('received_at', { ascending: false })
    .limit(limit);
  if (error) throw new Error(`Listing the webhook deliveries of ${organizationId} failed: ${error.message}`);
  return (data ?? []) as unknown as WebhookDelivery[];
}

/**
 * The payload ZimmWriter sends, every field it sends included, empty ones as `false`
 * the way the tool sends them: the example shown and the test form's base.
 */
export function examplePayload(category: string | undefined, fields: { title?: string; html?: string } = {}): WebhookPayloadInput {
  return {
    webhook_name: 'blog_post_created',
    title: fields.title ?? 'How to Grow Your Business with Content Marketing',
    html: fields.html ?? '<h2>Introduction</h2><p>Your article content...</p>',
    markdown: false,
    excerpt: 'A short summary shown on blog cards.',
    category,
    tags: ['test', 'webhook', 'writing-tool'],
    slug: false,
    image_url: false,
    image_base64: false,
  };
}

/** What a test delivery would do, as `/api/admin/webhook-test` answers it (see that function). */
export interface WebhookTestPreview {
  action: 'create' | 'update';
  /** The post it would update, else the title of the one it would create. */
  title: string;
  /** The status the post would have (an update keeps the post's own). */
  status: string;
  /** The post's path on the site, /blog/{slug}. */
  path: string;
  /** The slot a new post would take in the publishing queue. */
  slot?: string;
  /** The post a new one would likely repeat (it would be saved as a draft, marked). */
  duplicate_of?: { title: string; reason: string };
  /**
   * The category it would land in: `sent` the name in the payload, `mapped` when that name would be taken to
   * mean this existing category, `created` when the delivery would create it, `needs_review` while visitors
   * would not see it (an editor approves it in Categories & Tags).
   */
  category?: { name: string; sent: string | null; mapped: boolean; created: boolean; needs_review: boolean };
}

/**
 * The outcome of a test delivery: what a delivery like it would do, or the function's answer text with the
 * refused fields (`problems`, empty when the refusal was not about a field).
 */
export type WebhookTestResult = { ok: true; preview: WebhookTestPreview } | { ok: false; text: string; problems: { path: string; message: string }[] };

/** Sends a test delivery for the organization (nothing is published). Rejects only on a network failure. */
export async function sendTestWebhook(client: SupabaseClient, organizationId: string, payload: WebhookPayloadInput): Promise<WebhookTestResult> {
  const answer = await postAdminFunction(client, '/api/admin/webhook-test', { organization_id: organizationId, payload });
  const preview = answer.body as Partial<WebhookTestPreview> | null;
  if (answer.ok && (preview?.action === 'create' || preview?.action === 'update') && typeof preview.title === 'string') {
    return {
      ok: true,
      preview: {
        action: preview.action, title: preview.title, status: String(preview.status), path: String(preview.path),
        ...(typeof preview.slot === 'string' ? { slot: preview.slot } : {}),
        ...(preview.duplicate_of ? { duplicate_of: { title: preview.duplicate_of.title, reason: preview.duplicate_of.reason } } : {}),
        ...(preview.category ? { category: preview.category } : {}),
      },
    };
  }
  const details = (answer.body as { details?: unknown } | null)?.details;
  const problems = Array.isArray(details)
    ? details.flatMap((d: { path?: unknown; message?: unknown }) => (typeof d?.path === 'string' && typeof d.message === 'string' ? [{ path: d.path, message: d.message }] : []))
    : [];
  return { ok: false, text: answerMessage(answer) || `HTTP ${answer.status}`, problems };
}

/**
 * The success toast's text. The original wording ("Blog post created successfully. Post ID: …") described a
 * test that published a post; the test is a dry run now, so the title stays and the text says
 * truthfully what a delivery like this one would do.
 */
export function testDeliveryMessage(preview: WebhookTestPreview, timeZone?: string): { title: string; description: string } {
  return { title: 'Webhook Test Successful!', description: `A delivery like this would ${testOutcome(preview, timeZone)}.${categoryOutcome(preview)}` };
}

/** Where the post would be filed, and whether the tool's category name was mapped or would wait for review. */
function categoryOutcome({ category }: WebhookTestPreview): string {
  if (!category) return '';
  if (category.created) return ` Category: “${category.name}” is new: it would be created and held for review before visitors see it.`;
  const mapped = category.mapped && category.sent ? ` (“${category.sent}” matched it)` : '';
  const review = category.needs_review ? ', which still waits for review before visitors see it' : '';
  return ` Category: “${category.name}”${mapped}${review}.`;
}

function testOutcome(preview: WebhookTestPreview, timeZone: string | undefined): string {
  if (preview.action === 'update') return `update “${preview.title}” (${preview.path})`;
  if (preview.duplicate_of) {
    return `create a draft “${preview.title}” marked as a possible duplicate of “${preview.duplicate_of.title}” (${preview.duplicate_of.reason})`;
  }
  if (preview.slot) return `add a new post “${preview.title}” to the publishing queue, for ${formatInTimeZone(preview.slot, timeZone ?? 'UTC')}`;
  return `create a new post “${preview.title}” (${preview.status === 'published' ? 'published' : 'draft'})`;
}

/** The choices of the ZimmWriter tab's select, in its words. */
export const PUBLISH_MODE_OPTIONS: readonly { value: PublishMode; label: string }[] = [
  { value: 'publish', label: 'Publish at once' },
  { value: 'draft', label: 'Save as draft for review' },
  { value: 'queue', label: 'Add to the queue' },
];

/** The toast after the mode was saved. */
export const PUBLISH_MODE_SAVED: Record<PublishMode, string> = {
  publish: 'Posts from ZimmWriter and publishing tools are published at once.',
  draft: 'Posts from ZimmWriter and publishing tools are saved as drafts for review.',
  queue: 'Posts from ZimmWriter and publishing tools join the publishing queue and go out at its pace.',
};

/** The organization's publish mode as stored (no setting means publish, as private.store_arrived_post reads it). */
export async function loadPublishMode(client: SupabaseClient, organizationId: string): Promise<PublishMode> {
  const { data, error } = await client.from('organizations').select('settings').eq('id', organizationId).single();
  if (error) throw new Error(`Reading the publish mode of ${organizationId} failed: ${error.message}`);
  const mode = (data as { settings: { webhook?: { publish_mode?: unknown } } | null }).settings?.webhook?.publish_mode;
  return PUBLISH_MODES.find((known) => known === mode) ?? 'publish';
}

/** Sets the publish mode (admins only; the database checks and logs it) and returns the mode in force. */
export async function savePublishMode(client: SupabaseClient, organizationId: string, mode: PublishMode): Promise<PublishMode> {
  const { data, error } = await client.rpc('set_webhook_publish_mode', { p_organization_id: organizationId, p_mode: mode });
  if (error || !PUBLISH_MODES.includes(data)) {
    throw new Error(`Setting the publish mode of ${organizationId} failed: ${error?.message ?? 'no mode returned'}`);
  }
  return data;
}

/** Someone the writing tool's posts can be credited to: an active editor or admin of the organization. */
export interface WebhookAuthorOption {
  id: string;
  name: string;
}

/** The organization's active editors and admins, by name: the choices for the author of ZimmWriter's posts. */
export async function listWebhookAuthors(client: SupabaseClient, organizationId: string): Promise<WebhookAuthorOption[]> {
  const { data, error } = await client
    .from('organization_memberships')
    .select('user_id, profile:profiles(full_name, email, is_active)')
    .eq('organization_id', organizationId)
    .eq('is_active', true)
    .in('role', ['admin', 'editor'])
    .overrideTypes<{ user_id: string; profile: { full_name: string | null; email: string; is_active: boolean } | null }[], { merge: false }>();
  if (error) throw new Error(`Listing the possible authors of ${organizationId} failed: ${error.message}`);
  return (data ?? [])
    .filter((row) => row.profile?.is_active)
    .map((row) => ({ id: row.user_id, name: row.profile?.full_name?.trim() || row.profile?.email || row.user_id }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The author ZimmWriter's posts get (null: none chosen). */
export async function loadWebhookAuthor(client: SupabaseClient, organizationId: string): Promise<string | null> {
  const { data, error } = await client.from('webhook_integrations').select('author_id').eq('organization_id', organizationId).maybeSingle();
  if (error) throw new Error(`Reading the webhook author of ${organizationId} failed: ${error.message}`);
  return (data as { author_id: string | null } | null)?.author_id ?? null;
}

/** Sets the author of ZimmWriter's posts (admins only; the database checks the person and logs it). */
export async function saveWebhookAuthor(client: SupabaseClient, organizationId: string, authorId: string | null): Promise<string | null> {
  const { data, error } = await client.rpc('set_webhook_author', { p_organization_id: organizationId, p_author_id: authorId });
  if (error) throw new Error(`Setting the webhook author of ${organizationId} failed: ${error.message}`);
  return (data as string | null) ?? null;
}
