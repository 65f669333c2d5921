/**
 * The share button's one rule, for its island (ShareButton.tsx) and for the plain script that answers before the
 * island hydrates (src/scripts/share-button.ts): the Web Share API where the browser has it, else the link copied.
 */

/** How long the answer ('Link copied') stays visible. */
export const SHARE_FEEDBACK_MS = 2500;

/**
 * Shares `url`, and answers what to show beside the button: nothing after the share sheet (a dismissed sheet
 * is not an error), 'Link copied', or the link itself when copying failed too.
 */
export async function shareLink(title: string, url: string): Promise<string> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
      return '';
    } catch (error) {
      if ((error as DOMException).name === 'AbortError') return '';
      // Sharing is refused (e.g. not allowed here): fall through to copying.
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return 'Link copied';
  } catch (error) {
    console.error('Copying the link failed', error);
    return `Copy this link: ${url}`;
  }
}
