import { useState, type FormEvent } from 'react';
import {
  describeQueue,
  listQueue,
  loadQueueSettings,
  moveQueuedPost,
  publishQueuedPostNow,
  type QueueSettings,
  saveQueueSettings,
  takeOutOfQueue,
  timeZoneNames,
  WEEKDAYS,
} from '../../lib/back-office/publishing-queue';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { formatInTimeZone, timeZoneLabel } from '../../lib/back-office/zoned-time';
import { QueueSettingsSchema } from '../../schemas/publishing-queue';
import { toast } from '../../stores/toast';
import { Button, ButtonLink } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { Field, Input } from '../components/ui/Input';
import { Select } from '../components/ui/Select';
import { Skeleton } from '../components/ui/Skeleton';
import BackOfficeShell from '../BackOfficeShell';
import type { BackOfficeAccess } from '../use-back-office-access';
import { useLoad } from '../use-load';

/** /admin/blog/queue: the organization's publishing queue, its slots and its posts in order (client-only island). */
export default function QueueApp() {
  return <BackOfficeShell title="Publishing Queue">{(access) => <Queue access={access} />}</BackOfficeShell>;
}

function Queue({ access }: { access: BackOfficeAccess }) {
  const organizationId = access.organization.id;
  const queue = useLoad(async () => {
    const client = supabaseBrowser();
    const [settings, posts] = await Promise.all([loadQueueSettings(client, organizationId), listQueue(client, organizationId)]);
    return { settings, posts };
  }, [organizationId]);
  const [busy, setBusy] = useState<string | null>(null);
  const current = queue.value;

  /** Runs one change of the queue, then shows the queue as the database re-flowed it. */
  async function change(key: string, run: () => Promise<unknown>, done: string) {
    setBusy(key);
    try {
      await run();
      toast({ title: done });
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setBusy(null);
      queue.reload();
    }
  }

  const client = supabaseBrowser();
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-xl font-semibold">Publishing Queue</h2>
        <ButtonLink href="/admin/blog" variant="outline">
          Back to Posts
        </ButtonLink>
      </div>
      <p className="mt-2 max-w-3xl text-sm text-muted-foreground">
        Queued posts go out one slot at a time. A post added to the queue (from the editor, or by ZimmWriter when its
        deliveries are set to “Add to the queue”) takes the next free slot; when a post leaves the queue, the later ones
        move up.
      </p>
      {queue.state === 'error' ? (
        <div className="mt-6">
          <ErrorState message="The publishing queue could not be loaded." onRetry={queue.reload} />
        </div>
      ) : !current ? (
        <div className="mt-6">
          <Skeleton rows={4} label="Loading the publishing queue..." />
        </div>
      ) : (
        <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <Card>
            <CardHeader
              title={`Queued posts (${current.posts.length})`}
              description={`Times in ${current.settings.time_zone} (${timeZoneLabel(current.settings.time_zone)}).`}
            />
            {current.posts.length === 0 ? (
              <EmptyState title="The queue is empty" hint="Use “Add to queue” in the editor, or set ZimmWriter's deliveries to “Add to the queue”." />
            ) : (
              <ol className="divide-y divide-border" aria-label="Queued posts">
                {current.posts.map((post, index) => (
                  <li key={post.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3 text-sm">
                    <span className="w-6 shrink-0 text-right font-mono text-muted-foreground" aria-hidden="true">
                      {index + 1}
                    </span>
                    <div className="min-w-0 flex-1">
                      <a className="font-medium hover:underline" href={`/admin/blog/edit/${post.id}`}>
                        {post.title}
                      </a>
                      <div className="text-muted-foreground">
                        <time dateTime={post.published_at}>{formatInTimeZone(post.published_at, current.settings.time_zone)}</time>
                      </div>
                    </div>
                    {access.canEdit && (
                      <div className="flex flex-wrap gap-1">
                        <Button
                          variant="outline"
                          size="sm"
                          aria-label={`Move “${post.title}” up`}
                          disabled={index === 0 || busy !== null}
                          onClick={() => void change(post.id, () => moveQueuedPost(client, post.id, index), `“${post.title}” moved up`)}
                        >
                          ↑
                        </Button>
                        <Button
                          variant="outline"
                          size="sm"
                          aria-label={`Move “${post.title}” down`}
                          disabled={index === current.posts.length - 1 || busy !== null}
                          onClick={() => void change(post.id, () => moveQueuedPost(client, post.id, index + 2), `“${post.title}” moved down`)}
                        >
                          ↓
                        </Button>
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={busy !== null}
                          onClick={() => void change(post.id, () => publishQueuedPostNow(client, organizationId, post.id), `“${post.title}” published`)}
                        >
                          Publish now
                        </Button>
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={busy !== null}
                          onClick={() => void change(post.id, () => takeOutOfQueue(client, organizationId, post.id), `“${post.title}” is a draft again`)}
                        >
                          Take out
                        </Button>
                      </div>
                    )}
                  </li>
                ))}
              </ol>
            )}
          </Card>
          <SlotsCard
            key={JSON.stringify(current.settings)}
            settings={current.settings}
            canChange={access.role === 'admin'}
            onSave={(next) => change('settings', () => saveQueueSettings(client, organizationId, next), 'Publishing queue saved')}
          />
        </div>
      )}
    </>
  );
}

