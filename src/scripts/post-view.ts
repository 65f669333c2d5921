/**
 * Counts one view of the post page: once the page has loaded and is really shown (a prerendered page waits
 * for `prerenderingchange`), one POST /api/post-view with the post id from `data-post-view-id`. No cookie, no
 * storage: the server tells visitors apart by a daily-salted hash (src/lib/server/post-views.ts). A failure
 * is ignored: a lost view is not worth bothering a reader.
 */
type PrerenderingDocument = Document & { prerendering?: boolean };

function sendView(): void {
  const postId = document.querySelector<HTMLElement>('[data-post-view-id]')?.dataset.postViewId;
  if (!postId) return;
  fetch('/api/post-view', {
    method: 'POST',
    keepalive: true,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ post_id: postId }),
  }).catch(() => undefined);
}

function whenShown(): void {
  if ((document as PrerenderingDocument).prerendering) {
    document.addEventListener('prerenderingchange', sendView, { once: true });
  } else {
    sendView();
  }
}

if (document.readyState === 'complete') whenShown();
else window.addEventListener('load', whenShown, { once: true });
