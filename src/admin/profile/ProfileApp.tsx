import BackOfficeShell from '../BackOfficeShell';
import ProfileTab from '../tabs/ProfileTab';

/**
 * /admin/profile: one's own password for every member, and the author card for those who write posts (editors;
 * viewers have none); the dashboard's Profile tab is the same page for admins.
 */
export default function ProfileApp() {
  return <BackOfficeShell title="Your Profile">{(access) => <ProfileTab user={access.user} organization={access.organization} />}</BackOfficeShell>;
}
