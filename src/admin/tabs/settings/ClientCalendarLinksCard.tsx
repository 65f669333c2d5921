import { useState, type FormEvent } from 'react';
import {
  clientLinkState, clientLinkUrl, ClientLinkError, createClientCalendarLink, listClientCalendarLinks, revokeClientCalendarLink,
  type ClientCalendarLink, type ClientLinkState, type NewClientCalendarLink,
} from '../../../lib/back-office/client-calendar-links';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { CLIENT_LINK_DURATIONS, ClientLinkInputSchema } from '../../../schemas/client-calendar';
import { toast } from '../../../stores/toast';
import { Badge, type BadgeVariant } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Card, CardHeader } from '../../components/ui/Card';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { CopyButton } from '../../components/ui/CopyButton';
import { EmptyState, ErrorState } from '../../components/ui/EmptyState';
import { Field, Input } from '../../components/ui/Input';
import { RelativeTime } from '../../components/ui/RelativeTime';
import { Select } from '../../components/ui/Select';
import { Skeleton } from '../../components/ui/Skeleton';
import { PhoneLabel, Table, Td, Th } from '../../components/ui/Table';
import { useLoad } from '../../use-load';

const DURATIONS = CLIENT_LINK_DURATIONS.map((days) => ({ value: String(days), label: days === 365 ? '1 year' : `${days} days` }));
const STATES: Record<ClientLinkState, { label: string; variant: BadgeVariant }> = {
  active: { label: 'Active', variant: 'success' },
  expired: { label: 'Expired', variant: 'neutral' },
  revoked: { label: 'Revoked', variant: 'destructive' },
};
const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/**
 * Client calendar links (admins): a link that shows a client this site's upcoming posts (titles, dates, whether
 * queued) without signing in. Made with who it is for and how long it lasts, shown once with its copy button;
 * listed with its state, last use and number of visits; revoked at once. Making, opening and revoking are in the
 * activity log.
 */
export function ClientCalendarLinksCard({ organization }: { organization: { id: string; name: string } }) {
  const links = useLoad(() => listClientCalendarLinks(supabaseBrowser(), organization.id), [organization.id], [organization.id]);
  const [label, setLabel] = useState('');
  const [days, setDays] = useState('30');
  const [labelError, setLabelError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<NewClientCalendarLink | null>(null);
  const [revoking, setRevoking] = useState<ClientCalendarLink | null>(null);

  async function create(event: FormEvent) {
    event.preventDefault();
    const input = ClientLinkInputSchema.safeParse({ label, days });
    if (!input.success) {
      setLabelError(input.error.issues[0]?.message);
      return;
    }
    setLabelError(undefined);
    setBusy(true);
    try {
      setMade(await createClientCalendarLink(supabaseBrowser(), organization.id, input.data));
      setLabel('');
      links.reload();
    } catch (error) {
      console.error(error);
      setLabelError(error instanceof ClientLinkError ? error.message : 'The link could not be made. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function revoke() {
    if (!revoking) return;
    setBusy(true);
    try {
      await revokeClientCalendarLink(supabaseBrowser(), revoking.id);
      toast({ title: 'Link revoked', description: `The calendar link for ${revoking.label} no longer opens.` });
      if (made?.id === revoking.id) setMade(null);
      setRevoking(null);
      links.reload();
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: error instanceof ClientLinkError ? error.message : 'The link could not be revoked.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card aria-label="Client calendar links">
      <CardHeader
        title="Client Calendar Links"
        description={`A link that shows a client what goes out on ${organization.name}: the upcoming posts' titles, dates and whether they are queued, and nothing else. Whoever holds the link sees it without signing in, until it expires or you revoke it.`}
      />
      <form onSubmit={create} noValidate className="flex flex-wrap items-end gap-3">
        <div className="min-w-56 flex-1">
          <Field label="Who the link is for" error={labelError}>
            {(control) => <Input {...control} name="client-link-label" maxLength={80} placeholder="Acme marketing team" value={label} onChange={(e) => setLabel(e.target.value)} />}
          </Field>
        </div>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Works for
          <Select name="client-link-days" options={DURATIONS} value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <Button type="submit" disabled={busy}>
          {busy && !revoking ? 'Making...' : 'Make Link'}
        </Button>
      </form>

      {made && (
        <div role="status" aria-label="New client calendar link" className="mt-4 rounded-md border border-primary/40 bg-primary/5 p-4">
          <p className="text-sm font-medium">The calendar link for {made.label} (until {day(made.expires_at)}):</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code data-testid="new-client-link" className="rounded bg-muted px-2 py-1 font-mono text-sm break-all">
              {clientLinkUrl(window.location.origin, made.token)}
            </code>
            <CopyButton text={clientLinkUrl(window.location.origin, made.token)} label="client calendar link" />
          </div>
          <p className="mt-2 text-sm text-muted-foreground">Copy it now: it will not be shown again. Send it only to the people it is for.</p>
        </div>
      )}

      <div className="mt-6">
        {links.state === 'error' && !links.value ? (
          <ErrorState message="The client calendar links could not be loaded." onRetry={links.reload} />
        ) : !links.value ? (
          <Skeleton className="h-16 w-full" />
        ) : links.value.length === 0 ? (
          <EmptyState title="No client calendar links yet" hint="Make one for each client, so you can revoke one without the others." />
        ) : (
          <Table stacked>
            <caption className="sr-only">Client calendar links</caption>
            <thead className="max-sm:hidden">
              <tr>
                <Th>For</Th>
                <Th>State</Th>
                <Th>Made</Th>
                <Th>Until</Th>
                <Th>Last opened</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {links.value.map((link) => {
                const state = clientLinkState(link);
                return (
                  <tr key={link.id} data-testid="client-link-row">
                    <Td className="font-medium">{link.label}</Td>
                    <Td>
                      <Badge variant={STATES[state].variant}>{STATES[state].label}</Badge>
                    </Td>
                    <Td>
                      <PhoneLabel>Made: </PhoneLabel>
                      <RelativeTime date={link.created_at} />
                      {link.creator ? ` by ${link.creator.full_name?.trim() || link.creator.email}` : ''}
                    </Td>
                    <Td>
                      <PhoneLabel>Until: </PhoneLabel>
                      {day(link.revoked_at ?? link.expires_at)}
                    </Td>
                    <Td>
                      <PhoneLabel>Last opened: </PhoneLabel>
                      {link.last_used_at ? (
                        <>
                          <RelativeTime date={link.last_used_at} /> ({link.use_count.toLocaleString('en-US')} {link.use_count === 1 ? 'visit' : 'visits'})
                        </>
                      ) : (
                        'Never'
                      )}
                    </Td>
                    <Td className="text-right">
                      {state === 'active' && (
                        <Button variant="outline" size="sm" onClick={() => setRevoking(link)} aria-label={`Revoke the link for ${link.label}`}>
                          Revoke
                        </Button>
                      )}
                    </Td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        )}
      </div>

      <ConfirmDialog
        open={revoking !== null}
        title="Revoke client calendar link?"
        description={revoking ? `Whoever holds the link for ${revoking.label} will see nothing from their next visit. This cannot be undone.` : undefined}
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
