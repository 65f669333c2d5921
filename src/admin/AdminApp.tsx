import AdminHeader from './components/AdminHeader';
import { useAdminAccess } from './use-admin-access';

/**
 * The back office (`/admin`, client-only). Shows 'Checking permissions...' until the access check passes,
 * then the header. The dashboard's tabs are separate modules under src/admin/ and are loaded lazily
 * (React.lazy) below the header as they are added.
 */
export default function AdminApp() {
  const user = useAdminAccess();
  if (!user) return <p className="p-8 text-center text-muted-foreground">Checking permissions...</p>;
  return (
    <>
      <AdminHeader user={user} />
      <main id="main" />
    </>
  );
}
