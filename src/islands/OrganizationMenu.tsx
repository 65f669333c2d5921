import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import { $organization, startOrganizationSync, switchOrganization } from '../stores/organization';
import { startSessionSync } from '../stores/session';

/**
 * 'Switch Organization' (14rem wide) over the signed-in user's organizations; rendered only when they are
 * loaded, one is current and there is more than one (spec public-site 2). Choosing one makes it current,
 * remembers it under `preferredOrganization` and says 'Organization switched'. The public pages themselves
 * are prebuilt for one organization (DESIGN.md decision 2), so the choice decides which organization the back
 * office manages; it does not re-render this page.
 */
export default function OrganizationMenu() {
  const { loading, current, list } = useStore($organization);
  const menu = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    startSessionSync();
    startOrganizationSync();
  }, []);

  if (loading || !current || list.length < 2) return null;

  function choose(id: string) {
    switchOrganization(id);
    menu.current?.removeAttribute('open');
  }

  return (
    <details ref={menu} className="relative" data-menu>
      <summary className="flex h-10 max-w-40 cursor-pointer list-none items-center gap-1 truncate rounded-full border border-border px-3 text-sm font-medium hover:bg-muted [&::-webkit-details-marker]:hidden">
        <span className="sr-only">Organization: </span>
        <span className="truncate">{current.name}</span>
      </summary>
      <div className="absolute right-0 mt-2 w-56 rounded-lg border border-border bg-background p-2 shadow-xl">
        <p id="organization-switcher-heading" className="px-3 py-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          Switch Organization
        </p>
        <ul aria-labelledby="organization-switcher-heading">
          {list.map((organization) => (
            <li key={organization.id}>
              <button
                type="button"
                onClick={() => choose(organization.id)}
                aria-current={organization.id === current.id || undefined}
                className="flex w-full items-center justify-between rounded-md px-3 py-2 text-left text-sm hover:bg-muted aria-[current=true]:font-semibold"
              >
                {organization.name}
                {organization.id === current.id && <span aria-hidden="true">✓</span>}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}
