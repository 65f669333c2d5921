import type { ReactNode } from 'react';
import AdminHeader from '../components/AdminHeader';
import { type BlogAccess, useBlogAccess } from './use-blog-access';

/** The frame of the blog screens: the admin header, then the page once the access check has passed. */
export default function BlogShell({ children }: { children: (access: BlogAccess) => ReactNode }) {
  const access = useBlogAccess();
  if (!access) return <p className="p-8 text-center text-muted-foreground">Checking permissions...</p>;
  return (
    <>
      <AdminHeader user={access.user} />
      <main id="main" className="mx-auto max-w-7xl px-4 py-8">
        {children(access)}
      </main>
    </>
  );
}

/** Classes of the blog screens' buttons, so every action looks and focuses alike. */
export const buttonClass = {
  primary:
    'inline-flex items-center justify-center gap-2 rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:opacity-60',
  outline:
    'inline-flex items-center justify-center gap-2 rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:opacity-60',
  danger:
    'inline-flex items-center justify-center gap-2 rounded-md border border-red-600 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 disabled:opacity-60 dark:text-red-300 dark:hover:bg-red-950',
} as const;

/** Classes of text inputs, selects and textareas. */
export const fieldClass =
  'w-full rounded-md border border-border bg-background px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-primary';
