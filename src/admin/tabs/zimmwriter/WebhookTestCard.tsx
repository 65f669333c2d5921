import { useEffect, useState, type FormEvent } from 'react';
import { examplePayload, sendTestWebhook, testDeliveryMessage, type WebhookTestResult } from '../../../lib/back-office/webhook';
import { loadQueueSettings } from '../../../lib/back-office/publishing-queue';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { Button } from '../../components/ui/Button';
import { Card, CardHeader } from '../../components/ui/Card';
import { Field, Input, Textarea } from '../../components/ui/Input';
import { Select } from '../../components/ui/Select';
import { useUrlParam } from '../../use-url-param';
import { ZIMMWRITER_TEST_SECTION } from '../index';

/** What the card shows after a test: the outcome's heading and text, and the refused fields of a failure. */
type ShownResult = { ok: boolean; title: string; description: string; problems: { path: string; message: string }[] };

/**
 * The test form: a dry run through /api/admin/webhook-test. The payload takes the webhook's own validation
 * and sanitizing, and the answer says whether a delivery like it would create or update a post, and where it
 * would be filed; nothing is published, stored or logged, so the delivery log is not reloaded. The outcome
 * stays in the card until the next test (a toast would vanish before a field problem is read and fixed).
 */
export function TestForm({ organizationId, categories }: { organizationId: string; categories: string[] }) {
  const [title, setTitle] = useState('Test Blog Post from ZimmWriter');
  const [category, setCategory] = useState('');
  const [html, setHtml] = useState('<h2>Test Post</h2><p>This is a test post sent from the admin dashboard.</p>');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<ShownResult | null>(null);
  const chosen = category || categories[0] || '';
  const [section] = useUrlParam('section');

  // Opened as the test section (the Overview's Test Integration): the form comes into view, ready to type.
  useEffect(() => {
    if (section !== ZIMMWRITER_TEST_SECTION) return;
    const card = document.getElementById('webhook-test');
    card?.scrollIntoView({ block: 'start' });
    card?.querySelector<HTMLInputElement>('input[name="title"]')?.focus({ preventScroll: true });
  }, [section]);

  async function send(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    setResult(null);
    try {
      const answer = await sendTestWebhook(supabaseBrowser(), organizationId, examplePayload(chosen || undefined, { title, html }));
      const timeZone = answer.ok && answer.preview.slot ? (await loadQueueSettings(supabaseBrowser(), organizationId)).time_zone : undefined;
      setResult(shown(answer, timeZone));
    } catch (error) {
      console.error(error);
      setResult({ ok: false, title: 'Webhook Test Error', description: 'Failed to send test request. Check the connection and try again.', problems: [] });
    } finally {
      setSending(false);
    }
  }

  return (
    <Card id="webhook-test">
      <CardHeader
        title="Webhook Test"
        description="Check a payload without publishing: it is validated and sanitized like a real delivery, and the answer says whether it would create or update a post."
      />
      <form onSubmit={send} className="space-y-4">
        <Field label="Title">{(control) => <Input {...control} name="title" value={title} onChange={(e) => setTitle(e.target.value)} required />}</Field>
        <Field label="Category">
          {(control) => (
            <Select {...control} name="category" value={chosen} onChange={(e) => setCategory(e.target.value)} options={categories.map((name) => ({ value: name, label: name }))} />
          )}
        </Field>
        <Field label="HTML Content">
          {(control) => <Textarea {...control} name="html" rows={6} className="font-mono" value={html} onChange={(e) => setHtml(e.target.value)} required />}
        </Field>
        <Button type="submit" disabled={sending}>
          {sending ? 'Sending Test...' : 'Send Test Webhook'}
        </Button>
      </form>
      <div role="status" aria-live="polite" className="mt-4 empty:hidden">
        {result && (
          <div
            data-testid="webhook-test-result"
            data-outcome={result.ok ? 'success' : 'failure'}
            className={
              result.ok
                ? 'rounded-md border border-green-700 bg-green-50 p-4 text-sm text-green-900 dark:border-green-500 dark:bg-green-950/40 dark:text-green-100'
                : 'rounded-md border border-red-700 bg-red-50 p-4 text-sm text-red-900 dark:border-red-400 dark:bg-red-950/40 dark:text-red-100'
            }
          >
            <p className="font-semibold">{result.title}</p>
            {result.problems.length > 0 ? (
              <>
                <p className="mt-1">The payload was refused. Fix these fields and send the test again:</p>
                <ul className="mt-2 list-disc space-y-1 pl-5" aria-label="Refused fields">
                  {result.problems.map((problem) => (
                    <li key={`${problem.path}: ${problem.message}`}>
                      <span className="font-mono font-semibold">{problem.path}</span>: {problem.message}
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p className="mt-1 break-words">{result.description}</p>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}

/** A test's answer as the card shows it. */
function shown(answer: WebhookTestResult, timeZone: string | undefined): ShownResult {
  if (answer.ok) return { ok: true, ...testDeliveryMessage(answer.preview, timeZone), problems: [] };
  return { ok: false, title: 'Webhook Test Failed', description: answer.text, problems: answer.problems };
}
