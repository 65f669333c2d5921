import { lazy, Suspense, useSyncExternalStore } from 'react';
import { hasStoredSession } from '../lib/supabase-config';

/** The menu itself: it brings supabase-js and the stores, so only signed-in visitors download it. */
const OrganizationMenu = lazy(() => import('./OrganizationMenu'));

function subscribe(onChange: () => void) {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
}

/**
 * The header's organization switcher (spec public-site 2). Visitors, who have no stored session, get an
 * empty island of a few hundred bytes; for a signed-in user it loads the menu, which shows itself only when
 * the organizations are loaded, one is current and there are several.
 */
export default function OrganizationSwitcher() {
  const signedIn = useSyncExternalStore(subscribe, hasStoredSession, () => false);
  return signedIn ? (
    <Suspense fallback={null}>
      <OrganizationMenu />
    </Suspense>
  ) : null;
}
