import { Badge, type BadgeVariant } from '../components/ui/Badge';

/** Badge colours per status (published green, draft yellow, scheduled blue, other grey). */
const STATUS_VARIANTS: Record<string, BadgeVariant> = { published: 'success', draft: 'warning', scheduled: 'info' };

/** A post's status as a coloured badge. */
export default function StatusBadge({ status }: { status: string }) {
  return (
    <Badge data-testid="post-status" variant={STATUS_VARIANTS[status] ?? 'neutral'}>
      {status}
    </Badge>
  );
}
