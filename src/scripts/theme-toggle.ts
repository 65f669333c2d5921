/** The header's theme toggle before its island hydrates: each click cycles the theme as the island does. */
import { cycleTheme } from '../stores/theme.ts';
import { answerBeforeHydration } from './before-hydration.ts';

answerBeforeHydration('[data-theme-toggle]', 'click', cycleTheme);
