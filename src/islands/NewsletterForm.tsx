import { useState, type SubmitEvent } from 'react';
import { signUp } from '../scripts/newsletter-signup';

interface Props {
  /** Prefix of the form's element ids, unique per page (the footer and the blog sidebar both show a form). */
  id?: string;
  /** Accessible name of the form. */
  label?: string;
}

type Status = { kind: 'idle' | 'sending' } | { kind: 'done' | 'error'; message: string };

/**
 * Newsletter sign-up (footer, blog sidebar). A plain form first: without scripts it posts to /api/newsletter, which
 * answers with the outcome page. With them it posts JSON and announces the answer in place: before its island
 * hydrates (`client:interaction`) src/scripts/newsletter-form.ts does so on the server's markup (`data-newsletter`)
 * with the same `signUp`, writing the status line and `aria-invalid`, which React's first render may then differ
 * from (`suppressHydrationWarning` on the line; the next answer writes both again). The function validates the address
 * with the shared zod schema and answers its message; validating here too would ship zod's core (about 14 KB
 * gzip) for a message the server already gives. The list is the site's own organization's (the function
 * decides), and the answer is the same for every valid address: check your inbox (double opt-in).
 */
export default function NewsletterForm({ id = 'newsletter', label = 'Newsletter' }: Props) {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setStatus({ kind: 'sending' });
    const { ok, message } = await signUp(form);
    setStatus({ kind: ok ? 'done' : 'error', message });
    if (ok) form.reset();
  }

  return (
    <form action="/api/newsletter" method="post" onSubmit={submit} noValidate data-newsletter className="flex flex-col gap-2" aria-label={label}>
      <label htmlFor={`${id}-email`} className="sr-only">Email address</label>
      <input
        id={`${id}-email`}
        name="email"
        type="email"
        required
        autoComplete="email"
        placeholder="Your email address"
        aria-describedby={`${id}-status`}
        aria-invalid={status.kind === 'error' || undefined}
        className="rounded-md border border-border bg-background px-3 py-2 text-foreground placeholder:text-muted-foreground"
      />
      <button
        type="submit"
        disabled={status.kind === 'sending'}
        className="rounded-md bg-primary px-4 py-2 font-semibold text-primary-foreground hover:opacity-90 disabled:opacity-60"
      >
        {status.kind === 'sending' ? 'Subscribing…' : 'Subscribe'}
      </button>
      <p id={`${id}-status`} aria-live="polite" data-failed={status.kind === 'error' || undefined} className="text-sm data-failed:text-red-700 dark:data-failed:text-red-300" suppressHydrationWarning>
        {'message' in status ? status.message : ''}
      </p>
    </form>
  );
}
