/**
 * The newsletter forms before their islands hydrate: a submit signs up in place as the island does (instead of
 * the form post that leaves the page) and announces the answer in the form's status line.
 */
import { signUp } from './newsletter-signup.ts';
import { answerBeforeHydration } from './before-hydration.ts';

answerBeforeHydration<HTMLFormElement>('form[data-newsletter]', 'submit', async (form, event) => {
  event.preventDefault();
  const { ok, message } = await signUp(form);
  const email = form.querySelector<HTMLInputElement>('input[name="email"]')!;
  const status = document.getElementById(email.getAttribute('aria-describedby')!)!;
  status.textContent = message;
  status.toggleAttribute('data-failed', !ok);
  if (ok) {
    email.removeAttribute('aria-invalid');
    form.reset();
  } else {
    email.setAttribute('aria-invalid', 'true');
  }
});
