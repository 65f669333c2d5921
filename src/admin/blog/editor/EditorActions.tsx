import type { Ref } from 'react';
import { ACTION_LABELS, type PostAction } from '../../../lib/back-office/post-actions';
import { Button } from '../../components/ui/Button';

/** The order the actions a post's status allows stand in the bar (post-actions.ts decides which). */
const BAR_ORDER: { action: PostAction; variant: 'default' | 'outline' }[] = [
  { action: 'save-draft', variant: 'outline' },
  { action: 'queue', variant: 'outline' },
  { action: 'publish', variant: 'default' },
  { action: 'unpublish', variant: 'outline' },
  { action: 'cancel-schedule', variant: 'outline' },
  { action: 'unqueue', variant: 'outline' },
  { action: 'update', variant: 'default' },
];

interface ActionButtonProps {
  action: PostAction;
  /** The form's own action (its Enter key and submit button); the others are plain buttons. */
  primary: boolean;
  variant: 'default' | 'outline';
  busy: PostAction | null;
  onAction: (action: PostAction) => void;
}

/** One of the post's actions, labelled with what it does, and with what it is doing while it runs. */
export function ActionButton({ action, primary, variant, busy, onAction }: ActionButtonProps) {
  return (
    <Button type={primary ? 'submit' : 'button'} variant={variant} disabled={busy !== null} onClick={primary ? undefined : () => onAction(action)}>
      {busy === action ? ACTION_LABELS[action].busy : ACTION_LABELS[action].label}
    </Button>
  );
}

interface EditorActionBarProps {
  /** The actions the post's status allows, its primary one first (actionsFor). */
  actions: PostAction[];
  busy: PostAction | null;
  onAction: (action: PostAction) => void;
  onCancel: () => void;
  barRef: Ref<HTMLDivElement>;
}

/**
 * The editor's actions: Cancel, then those the post's status allows. On phones and tablets a bar fixed to the
 * bottom of the screen, so the actions never scroll away (toasts are lifted above it, use-toast-lift.ts).
 */
export function EditorActionBar({ actions, busy, onAction, onCancel, barRef }: EditorActionBarProps) {
  return (
    <div
      ref={barRef}
      role="group"
      aria-label="Post actions"
      data-testid="editor-actions"
      className="fixed inset-x-0 bottom-0 z-40 flex flex-wrap justify-end gap-2 border-t border-border bg-background/95 px-4 py-3 shadow-[0_-4px_12px_rgb(0_0_0/0.08)] backdrop-blur lg:static lg:z-auto lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none lg:backdrop-blur-none"
    >
      <Button variant="outline" onClick={onCancel} disabled={busy !== null}>
        Cancel
      </Button>
      {BAR_ORDER.filter(({ action }) => actions.includes(action)).map(({ action, variant }) => (
        <ActionButton key={action} action={action} primary={action === actions[0]} variant={variant} busy={busy} onAction={onAction} />
      ))}
    </div>
  );
}
