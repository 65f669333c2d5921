import { useStore } from '@nanostores/react';
import { useState } from 'react';
import ThemeToggle from '../../islands/ThemeToggle';
import { logActivity } from '../../lib/back-office/activity';
import { landingPath, roleMayOpen, siteOrganizationId, type MemberOrganization, type MemberRole } from '../../lib/back-office/memberships';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { $organization, switchOrganization } from '../stores/organization';
import { signOut } from '../stores/session';
import type { BackOfficeAccess } from '../use-back-office-access';
import DeployStatus from './DeployStatus';
import { Select } from './ui/Select';

const ROLE_NAMES: Record<MemberRole, string> = { admin: 'Admin', editor: 'Editor', viewer: 'Viewer' };

/** The managed organization's public site: this site when it was built for it, else its own domain, else none. */
function publicSiteHref(organization: MemberOrganization): string | null {
  if (organization.id === siteOrganizationId()) return '/';
  return organization.domain ? `https://${organization.domain}/` : null;
}

/**
 * The back office's sections; the sites board for a person in more than one organization; the dashboard and the
 * newsletter list only for admins of the managed organization.
 */
function sections(role: MemberRole, organizations: number) {
  return [
    ...(organizations > 1 ? [{ href: '/admin/sites', label: 'All sites' }] : []),
    ...(role === 'admin' ? [{ href: '/admin', label: 'Dashboard' }] : []),
    { href: '/admin/blog', label: 'Posts' },
    { href: '/admin/media', label: 'Media' },
    ...(role === 'admin' ? [{ href: '/admin/newsletter', label: 'Newsletter' }] : []),
    { href: '/admin/profile', label: 'Profile' },
  ];
}

/**
 * The one header of the back office (/admin and blog management): the page's title, the organization being
 * managed (a choice among the user's memberships when there are several), the sections the role may use, a
 * link to the public site, the user's e-mail, the theme toggle, Sign Out, and the site's build status. Choosing another organization
 * keeps the page when the role there may use it, else opens the role's own section.
 */
export default function AdminHeader({ access, title }: { access: BackOfficeAccess; title: string }) {
  const { list } = useStore($organization);
  const [signingOut, setSigningOut] = useState(false);
  const path = window.location.pathname;
  const siteHref = publicSiteHref(access.organization);

  async function handleSignOut() {
    setSigningOut(true);
    try {
      await logActivity(supabaseBrowser(), 'admin_logout', access.organization.id);
    } catch (error) {
      // Signing out must not depend on the log being written.
      console.error(error);
    }
    await signOut();
    window.location.assign('/auth');
  }

  function choose(id: string) {
    const next = switchOrganization(id);
    // A page about one post belongs to the organization it was opened in.
    const postPage = /^\/admin\/blog\/(edit|preview|new)\b/.test(path);
    if (postPage) window.location.assign('/admin/blog');
    else if (!roleMayOpen(next.role, path)) window.location.assign(landingPath(next.role));
  }

  return (
    <header className="border-b border-border">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-4 px-4 py-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold">{title}</h1>
          {list.length > 1 ? (
            <label className="mt-1 flex items-center gap-2 text-sm text-muted-foreground">
              Managing
              <Select
                value={access.organization.id}
                onChange={(event) => choose(event.target.value)}
                options={list.map((org) => ({ value: org.id, label: `${org.name} (${ROLE_NAMES[org.role]})` }))}
                className="max-w-[16rem] py-1 sm:max-w-md"
                data-testid="organization-choice"
              />
            </label>
          ) : (
            <p className="text-sm text-muted-foreground">
              Managing {access.organization.name} ({ROLE_NAMES[access.role]})
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <span className="max-w-[9rem] truncate text-sm sm:max-w-[14rem]" data-testid="admin-user-email">
            {access.user.email}
          </span>
          <ThemeToggle />
          <button
            type="button"
            onClick={handleSignOut}
            disabled={signingOut}
            className="rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:opacity-60"
          >
            {signingOut ? 'Signing Out...' : 'Sign Out'}
          </button>
        </div>
      </div>
      <nav aria-label="Back office" className="mx-auto flex max-w-7xl flex-wrap items-center gap-1 px-4 pb-2 text-sm">
        {sections(access.role, list.length).map((section) => {
          const here = section.href === '/admin' ? path === '/admin' || path === '/admin/' : path.startsWith(section.href);
          return (
            <a
              key={section.href}
              href={section.href}
              aria-current={here ? 'page' : undefined}
              className="rounded-md px-3 py-2 font-medium hover:bg-muted aria-[current=page]:bg-muted"
            >
              {section.label}
            </a>
          );
        })}
        {siteHref && (
          <a href={siteHref} className="ml-auto rounded-md px-3 py-2 text-muted-foreground hover:bg-muted hover:text-foreground">
            View site
          </a>
        )}
      </nav>
      <div className="mx-auto max-w-7xl px-4 pb-3">
        <DeployStatus access={access} />
      </div>
    </header>
  );
}
