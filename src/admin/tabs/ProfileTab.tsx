import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import { Button } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { ErrorState } from '../components/ui/EmptyState';
import { Field, Input, Textarea } from '../components/ui/Input';
import { Skeleton } from '../components/ui/Skeleton';
import { MediaLibraryDialog } from '../media/MediaLibraryDialog';
import { ApplicationPasswords } from '../profile/ApplicationPasswords';
import { authorProfileProblems, loadAuthorProfile, saveAuthorProfile, type AuthorProfile } from '../../lib/back-office/author-profile';
import { initialsOf } from '../../lib/images';
import { mediaPublicUrl } from '../../lib/media-library';
import { ChangePasswordSchema, changeOwnPassword, PasswordChangeError, type ChangePassword } from '../../lib/back-office/password';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { $organization } from '../stores/organization';
import { toast } from '../../stores/toast';
import { useLoad } from '../use-load';
import type { AdminTabProps } from './index';

const EMPTY: ChangePassword = { currentPassword: '', newPassword: '', confirmPassword: '' };
const FIELDS: { name: keyof ChangePassword; label: string; autoComplete: string }[] = [
  { name: 'currentPassword', label: 'Current Password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New Password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm New Password', autoComplete: 'new-password' },
];

/**
 * Profile: one's author card (for those who write posts: an editor or admin of some organization, the rule the
 * database holds too), one's application passwords for publishing tools (editors and admins of the organization
 * managed), and one's password with the rules and tips.
 */
