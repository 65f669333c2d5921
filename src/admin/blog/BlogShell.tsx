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
