import type { Role } from '../../schemas/user';
import { Badge, type BadgeVariant } from './ui/Badge';

/** Role badge styles (spec back-office 2): admin destructive, editor secondary, viewer outline. */
export const ROLE_BADGE: Record<Role, BadgeVariant> = { admin: 'destructive', editor: 'secondary', viewer: 'outline' };

export function RoleBadge({ role }: { role: Role }) {
  return <Badge variant={ROLE_BADGE[role]}>{role}</Badge>;
}
