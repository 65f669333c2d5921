import { useState, type FormEvent } from 'react';
import { Button } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { Field, Input, Textarea } from '../components/ui/Input';
import { parseSettingsForm, saveOrganizationSettings, settingsFormValues, type SettingsField, type SettingsFormValues } from '../../lib/organization-settings';
import type { MemberOrganization } from '../../lib/memberships';
import { supabaseBrowser } from '../../lib/supabase-browser';
import { $organization } from '../../stores/organization';
import { toast } from '../../stores/toast';
import type { AdminTabProps } from './index';

type FieldSpec = { name: SettingsField; label: string; type?: string; placeholder?: string; rows?: number };

const CARDS: { title: string; description: string; fields: FieldSpec[] }[] = [
  {
    title: 'Organization Details',
    description: 'The name and web address of the organization.',
    fields: [
      { name: 'name', label: 'Organization Name' },
      { name: 'domain', label: 'Domain', placeholder: 'example.com' },
    ],
  },
  {
    title: 'Blog Configuration',
    description: 'How the blog introduces itself, and where readers write to.',
    fields: [
      { name: 'blog_title', label: 'Blog Title' },
      { name: 'blog_description', label: 'Blog Description', rows: 3 },
      { name: 'contact_email', label: 'Contact Email', type: 'email' },
    ],
  },
  {
    title: 'Social Media Links',
    description: 'Profiles linked from the site footer.',
    fields: [
      { name: 'facebook', label: 'Facebook URL', type: 'url', placeholder: 'https://facebook.com/...' },
      { name: 'twitter', label: 'Twitter URL', type: 'url', placeholder: 'https://twitter.com/...' },
      { name: 'linkedin', label: 'LinkedIn URL', type: 'url', placeholder: 'https://linkedin.com/...' },
      { name: 'youtube', label: 'YouTube URL', type: 'url', placeholder: 'https://youtube.com/...' },
      { name: 'instagram', label: 'Instagram URL', type: 'url', placeholder: 'https://instagram.com/...' },
    ],
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

/** Settings: the organization's details, blog and social settings, saved together (spec back-office 4). */
export default function SettingsTab({ organization }: AdminTabProps) {
  const [values, setValues] = useState<SettingsFormValues>(() => settingsFormValues(organization));
  const [errors, setErrors] = useState<Partial<Record<SettingsField, string>>>({});
  const [saving, setSaving] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    const parsed = parseSettingsForm(values, organization.settings);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const saved = await saveOrganizationSettings(supabaseBrowser(), organization.id, parsed.update);
      // The header, the organization switcher and a later visit to this tab read the saved values.
      const state = $organization.get();
      const withRole = (org: MemberOrganization) => (org.id === saved.id ? { ...saved, role: org.role } : org);
      $organization.set({ ...state, current: state.current && withRole(state.current), list: state.list.map(withRole) });
      toast({ title: 'Settings Saved', description: 'Organization settings have been updated successfully' });
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to save organization settings', variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={save} noValidate className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-2xl font-semibold">System Settings</h2>
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        {CARDS.map((card) => (
          <Card key={card.title}>
            <CardHeader title={card.title} description={card.description} />
            <div className="space-y-4">
              {card.fields.map((field) => (
                <Field key={field.name} label={field.label} error={errors[field.name]}>
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
  );
}