export default function ProfileTab({ user, organization }: AdminTabProps) {
  const memberships = useStore($organization).list;
  const writesPosts = memberships.some((membership) => membership.role !== 'viewer');
  const publishesHere = memberships.some((membership) => membership.id === organization.id && membership.role !== 'viewer');
  const [values, setValues] = useState<ChangePassword>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof ChangePassword, string>>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = ChangePasswordSchema.safeParse(values);
    if (!parsed.success) {
      const found: Partial<Record<keyof ChangePassword, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof ChangePassword;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await changeOwnPassword(supabaseBrowser(), { id: user.id, email: user.email ?? '' }, parsed.data);
      setValues(EMPTY);
      toast({ title: 'Success', description: 'Your password has been changed successfully.' });
    } catch (error) {
      console.error(error);
      const description = error instanceof PasswordChangeError ? error.message : 'Failed to change password. Please try again.';
      toast({ title: 'Error', description, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-semibold">Profile Settings</h2>
      {writesPosts && <AuthorCardForm key={user.id} userId={user.id} organizationId={organization.id} />}
      {publishesHere && <ApplicationPasswords userId={user.id} userEmail={user.email ?? ''} organization={organization} />}
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader title="Change Password" description={`Signed in as ${user.email ?? 'unknown'}. Your other sessions end after the change.`} />
          <form onSubmit={submit} noValidate className="space-y-4">
            {FIELDS.map((field) => (
              <Field key={field.name} label={field.label} error={errors[field.name]}>
                {(control) => (
                  <Input
                    {...control}
                    name={field.name}
                    type="password"
                    autoComplete={field.autoComplete}
                    value={values[field.name]}
                    onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
                  />
                )}
              </Field>
            ))}
            <Button type="submit" disabled={busy}>
              {busy ? 'Changing Password...' : 'Change Password'}
            </Button>
          </form>
        </Card>
        <Card>
          <CardHeader title="Security Information" />
          <h4 className="text-sm font-semibold">Password requirements</h4>
          <ul className="mb-4 list-disc pl-5 text-sm text-muted-foreground">
            <li>At least 8 characters long</li>
            <li>Contains uppercase and lowercase letters</li>
            <li>Contains at least one number</li>
            <li>Avoid using personal information</li>
          </ul>
          <h4 className="text-sm font-semibold">Security tips</h4>
          <ul className="list-disc pl-5 text-sm text-muted-foreground">
            <li>Use a unique password for your admin account</li>
            <li>Consider using a password manager</li>
            <li>Log out when using shared computers</li>
          </ul>
        </Card>
      </div>
    </div>
  );
}

const AUTHOR_FIELDS: { name: Exclude<keyof AuthorProfile, 'avatar_url' | 'bio'>; label: string; type?: string; autoComplete?: string }[] = [
  { name: 'full_name', label: 'Name', autoComplete: 'name' },
  { name: 'author_title', label: 'Title', autoComplete: 'organization-title' },
  { name: 'author_website', label: 'Website', type: 'url', autoComplete: 'url' },
];

/**
 * The author card visitors see under one's posts: name, title, bio, website and a photo from the Media Library
 * (initials when there is none). Saved under row-level security (one's own profile only); a change requests a
 * rebuild of the sites that show it.
 */
function AuthorCardForm({ userId, organizationId }: { userId: string; organizationId: string }) {
  const client = supabaseBrowser();
  // The loaded card is the form's state: typing changes it, saving replaces it with what was saved.
  const loaded = useLoad(() => loadAuthorProfile(client, userId), [client, userId]);
  const form = loaded.value;
  const setForm = (next: AuthorProfile) => loaded.update(() => next);
  const [errors, setErrors] = useState<Partial<Record<keyof AuthorProfile, string>>>({});
  const [busy, setBusy] = useState(false);
  const [picking, setPicking] = useState(false);

  if (loaded.state === 'error') return <ErrorState message="Failed to load your author card" onRetry={loaded.reload} />;
  if (!form) return <Skeleton rows={3} label="Loading your author card..." />;
  const update = (field: keyof AuthorProfile, value: string) => setForm({ ...form, [field]: value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    const problems = authorProfileProblems(form);
    setErrors(problems ?? {});
    if (problems) return;
    setBusy(true);
    try {
      setForm(await saveAuthorProfile(client, userId, form));
      toast({ title: 'Author Card Saved', description: 'Your posts show it from the next site build.' });
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to save your author card', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  const initials = initialsOf(form.full_name);
  return (
    <Card>
      <CardHeader title="Author Card" description="Shown under the posts you write." />
      <form onSubmit={submit} noValidate className="grid gap-6 md:grid-cols-[auto_1fr]">
        <div className="flex flex-col items-center gap-3" data-testid="author-photo">
          {form.avatar_url ? (
            <img src={form.avatar_url} alt="Your author photo" className="h-24 w-24 rounded-full bg-muted object-cover" />
          ) : (
            <span aria-hidden="true" className="flex h-24 w-24 items-center justify-center rounded-full bg-primary/10 text-2xl font-bold text-primary">
              {initials || '?'}
            </span>
          )}
          <Button type="button" variant="outline" size="sm" onClick={() => setPicking(true)}>
            {form.avatar_url ? 'Change photo' : 'Choose photo'}
          </Button>
          {form.avatar_url && (
            <Button type="button" variant="outline" size="sm" onClick={() => update('avatar_url', '')}>
              Remove photo
            </Button>
          )}
          {errors.avatar_url && <p role="alert" className="text-sm text-red-700 dark:text-red-400">{errors.avatar_url}</p>}
        </div>
        <div className="space-y-4">
          {AUTHOR_FIELDS.map((field) => (
            <Field key={field.name} label={field.label} error={errors[field.name]}>
              {(control) => (
                <Input {...control} name={field.name} type={field.type ?? 'text'} autoComplete={field.autoComplete} value={form[field.name]} onChange={(e) => update(field.name, e.target.value)} />
              )}
            </Field>
          ))}
          <Field label="Bio" error={errors.bio}>
            {(control) => <Textarea {...control} name="bio" rows={3} value={form.bio} onChange={(e) => update('bio', e.target.value)} />}
          </Field>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : 'Save Author Card'}
          </Button>
        </div>
      </form>
      <MediaLibraryDialog
        open={picking}
        onClose={() => setPicking(false)}
        organizationId={organizationId}
        canEdit
        onPick={(media) => {
          update('avatar_url', mediaPublicUrl(media.storage_path));
          setPicking(false);
        }}
      />
    </Card>
  );
}
