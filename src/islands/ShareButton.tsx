import { useState } from 'react';

interface Props {
  title: string;
  /** Absolute URL of the post. */
  url: string;
}

/** How long 'Link copied' stays visible. */
const FEEDBACK_MS = 2500;

/**
 * Shares the post with the Web Share API where the browser has it, else copies the link and says
 * 'Link copied'. A dismissed share sheet is not an error.
 */
export default function ShareButton({ title, url }: Props) {
  const [message, setMessage] = useState('');

  async function share() {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        if ((error as DOMException).name === 'AbortError') return;
        // Sharing is refused (e.g. not allowed here): fall through to copying.
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setMessage('Link copied');
    } catch (error) {
      console.error('Copying the link failed', error);
      setMessage(`Copy this link: ${url}`);
    }
    setTimeout(() => setMessage(''), FEEDBACK_MS);
  }

  return (
    <div className="flex items-center gap-3">
      <button type="button" onClick={share} className="inline-flex items-center gap-2 rounded-full border border-border px-4 py-2 text-sm font-semibold hover:bg-muted">
        <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M4 12v8h16v-8M16 6l-4-4-4 4M12 2v13" />
        </svg>
        Share
      </button>
      <p role="status" className="text-sm text-muted-foreground">{message}</p>
    </div>
  );
}
