import type { ReactNode } from 'react';
import { activitySentence, entryActor, type People } from '../../../lib/back-office/activity-sentences';
import { actionBadgeVariant, type AuditActivity } from '../../../lib/back-office/audit';
import { Badge } from '../../components/ui/Badge';
import { Dialog } from '../../components/ui/Dialog';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[8rem_1fr]">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/**
 * One audit entry in full: its sentence as the title, then what the sentence leaves out (the raw action,
 * the actor's and resource's ids, the exact time and the recorded details). Closed while `entry` is null;
 * the dialog's own close button and Escape close it.
 */
export function ActivityEntryDialog({ entry, people, onClose }: { entry: AuditActivity | null; people: People | undefined; onClose: () => void }) {
  const details = entry && Object.keys(entry.details ?? {}).length > 0 ? JSON.stringify(entry.details, null, 2) : null;
  const actor = entry ? entryActor(entry, people) : null;
  return (
    <Dialog
      open={entry !== null}
      onClose={onClose}
      title={entry ? activitySentence(entry, people) : ''}
      description={entry ? new Date(entry.created_at).toLocaleString() : undefined}
    >
      {entry && (
        <>
          <dl className="space-y-3 text-sm">
            <Row label="Action">
              <Badge variant={actionBadgeVariant(entry.action)}>{entry.action}</Badge>
            </Row>
            <Row label="By">
              {actor?.name}
              {actor?.email && actor.email !== actor.name && <span className="text-muted-foreground"> ({actor.email})</span>}
              <div className="font-mono text-xs text-muted-foreground">{entry.user_id ?? 'no user id'}</div>
            </Row>
            {entry.resource_type && (
              <Row label="Resource">
                {entry.resource_type}
                {entry.resource_id && <div className="font-mono text-xs text-muted-foreground">{entry.resource_id}</div>}
              </Row>
            )}
            <Row label="Entry">
              <span className="font-mono text-xs">{entry.id}</span>
            </Row>
            <Row label="Details">
              {details ? (
                <pre className="max-h-64 overflow-auto rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap">{details}</pre>
              ) : (
                <span className="text-muted-foreground">None recorded</span>
              )}
            </Row>
          </dl>
        </>
      )}
    </Dialog>
  );
}
