import { useEffect, useState, type FormEvent } from 'react';
import { examplePayload, sendTestWebhook, testDeliveryMessage } from '../../../lib/back-office/webhook';
import { loadQueueSettings } from '../../../lib/back-office/publishing-queue';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { toast } from '../../../stores/toast';
import { Button } from '../../components/ui/Button';
import { Card, CardHeader } from '../../components/ui/Card';
import { Field, Input, Textarea } from '../../components/ui/Input';
import { Select } from '../../components/ui/Select';
import { useUrlParam } from '../../use-url-param';
import { ZIMMWRITER_TEST_SECTION } from '../index';

/**
 * The test form: a dry run through /api/admin/webhook-test. The payload takes the webhook's own validation
 * and sanitizing, and the answer says whether a delivery like it would create or update a post; nothing is
 * published, stored or logged, so the delivery log is not reloaded.
 */
export function TestForm({ organizationId, categories }: { organizationId: string; categories: string[] }) {
  const [title, setTitle] = useState('Test Blog Post from ZimmWriter');
  const [category, setCategory] = useState('');
  const [html, setHtml] = useState('<h2>Test Post</h2><p>This is a test post sent from the admin dashboard.</p>');
  const [sending, setSending] = useState(false);
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
    try {
      const result = await sendTestWebhook(supabaseBrowser(), organizationId, examplePayload(chosen || undefined, { title, html }));
      const timeZone = result.ok && result.preview.slot ? (await loadQueueSettings(supabaseBrowser(), organizationId)).time_zone : undefined;
      if (result.ok) toast(testDeliveryMessage(result.preview, timeZone));
      else toast({ title: 'Webhook Test Failed', description: result.text, variant: 'destructive' });
    } catch (error) {
      console.error(error);
      toast({ title: 'Webhook Test Error', description: 'Failed to send test request', variant: 'destructive' });
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
    </Card>
  );
}
