import { useState } from 'react';
import { SHARE_FEEDBACK_MS, shareLink } from '../scripts/share-link';

interface Props {
  title: string;
  /** Absolute URL of the post. */
  url: string;
}

/**
 * Shares the post with the Web Share API where the browser has it, else copies the link and says
 * 'Link copied'. Until the island hydrates, src/scripts/share-button.ts answers clicks on the server's markup
 * with the same `shareLink` (the button carries `data-share-title` and `data-share-url`) and writes its answer
 * into the status line; that line may therefore differ from React's first render when it hydrates, which is
 * expected (`suppressHydrationWarning`): the plain script's answer stays until its own timer clears it.
 */
export default function ShareButton({ title, url }: Props) {
  const [message, setMessage] = useState('');

  async function share() {
    const answer = await shareLink(title, url);
    if (!answer) return;
    setMessage(answer);
    setTimeout(() => setMessage(''), SHARE_FEEDBACK_MS);
  }

  return (
    <div className="flex items-center gap-3">
      <button type="button" onClick={share} data-share-title={title} data-share-url={url} className="inline-flex items-center gap-2 rounded-full border border-border px-4 py-2 text-sm font-semibold hover:bg-muted">
        <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M4 12v8h16v-8M16 6l-4-4-4 4M12 2v13" />
        </svg>
        Share
      </button>
      <p role="status" className="text-sm text-muted-foreground" suppressHydrationWarning>{message}</p>
    </div>
  );
}
