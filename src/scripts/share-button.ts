/** A post's share button before its island hydrates: shares or copies the link as the island does, and says so. */
import { SHARE_FEEDBACK_MS, shareLink } from './share-link.ts';
import { answerBeforeHydration } from './before-hydration.ts';

answerBeforeHydration<HTMLButtonElement>('[data-share-url]', 'click', async (button) => {
  const answer = await shareLink(button.dataset.shareTitle ?? document.title, button.dataset.shareUrl!);
  const status = button.parentElement?.querySelector('[role="status"]');
  if (!answer || !status) return;
  status.textContent = answer;
  setTimeout(() => (status.textContent = ''), SHARE_FEEDBACK_MS);
});
