/**
 * A newsletter sign-up from the browser, for the form's island (NewsletterForm.tsx) and for the plain script that
 * answers before the island hydrates (src/scripts/newsletter-form.ts): posts the form's address as JSON and
 * answers the function's message (the same for every valid address: check your inbox).
 */
import type { NewsletterResponse } from '../schemas/newsletter';

export async function signUp(form: HTMLFormElement): Promise<{ ok: boolean; message: string }> {
  try {
    const response = await fetch('/api/newsletter', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: new FormData(form).get('email') }),
    });
    const { message } = (await response.json()) as NewsletterResponse;
    return { ok: response.ok, message };
  } catch (error) {
    console.error('Newsletter sign-up failed', error);
    return { ok: false, message: 'Subscribing failed. Please try again later.' };
  }
}
