import { createHash } from 'node:crypto';
import type { Config } from '@netlify/functions';
import { escapeHtml } from '../../src/lib/server/invitation-mail.ts';
import { readText, serverError } from '../../src/lib/server/http.ts';
import { followNewsletterLink, NEWSLETTER_LINK_PATHS, type NewsletterLinkAction } from '../../src/lib/server/newsletter-opt-in.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { NEWSLETTER_MAX_BYTES, NewsletterLinkSchema } from '../../src/schemas/newsletter.ts';
import { withBackend } from '../../src/lib/server/backend.ts';

const PAGES: Record<NewsletterLinkAction, { title: string; text: string; button: string }> = {
  confirm: { title: 'Confirm your subscription', text: 'One click and the newsletter comes to your inbox.', button: 'Confirm subscription' },
  unsubscribe: { title: 'Unsubscribe', text: 'Take your address off the newsletter list.', button: 'Unsubscribe' },
};

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:6rem auto;padding:0 1rem;text-align:center;color:#111;background:#fff}' +
  'button{font:inherit;font-weight:600;padding:.75rem 1.5rem;border:0;border-radius:999px;background:#4338ca;color:#fff;cursor:pointer}' +
  '@media (prefers-color-scheme:dark){body{color:#eee;background:#0b0b12}}';
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** The page's headers: nothing but its own style may run, the token never leaves in a Referer, nothing is cached. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/** One button that posts the token back: following a link (a mail scanner does) changes nothing. */
function page(action: NewsletterLinkAction, token: string): Response {
  const { title, text, button } = PAGES[action];
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head><body>` +
    `<h1>${title}</h1><p>${text}</p>` +
    `<form method="post" action="${NEWSLETTER_LINK_PATHS[action]}"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">${button}</button></form>` +
    `</body></html>`;
  return new Response(html, { status: 200, headers: PAGE_HEADERS });
}

const to = (outcome: string) => new Response(null, { status: 303, headers: { location: `/newsletter/${outcome}`, 'referrer-policy': 'no-referrer' } });

/**
 * The links of the newsletter's confirmation mail: `/api/newsletter/confirm?token=` and
 * `/api/newsletter/unsubscribe?token=`. GET answers a page with one button; POST (that button, a form post
 * `token=`, or a mail client's RFC 8058 one-click post with the token in the link) confirms or unsubscribes
 * and answers 303 to `/newsletter/confirmed`, `/newsletter/unsubscribed` or `/newsletter/link-invalid` (an
 * unknown, used, expired or malformed token; nothing changes).
 */
export default withBackend(async (req: Request) => {
  const url = new URL(req.url);
  const action: NewsletterLinkAction = url.pathname === NEWSLETTER_LINK_PATHS.unsubscribe ? 'unsubscribe' : 'confirm';
  try {
    let token = url.searchParams.get('token');
    if (req.method === 'POST') {
      const body = new URLSearchParams(await readText(req, { maxBytes: NEWSLETTER_MAX_BYTES }));
      token = body.get('token') ?? token;
    }
    const parsed = NewsletterLinkSchema.safeParse({ token });
    if (!parsed.success) return to('link-invalid');
    if (req.method !== 'POST') return page(action, parsed.data.token);
    return to(await followNewsletterLink(serviceClient(), action, parsed.data.token));
  } catch (error) {
    return serverError('The newsletter link could not be followed. Please try again later.', error);
  }
});

// Literal paths: Netlify reads the config without running the module (NEWSLETTER_LINK_PATHS holds the same).
export const config: Config = { path: ['/api/newsletter/confirm', '/api/newsletter/unsubscribe'], method: ['GET', 'POST'] };
