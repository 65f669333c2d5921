import { useState, type FormEvent } from 'react';
import { CopyButton } from '../components/ui/CopyButton';
import { Button } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { Field, Input } from '../components/ui/Input';
import { RelativeTime } from '../components/ui/RelativeTime';
import { Skeleton } from '../components/ui/Skeleton';
import { PhoneLabel, Table, Td, Th } from '../components/ui/Table';
import {
  ApplicationPasswordError,
  createApplicationPassword,
  listApplicationPasswords,
  loadUserLogin,
  revokeApplicationPassword,
  type ApplicationPassword,
  type NewApplicationPassword,
} from '../../lib/back-office/application-passwords';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { toast } from '../../stores/toast';
import { useLoad } from '../use-load';

/**
 * Application passwords, as WordPress keeps them under the profile: what a publishing tool (ZimmWriter's
 * WordPress mode, n8n, Zapier, the WordPress apps) signs in with, together with one's e-mail. Made with a name,
 * shown once; listed with when and from where each was last used; revoked at once. An admin also sees, and may
 * revoke, the other members' passwords of the organization. The member's user name is shown with its copy
 * button: tools label the field "Username", and either it or the e-mail works there.
 */
export function ApplicationPasswords({ userId, userEmail, organization }: { userId: string; userEmail: string; organization: { id: string; name: string } }) {
  const passwords = useLoad(() => listApplicationPasswords(supabaseBrowser(), organization.id), [organization.id], [organization.id]);
  const login = useLoad(() => loadUserLogin(supabaseBrowser(), userId), [userId], [userId]);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<NewApplicationPassword | null>(null);
  const [revoking, setRevoking] = useState<ApplicationPassword | null>(null);

  async function create(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setNameError('Give the application password a name, such as the tool that will use it.');
      return;
    }
    setNameError(undefined);
    setBusy(true);
    try {
      setMade(await createApplicationPassword(supabaseBrowser(), organization.id, name.trim()));
      setName('');
      passwords.reload();
    } catch (error) {
      console.error(error);
      setNameError(error instanceof ApplicationPasswordError ? error.message : 'The application password could not be made. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function revoke() {
    if (!revoking) return;
    setBusy(true);
    try {
      await revokeApplicationPassword(supabaseBrowser(), revoking.id);
      toast({ title: 'Application password revoked', description: `Tools using "${revoking.name}" can no longer publish.` });
      if (made?.id === revoking.id) setMade(null);
      passwords.update((list) => list.filter((item) => item.id !== revoking.id));
      setRevoking(null);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: error instanceof ApplicationPasswordError ? error.message : 'The application password could not be revoked.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card aria-label="Application Passwords">
      <CardHeader
        title="Application Passwords"
        description={`For publishing tools that post to WordPress sites (ZimmWriter, n8n, Zapier, the WordPress apps). In the tool, give this site's address, your user name or e-mail (${userEmail}) and an application password. Each works for ${organization.name} only.`}
      />
      <p className="-mt-2 mb-4 flex flex-wrap items-center gap-2 text-sm">
        <span className="text-muted-foreground">Your user name:</span>
        {login.value ? (
          <>
            <code data-testid="user-login" className="rounded bg-muted px-2 py-0.5 font-mono">
              {login.value}
            </code>
            <CopyButton text={login.value} label="user name" />
          </>
        ) : login.state === 'error' ? (
          <span>could not be loaded (your e-mail works too)</span>
        ) : (
          <Skeleton className="h-5 w-24" />
        )}
      </p>
      <p className="-mt-2 mb-4 text-sm">
        <a className="text-primary underline underline-offset-2" href="/docs/wordpress-publishing-tools" target="_blank" rel="noopener">
          How to connect a tool, and what it can do here
        </a>
      </p>
      <form onSubmit={create} noValidate className="flex flex-wrap items-end gap-3">
        <div className="min-w-56 flex-1">
          <Field label="New application password name" error={nameError}>
            {(control) => <Input {...control} name="application-password-name" maxLength={60} placeholder="ZimmWriter" value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
        </div>
        <Button type="submit" disabled={busy}>
          {busy && !revoking ? 'Adding...' : 'Add Application Password'}
        </Button>
      </form>

      {made && <NewPasswordShown made={made} />}

      <div className="mt-6">
        {passwords.state === 'error' ? (
          <ErrorState message="The application passwords could not be loaded." onRetry={passwords.reload} />
        ) : !passwords.value ? (
          <Skeleton className="h-16 w-full" />
        ) : passwords.value.length === 0 ? (
          <EmptyState title="No application passwords yet" hint="Add one for each tool, so you can revoke one without the others." />
        ) : (
          <Table stacked>
            <caption className="sr-only">Application passwords</caption>
            <thead className="max-sm:hidden">
              <tr>
                <Th>Name</Th>
                <Th>Member</Th>
                <Th>Created</Th>
                <Th>Last used</Th>
                <Th>Last address</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {passwords.value.map((item) => (
                <tr key={item.id}>
                  <Td className="font-medium">{item.name}</Td>
                  <Td>
                    <PhoneLabel>Member: </PhoneLabel>
                    {item.user_id === userId ? 'You' : item.owner?.full_name?.trim() || item.owner?.email || 'A member'}
                  </Td>
                  <Td>
                    <PhoneLabel>Created: </PhoneLabel>
                    <RelativeTime date={item.created_at} />
                  </Td>
                  <Td>
                    <PhoneLabel>Last used: </PhoneLabel>
                    {item.last_used_at ? <RelativeTime date={item.last_used_at} /> : 'Never'}
                  </Td>
                  <Td>
                    <PhoneLabel>Last address: </PhoneLabel>
                    {item.last_used_ip ?? '—'}
                  </Td>
                  <Td className="text-right">
                    <Button variant="outline" size="sm" onClick={() => setRevoking(item)} aria-label={`Revoke ${item.name}`}>
                      Revoke
                    </Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </div>

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke application password?"
        description={revoking ? `Tools using "${revoking.name}" will be refused from their next request. This cannot be undone.` : undefined}
        confirmLabel="Revoke"
        busyLabel="Revoking..."
        busy={busy}
        destructive
        onConfirm={revoke}
        onCancel={() => setRevoking(null)}
      />
    </Card>
  );
}

/** A new password's only showing, with its copy button (here, and on the login-approval page). */
export function NewPasswordShown({ made }: { made: NewApplicationPassword }) {
  return (
    <div role="status" aria-label="New application password" className="mt-4 rounded-md border border-primary/40 bg-primary/5 p-4">
      <p className="text-sm font-medium">Your new password for {made.name} is:</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code data-testid="new-application-password" className="rounded bg-muted px-2 py-1 font-mono text-base">
          {made.password}
        </code>
        <CopyButton text={made.password} label="application password" />
      </div>
      <p className="mt-2 text-sm text-muted-foreground">Copy it now: it will not be shown again. Spaces may be left in or out.</p>
    </div>
  );
}
