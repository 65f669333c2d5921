import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { Field, Input, Textarea } from '../components/ui/Input';
import {
  parseSettingsForm,
  saveOrganizationSettings,
  SettingsSaveError,
  settingsFormValues,
  type SettingsField,
  type SettingsFieldErrors,
  type SettingsFormValues,
} from '../../lib/back-office/organization-settings';
import { SOCIAL_NETWORKS } from '../../schemas/organization';
import type { MemberOrganization } from '../../lib/back-office/memberships';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { $organization } from '../stores/organization';
import { $unsavedChanges } from '../stores/unsaved-changes';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { useLeaveGuard } from '../use-leave-guard';
import { toast } from '../../stores/toast';
import type { AdminTabProps } from './index';
import { ClientCalendarLinksCard } from './settings/ClientCalendarLinksCard';
import { HostingCard } from './settings/HostingCard';
import { SearchEnginesCard } from './settings/SearchEnginesCard';

type FieldSpec = { name: SettingsField; label: string; type?: string; placeholder?: string; rows?: number; hint?: string };

const CARDS: { title: string; description: string; fields: FieldSpec[] }[] = [
  {
    title: 'Organization Details',
    description: 'The name and web address of the organization.',
    fields: [
      { name: 'name', label: 'Organization Name' },
      {
        name: 'domain',
        label: 'Domain',
        placeholder: 'example.com',
        hint: 'Links and addresses use it at once. A site finds this organization by its domain only once your operator has confirmed the domain.',
      },
    ],
  },
  {
    title: 'Blog Configuration',
    description: 'How the blog introduces itself, and how readers reach you (home and contact pages).',
    fields: [
      { name: 'blog_title', label: 'Blog Title' },
      { name: 'blog_description', label: 'Blog Description', rows: 3 },
      { name: 'contact_email', label: 'Contact Email', type: 'email' },
      { name: 'contact_phone', label: 'Contact Phone', type: 'tel', placeholder: 'e.g. +1 555 010 0199' },
    ],
  },
  {
    title: 'Social Media Links',
    description: 'Profiles linked from the site footer.',
    fields: SOCIAL_NETWORKS.map(({ key, label }) => ({ name: key, label: `${label} URL`, type: 'url', placeholder: `https://${key}.com/...` })),
  },
  {
    title: 'Embedded Forms',
    description: 'Addresses of the booking calendar and contact form shown on the site.',
    fields: [
      { name: 'booking_embed_url', label: 'Booking Embed URL', type: 'url' },
      { name: 'contact_form_embed_url', label: 'Contact Form Embed URL', type: 'url' },
    ],
  },
];

/**
 * Settings: the organization's details, blog, contact and social settings, saved together; below the form, the
 * search engine notifications (IndexNow), switched and logged on their own, then the site's hosting and builds (its
 * Netlify team's credits), saved on their own, and the links that show a client the site's upcoming posts. Saving the form records the site's rebuild in the same transaction (a database trigger); the
 * header's site status shows when the public site has the new settings. Unsaved edits are not dropped without
 * asking: another tab, a link or closing the page asks first, as the post editor does.
 */
export default function SettingsTab({ organization }: AdminTabProps) {
  const [values, setValues] = useState<SettingsFormValues>(() => settingsFormValues(organization));
  const [errors, setErrors] = useState<SettingsFieldErrors>({});
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const dirty = JSON.stringify(values) !== JSON.stringify(settingsFormValues(organization));
  const leftRef = useRef(false);
  const guard = useLeaveGuard(dirty && !saving, leftRef);
  useEffect(() => {
    $unsavedChanges.set(dirty ? 'Settings' : null);
    return () => $unsavedChanges.set(null);
  }, [dirty]);

  function showErrors(fieldErrors: SettingsFieldErrors) {
    setErrors(fieldErrors);
    // After React has marked the fields invalid, move to the first one so keyboard and screen reader users land on it.
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const parsed = parseSettingsForm(values, organization.settings);
    if (!parsed.ok) {
      showErrors(parsed.errors);
      toast({ title: 'Error', description: 'Please correct the highlighted fields; nothing was saved', variant: 'destructive' });
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const saved = await saveOrganizationSettings(supabaseBrowser(), organization.id, parsed.update);
      // The header's organization choice and a later visit to this tab read the saved values.
      const state = $organization.get();
      const withRole = (org: MemberOrganization) => (org.id === saved.organization.id ? { ...saved.organization, role: org.role } : org);
      $organization.set({ ...state, current: state.current && withRole(state.current), list: state.list.map(withRole) });
      setValues(settingsFormValues(saved.organization));
      toast({ title: 'Settings Saved', description: 'Organization settings have been updated successfully' });
    } catch (error) {
      console.error(error);
      if (error instanceof SettingsSaveError) showErrors(error.fieldErrors);
      toast({ title: 'Error', description: 'Failed to save organization settings', variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="space-y-6">
      {/* The form's only Save stays in view down to the foot of the page (the cards below it save on their own). */}
      <div className="sticky top-0 z-10 -mx-2 flex flex-wrap items-center justify-between gap-3 bg-background/95 px-2 py-2 backdrop-blur">
        <h2 className="text-2xl font-semibold">System Settings</h2>
        <Button type="submit" form="organization-settings" disabled={saving}>
          {saving ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
      <form id="organization-settings" ref={formRef} onSubmit={save} noValidate className="space-y-6">
        <div className="grid gap-6 md:grid-cols-2">
          {CARDS.map((card) => (
            <Card key={card.title}>
              <CardHeader title={card.title} description={card.description} />
              <div className="space-y-4">
                {card.fields.map((field) => (
                  <Field key={field.name} label={field.label} hint={field.hint} error={errors[field.name]}>
                    {(control) =>
                      field.rows ? (
                        <Textarea
                          {...control}
                          name={field.name}
                          rows={field.rows}
                          value={values[field.name]}
                          onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
                        />
                      ) : (
                        <Input
                          {...control}
                          name={field.name}
                          type={field.type ?? 'text'}
                          placeholder={field.placeholder}
                          value={values[field.name]}
                          onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
                        />
                      )
                    }
                  </Field>
                ))}
              </div>
            </Card>
          ))}
        </div>
      </form>
      <SearchEnginesCard organizationId={organization.id} />
      <HostingCard organizationId={organization.id} />
      <ClientCalendarLinksCard organization={organization} />
      <ConfirmDialog
        open={guard.leavingTo !== null}
        title="Unsaved changes"
        description="You have unsaved changes in Settings. Leave without saving?"
        confirmLabel="Leave"
        destructive
        onConfirm={() => guard.leave(guard.leavingTo ?? '/admin')}
        onCancel={guard.stay}
      />
    </div>
  );
}
