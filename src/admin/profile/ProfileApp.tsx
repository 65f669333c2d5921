import BackOfficeShell from '../BackOfficeShell';
import ProfileTab from '../tabs/ProfileTab';

/**
 * /admin/profile: one's own author card and password, for every member (editors write posts and have an author
 * card too; the dashboard's Profile tab is the same page for admins).
 */
export default function ProfileApp() {
  return <BackOfficeShell title="Your Profile">{(access) => <ProfileTab user={access.user} organization={access.organization} />}</BackOfficeShell>;
}
