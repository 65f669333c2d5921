/**
 * The ZimmWriter tab's data: the webhook URL (the token is stored only as a hash, so it can be shown only
 * right after a rotation), token rotation, the organization's categories, the delivery log and the test
 * delivery through `/api/admin/webhook-test`.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { WebhookPayloadInput } from '../schemas/webhook.ts';
import { answerMessage, postAdminFunction } from './admin-functions.ts';

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

/** The organization's blog category names, alphabetically: what the payload's `category` can name. */
export async function listCategoryNames(client: SupabaseClient, organizationId: string): Promise<string[]> {
  const { data, error } = await client.from('blog_categories').select('name').eq('organization_id', organizationId).order('name');
  if (error) throw new Error(`Listing the categories of ${organizationId} failed: ${error.message}`);
  return (data ?? []).map((row: { name: string }) => row.name);
}

/** One entry of the delivery log. */
export interface WebhookDelivery {
  id: string;
  received_at: string;
  status_code: number;
  slug: string | null;
  error: string | null;
  post: { id: string; title: string } | null;
}

/** The newest deliveries first (at most `limit`). */
export async function listDeliveries(client: SupabaseClient, organizationId: string, limit = 20): Promise<WebhookDelivery[]> {
  const { data, error } = await client
    .from('webhook_deliveries')
    .select('id, received_at, status_code, slug, error, post:blog_posts(id, title)')
    .eq('organization_id', organizationId)
    .order('received_at', { ascending: false })
    .limit(limit);
  if (error) throw new Error(`Listing the webhook deliveries of ${organizationId} failed: ${error.message}`);
  return (data ?? []) as unknown as WebhookDelivery[];
}

/**
 * The payload ZimmWriter sends (spec back-office 8), every field it sends included, empty ones as `false`
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

/** The outcome of a test delivery: the new post's id, or the function's answer text. */
export type WebhookTestResult = { ok: true; postId: string } | { ok: false; text: string };

/** Sends a test delivery for the organization. Rejects only on a network failure. */
export async function sendTestWebhook(client: SupabaseClient, organizationId: string, payload: WebhookPayloadInput): Promise<WebhookTestResult> {
  const answer = await postAdminFunction(client, '/api/admin/webhook-test', { organization_id: organizationId, payload });
  const postId = (answer.body as { post_id?: unknown } | null)?.post_id;
  if (answer.ok && typeof postId === 'string') return { ok: true, postId };
  return { ok: false, text: answerMessage(answer) || `HTTP ${answer.status}` };
}