/** The queue's slots: a sentence for everyone, the form for admins. */
function SlotsCard({ settings, canChange, onSave }: { settings: QueueSettings; canChange: boolean; onSave: (settings: QueueSettings) => Promise<void> }) {
  const [form, setForm] = useState({
    time_zone: settings.time_zone,
    posts_per_day: String(settings.posts_per_day),
    weekdays: settings.weekdays,
    window_start: settings.window_start.slice(0, 5),
    window_end: settings.window_end.slice(0, 5),
    spread_minutes: String(settings.spread_minutes),
    posts_per_slot: String(settings.posts_per_slot),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const zones = timeZoneNames().map((zone) => ({ value: zone, label: zone }));
  if (!zones.some((zone) => zone.value === form.time_zone)) zones.unshift({ value: form.time_zone, label: form.time_zone });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = QueueSettingsSchema.safeParse({
      ...form,
      posts_per_day: Number(form.posts_per_day),
      spread_minutes: Number(form.spread_minutes || 0),
      posts_per_slot: Number(form.posts_per_slot || 1),
    });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setErrors({});
    setSaving(true);
    await onSave(parsed.data);
    setSaving(false);
  }

  return (
    <Card>
      <CardHeader title="Slots" description={describeQueue(settings)} />
      {canChange ? (
        <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
          <Field label="Time zone" hint="The slots, and the times the queue and the editor show, are in this time zone." error={errors.time_zone}>
            {(field) => <Select {...field} value={form.time_zone} options={zones} onChange={(event) => setForm({ ...form, time_zone: event.target.value })} />}
          </Field>
          <Field label="Posts a day" error={errors.posts_per_day}>
            {(field) => (
              <Input {...field} type="number" min={1} max={24} value={form.posts_per_day} onChange={(event) => setForm({ ...form, posts_per_day: event.target.value })} />
            )}
          </Field>
          <Field
            label="Posts a slot"
            hint="Posts that go out together, in one build: each build is a production deploy, which costs credits on Netlify's plans. 1 publishes each post on its own."
            error={errors.posts_per_slot}
          >
            {(field) => (
              <Input {...field} type="number" min={1} max={10} value={form.posts_per_slot} onChange={(event) => setForm({ ...form, posts_per_slot: event.target.value })} />
            )}
          </Field>
          <fieldset>
            <legend className="text-sm font-medium">Weekdays</legend>
            <div className="mt-2 flex flex-wrap gap-3">
              {WEEKDAYS.map((day) => (
                <label key={day.day} className="flex items-center gap-1.5 text-sm">
                  <input
                    type="checkbox"
                    checked={form.weekdays.includes(day.day)}
                    onChange={(event) =>
                      setForm({ ...form, weekdays: event.target.checked ? [...form.weekdays, day.day].sort() : form.weekdays.filter((d) => d !== day.day) })
                    }
                  />
                  <span title={day.label}>{day.short}</span>
                </label>
              ))}
            </div>
            {errors.weekdays && (
              <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
                {errors.weekdays}
              </p>
            )}
          </fieldset>
          <div className="grid grid-cols-2 gap-3">
            <Field label="From" error={errors.window_start}>
              {(field) => <Input {...field} type="time" value={form.window_start} onChange={(event) => setForm({ ...form, window_start: event.target.value })} />}
            </Field>
            <Field label="Until" error={errors.window_end}>
              {(field) => <Input {...field} type="time" value={form.window_end} onChange={(event) => setForm({ ...form, window_end: event.target.value })} />}
            </Field>
          </div>
          <Field label="Random spread (minutes)" hint="Each slot moves by up to this many minutes, so posts don't land on the hour. 0 for exact times." error={errors.spread_minutes}>
            {(field) => (
              <Input {...field} type="number" min={0} max={120} value={form.spread_minutes} onChange={(event) => setForm({ ...form, spread_minutes: event.target.value })} />
            )}
          </Field>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save slots'}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-muted-foreground">Admins change the slots.</p>
      )}
    </Card>
  );
}
