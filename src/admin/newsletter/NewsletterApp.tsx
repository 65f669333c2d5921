import { useMemo, useState } from 'react';
import { listSubscribers, removeSubscriber, SUBSCRIBER_STATE_LABELS, type Subscriber, subscribersCsv, type SubscriberState, subscriberState } from '../../lib/back-office/newsletter';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { toast } from '../../stores/toast';
import { Badge, type BadgeVariant } from '../components/ui/Badge';
import { Button } from '../components/ui/Button';
import { Card } from '../components/ui/Card';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { RelativeTime } from '../components/ui/RelativeTime';
import { Select } from '../components/ui/Select';
import { Skeleton } from '../components/ui/Skeleton';
import { PhoneLabel, Table, Td, Th } from '../components/ui/Table';
import BackOfficeShell from '../BackOfficeShell';
import type { BackOfficeAccess } from '../use-back-office-access';
import { useLoad } from '../use-load';

/** /admin/newsletter: the organization's newsletter list with each address's state, export and removal (admins). */
export default function NewsletterApp() {
  return <BackOfficeShell title="Newsletter">{(access) => <Newsletter access={access} />}</BackOfficeShell>;
}

const STATE_BADGES: Record<SubscriberState, BadgeVariant> = { subscribed: 'success', pending: 'warning', unsubscribed: 'neutral' };

const FILTERS = [
  { value: 'all', label: 'All addresses' },
  ...(['subscribed', 'pending', 'unsubscribed'] as const).map((state) => ({ value: state, label: SUBSCRIBER_STATE_LABELS[state] })),
];

function Newsletter({ access }: { access: BackOfficeAccess }) {
  const organizationId = access.organization.id;
  const list = useLoad(() => listSubscribers(supabaseBrowser(), organizationId), [organizationId]);
  const [filter, setFilter] = useState<'all' | SubscriberState>('all');
  const [removing, setRemoving] = useState<Subscriber | null>(null);
  const rows = useMemo(() => list.value ?? [], [list.value]);
  const counts = useMemo(() => {
    const tally: Record<SubscriberState, number> = { subscribed: 0, pending: 0, unsubscribed: 0 };
    for (const row of rows) tally[subscriberState(row)] += 1;
    return tally;
  }, [rows]);
  const shown = filter === 'all' ? rows : rows.filter((row) => subscriberState(row) === filter);

  function exportCsv() {
    const url = URL.createObjectURL(new Blob([subscribersCsv(shown)], { type: 'text/csv;charset=utf-8' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: `newsletter-${access.organization.slug}-${filter}-${new Date().toISOString().slice(0, 10)}.csv` });
    link.click();
    URL.revokeObjectURL(url);
  }

  async function remove(row: Subscriber) {
    setRemoving(null);
    try {
      await removeSubscriber(supabaseBrowser(), organizationId, row.id);
      toast({ title: `${row.email} was removed from the list.` });
    } catch (error) {
      toast({ title: 'Error', description: (error as Error).message, variant: 'destructive' });
    } finally {
      list.reload();
    }
  }

  return (
    <>
      <h2 className="text-xl font-semibold">Newsletter</h2>
      <p className="mt-2 max-w-3xl text-sm text-muted-foreground">
        Readers sign up with the form on the site and confirm with the link they are mailed. Only confirmed addresses
        are subscribed; an address that never confirmed, or that used the unsubscribe link in the mail, must not be
        sent the newsletter.
      </p>
      {list.state === 'error' ? (
        <ErrorState message="The newsletter list could not be loaded." onRetry={list.reload} />
      ) : !list.value ? (
        <Skeleton rows={4} label="Loading the newsletter list..." />
      ) : (
        <>
          <dl className="mt-6 grid gap-4 sm:grid-cols-3">
            {(['subscribed', 'pending', 'unsubscribed'] as const).map((state) => (
              <Card key={state}>
                <dt className="text-sm text-muted-foreground">{SUBSCRIBER_STATE_LABELS[state]}</dt>
                <dd className="mt-1 text-2xl font-bold" data-testid={`newsletter-count-${state}`}>{counts[state]}</dd>
              </Card>
            ))}
          </dl>
          <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
            <Select aria-label="Show" options={FILTERS} value={filter} onChange={(event) => setFilter(event.target.value as typeof filter)} />
            <Button variant="outline" onClick={exportCsv} disabled={shown.length === 0}>
              Export CSV ({shown.length})
            </Button>
          </div>
          {shown.length === 0 ? (
            <div className="mt-6">
              <EmptyState title={rows.length === 0 ? 'No one has signed up yet' : 'No addresses in this state'} />
            </div>
          ) : (
            <Card className="mt-4 p-0 max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none">
              <Table stacked>
                <caption className="sr-only">Newsletter addresses</caption>
                <thead className="max-sm:hidden">
                  <tr>
                    <Th>Email</Th>
                    <Th>State</Th>
                    <Th>Signed up</Th>
                    <Th>Confirmed</Th>
                    <Th>
                      <span className="sr-only">Actions</span>
                    </Th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((row) => {
                    const state = subscriberState(row);
                    return (
                      <tr key={row.id} data-testid="newsletter-row">
                        <Td className="break-words font-medium sm:font-normal">{row.email}</Td>
                        <Td>
                          <Badge variant={STATE_BADGES[state]}>{SUBSCRIBER_STATE_LABELS[state]}</Badge>
                        </Td>
                        <Td>
                          <PhoneLabel>Signed up: </PhoneLabel>
                          <RelativeTime date={row.created_at} />
                        </Td>
                        <Td>
                          <PhoneLabel>Confirmed: </PhoneLabel>
                          {row.confirmed_at ? <RelativeTime date={row.confirmed_at} /> : '—'}
                        </Td>
                        <Td className="sm:text-right">
                          <Button variant="outline" size="sm" onClick={() => setRemoving(row)} aria-label={`Remove ${row.email}`}>
                            Remove
                          </Button>
                        </Td>
                      </tr>
                    );
                  })}
                </tbody>
              </Table>
            </Card>
          )}
        </>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this address?"
        description={`${removing?.email ?? ''} is deleted from the list. To come back, its owner signs up and confirms again.`}
        confirmLabel="Remove"
        destructive
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}
