import { lazy, Suspense, useEffect, useState } from 'react';
import { backOfficeReturnPath } from '../../lib/blog-urls';
import { hasStoredSession } from '../../lib/supabase-config';
import { toast } from '../../stores/toast';
import SignInForm from './SignInForm';

type Mode =
  | { kind: 'loading' }
  | { kind: 'sign-in' }
  | { kind: 'reset' }
  | { kind: 'new-password'; email: string }
  | { kind: 'invite'; token: string };

const HEADINGS: Record<Mode['kind'], string> = {
  loading: 'Admin Access',
  'sign-in': 'Admin Access',
  reset: 'Reset Password',
  'new-password': 'Set New Password',
  invite: 'Accept Invitation',
};

/**
 * The first screen is the sign-in form; the other forms (and the schemas they validate with) load when a visitor
 * opens them: the set-new-password form with the session store it needs.
 */
const NewPasswordForm = lazy(() => import('./NewPasswordForm'));
const ResetRequestForm = lazy(() => import('./ResetRequestForm'));
const InvitationForm = lazy(() => import('./InvitationForm'));

/** What the URL says, read before supabase-js consumes a reset link's fragment (client-only island). */
function readLink() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const query = new URLSearchParams(window.location.search);
  return {
    invite: query.get('invite'),
    next: backOfficeReturnPath(query.get('next')),
    recovery: fragment.get('type') === 'recovery',
    error: fragment.get('error_description'),
  };
}

/**
 * /auth: sign-in, 'Forgot your password?', the set-new-password form of reset links, and invitation links
 * (`?invite={token}`). Every active member signs in here and lands where their role allows (enter-admin.ts);
 * opened as `/auth?next=/admin/blog…` (blog management sends signed-out members here), it returns to that
 * path. A visitor who is already signed in goes on to the back office (`next`, else /admin, which sends
 * editors and viewers on to /admin/blog).
 * supabase-js (with the session store) loads only when the page needs a session: one is stored (already
 * signed in?) or the URL is a reset link. A visitor who just signs in downloads it after the password check.
 */
export default function AuthPage() {
  const [link] = useState(readLink);
  const [needsSession] = useState(() => !link.invite && (link.recovery || hasStoredSession()));
  const [mode, setMode] = useState<Mode>(() =>
    link.invite ? { kind: 'invite', token: link.invite } : needsSession ? { kind: 'loading' } : { kind: 'sign-in' },
  );

  useEffect(() => {
    if (link.invite) return;
    if (link.error) {
      toast({ title: 'Reset Link Invalid', description: link.error, variant: 'destructive' });
      window.history.replaceState(null, '', '/auth');
    }
    if (!needsSession) return;
    let decided = false;
    let unsubscribe: (() => void) | undefined;
    let stopped = false;
    void import('../stores/session').then(({ $session, startSessionSync }) => {
      if (stopped) return;
      startSessionSync();
      unsubscribe = $session.subscribe((state) => {
        if (decided || state.status === 'loading') return;
        decided = true;
        const email = state.session?.user.email;
        if ((link.recovery || state.recovery) && email) setMode({ kind: 'new-password', email });
        else if (state.status === 'signed-in') window.location.replace(link.next ?? '/admin');
        else setMode({ kind: 'sign-in' });
      });
    });
    return () => {
      stopped = true;
      unsubscribe?.();
    };
  }, [link, needsSession]);

  const toSignIn = () => {
    if (mode.kind === 'invite') window.history.replaceState(null, '', '/auth');
    setMode({ kind: 'sign-in' });
  };

  return (
    <div className="rounded-xl border border-border p-6 shadow-sm sm:p-8">
      <h1 className="text-2xl font-bold">{HEADINGS[mode.kind]}</h1>
      {link.next && mode.kind === 'sign-in' && <p className="mt-2 text-muted-foreground">Sign in to continue where you were.</p>}
      <div className="mt-6">
        <Suspense fallback={<p className="text-muted-foreground">Loading…</p>}>
          {mode.kind === 'loading' && <p className="text-muted-foreground">Loading…</p>}
          {mode.kind === 'sign-in' && <SignInForm next={link.next} onForgotPassword={() => setMode({ kind: 'reset' })} />}
          {mode.kind === 'reset' && <ResetRequestForm onBack={toSignIn} />}
          {mode.kind === 'new-password' && <NewPasswordForm email={mode.email} next={link.next} onDone={toSignIn} />}
          {mode.kind === 'invite' && <InvitationForm token={mode.token} onSignIn={toSignIn} />}
        </Suspense>
      </div>
      <a href="/" className="mt-6 inline-block text-sm text-muted-foreground underline-offset-4 hover:underline">
        ← Back to Home
      </a>
    </div>
  );
}
