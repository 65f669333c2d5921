import { useState } from 'react';
import { countWords } from '../../../lib/back-office/count-words';
import { changeRole, LastAdminError, setActive, type StaffProfile } from '../../../lib/back-office/users';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import type { Role } from '../../../schemas/user';
import { toast } from '../../../stores/toast';
import { Button } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { Select } from '../../components/ui/Select';

/** Most names a confirmation lists before '+N more'. */
export const PREVIEW_NAMES = 5;

type BulkAction = { kind: 'role'; role: Role } | { kind: 'activate' } | { kind: 'deactivate' } | { kind: 'delete' };

const TITLES: Record<BulkAction['kind'], string> = { role: 'Change Role', activate: 'Activate Users', deactivate: 'Deactivate Users', delete: 'Delete Users' };

/**
 * The bulk-actions bar over the selected members; every action asks first, acts on their memberships of
 * this organization (Delete deactivates them here), then reloads and clears.
 */
export default function BulkActionsBar({ organizationId, selected, onDone, onClear }: { organizationId: string; selected: StaffProfile[]; onDone: () => void; onClear: () => void }) {
  const [pending, setPending] = useState<BulkAction | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = selected.map((user) => user.id);

  async function run(action: BulkAction) {
    setBusy(true);
    const client = supabaseBrowser();
    try {
      if (action.kind === 'role') {
        const n = await changeRole(client, organizationId, ids, action.role);
        toast({ title: 'Bulk Role Update', description: `Updated ${countWords(n, 'user')} to ${action.role} role.` });
      } else if (action.kind === 'delete') {
        const n = await setActive(client, organizationId, ids, false, 'delete');
        toast({ title: 'Bulk Deletion', description: `Deactivated ${countWords(n, 'user')}.` });
      } else {
        const n = await setActive(client, organizationId, ids, action.kind === 'activate');
        toast({ title: 'Bulk Status Update', description: `${action.kind === 'activate' ? 'Activated' : 'Deactivated'} ${countWords(n, 'user')}.` });
      }
      setPending(null);
      onDone();
    } catch (error) {
      const fallback = action.kind === 'role' ? 'Failed to update user roles.' : action.kind === 'delete' ? 'Failed to delete users.' : 'Failed to update user status';
      toast({ title: 'Error', description: error instanceof LastAdminError ? error.message : fallback, variant: 'destructive' });
      setPending(null);
    } finally {
      setBusy(false);
    }
  }

  const names = selected.map((user) => user.full_name || user.email);
  return (
    <div role="region" aria-label="Bulk actions" className="flex flex-wrap items-center gap-2 rounded-md border border-border bg-muted p-3">
      <span className="text-sm font-medium" data-testid="selected-count">{selected.length} selected</span>
      <Button variant="ghost" size="sm" onClick={onClear}>Clear Selection</Button>
      <Select
        aria-label="Change Role"
        value=""
        onChange={(event) => event.target.value && setPending({ kind: 'role', role: event.target.value as Role })}
        options={[{ value: '', label: 'Change Role' }, { value: 'viewer', label: 'Viewer' }, { value: 'editor', label: 'Editor' }, { value: 'admin', label: 'Admin' }]}
      />
      <Button size="sm" variant="outline" onClick={() => setPending({ kind: 'activate' })}>Activate</Button>
      <Button size="sm" variant="outline" onClick={() => setPending({ kind: 'deactivate' })}>Deactivate</Button>
      <Button size="sm" variant="destructive" onClick={() => setPending({ kind: 'delete' })}>Delete</Button>
      <ConfirmDialog
        open={pending !== null}
        title={pending ? TITLES[pending.kind] : ''}
        description={pending?.kind === 'role' ? `Change ${countWords(selected.length, 'user')} to the ${pending.role} role?` : pending?.kind === 'delete' ? `Delete (deactivate) ${countWords(selected.length, 'user')}?` : `Apply to ${countWords(selected.length, 'user')}?`}
        destructive={pending?.kind === 'delete' || pending?.kind === 'deactivate'}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => pending && void run(pending)}
      >
        <ul className="list-disc pl-5 text-sm" data-testid="confirm-names">
          {names.slice(0, PREVIEW_NAMES).map((name, index) => <li key={ids[index]}>{name}</li>)}
        </ul>
        {names.length > PREVIEW_NAMES && <p className="mt-1 text-sm text-muted-foreground">+{names.length - PREVIEW_NAMES} more</p>}
      </ConfirmDialog>
    </div>
  );
}
