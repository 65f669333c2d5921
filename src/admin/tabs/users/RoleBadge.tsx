import { ROLES, type Role } from '../../../schemas/user';
import { Badge, type BadgeVariant } from '../../components/ui/Badge';

/** Role badge styles: admin destructive, editor secondary, viewer outline. */
export const ROLE_BADGE: Record<Role, BadgeVariant> = { admin: 'destructive', editor: 'secondary', viewer: 'outline' };

/** The roles as select options: Viewer, Editor, Admin. */
export const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: `${role.charAt(0).toUpperCase()}${role.slice(1)}` }));

export function RoleBadge({ role }: { role: Role }) {
  return <Badge variant={ROLE_BADGE[role]}>{role}</Badge>;
}
