import { useMemo, useState, type FormEvent } from 'react';
import BackOfficeShell from '../BackOfficeShell';
import { Button } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { CopyButton } from '../components/ui/CopyButton';
import { Field, Input } from '../components/ui/Input';
import { NewPasswordShown } from './ApplicationPasswords';
import type { BackOfficeAccess } from '../use-back-office-access';
import { approvalRedirect, readAuthorizationRequest, rejectionRedirect, type AuthorizationRequest } from '../../lib/back-office/application-authorization';
import { ApplicationPasswordError, createApplicationPassword, loadUserLogin, type NewApplicationPassword } from '../../lib/back-office/application-passwords';
import { landingPath } from '../../lib/back-office/memberships';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';

/**
 * /admin/authorize-application: WordPress's login-approval page, which the API index names as the place where a
 * tool asks for an application password (lib/back-office/application-authorization.ts). Signed out, the member
 * signs in first and comes back here with the tool's request. An editor or admin approves for the organization
 * managed in the header (the password works on its site only) or refuses; a viewer, who cannot publish, is told
 * so and can only refuse. `app_id` is checked but not kept: the password is known by its name, as every other.
 */
export default function AuthorizeApplicationApp() {
  return <BackOfficeShell title="Authorize Application">{(access) => <AuthorizeApplication access={access} />}</BackOfficeShell>;
}

function AuthorizeApplication({ access }: { access: BackOfficeAccess }) {
  const check = useMemo(() => readAuthorizationRequest(new URLSearchParams(window.location.search)), []);
  if (!check.ok) {
    return (
      <Card className="mx-auto max-w-xl" role="alert">
        <CardHeader level={2} title="This connection request cannot be approved" description={check.message} />
        <p className="text-sm">Nothing was made. Start the connection again from the tool, or make an application password under Your Profile.</p>
      </Card>
    );
  }
  return <Approval access={access} request={check.request} />;
}

function Approval({ access, request }: { access: BackOfficeAccess; request: AuthorizationRequest }) {
  const { organization, role, user } = access;
  const appLabel = request.appName || 'An application';
  const [name, setName] = useState(request.appName.slice(0, 60));
  const [nameError, setNameError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<(NewApplicationPassword & { login: string }) | null>(null);

  function reject() {
    window.location.assign(rejectionRedirect(request) ?? landingPath(role));
  }

  async function approve(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setNameError('Give the application password a name, such as the tool that will use it.');
      return;
    }
    setNameError(undefined);
    setBusy(true);
    try {
      const [password, login] = await Promise.all([createApplicationPassword(supabaseBrowser(), organization.id, name.trim()), loadUserLogin(supabaseBrowser(), user.id)]);
      if (request.successUrl) {
        window.location.assign(approvalRedirect(request.successUrl, { siteUrl: window.location.origin, userLogin: login, password: password.password }));
        return;
      }
      setMade({ ...password, login });
    } catch (error) {
      console.error(error);
      setNameError(error instanceof ApplicationPasswordError ? error.message : 'The application password could not be made. Please try again.');
    }
    setBusy(false);
  }

  if (made) {
    return (
      <Card className="mx-auto max-w-xl">
        <CardHeader level={2} title={`${appLabel} is connected`} description={`Enter these in ${request.appName || 'the application'} to publish to ${organization.name}.`} />
        <dl className="space-y-2 text-sm">
          <Detail label="Site address" value={window.location.origin} />
          <Detail label="User name" value={made.login} />
        </dl>
        <NewPasswordShown made={made} />
      </Card>
    );
  }

  if (role === 'viewer') {
    return (
      <Card className="mx-auto max-w-xl">
        <CardHeader level={2} title="Authorize Application" description={`${appLabel} would like to publish to ${organization.name} as you.`} />
        <p role="alert" className="text-sm">
          Your role in {organization.name} is viewer, which cannot publish, so no tool can connect as you. Ask an admin of {organization.name} to make you an editor, or switch to
          another organization in the header.
        </p>
        <div className="mt-4">
          <Button variant="outline" onClick={reject}>
            Go back without connecting
          </Button>
        </div>
      </Card>
    );
  }

  return (
    <Card className="mx-auto max-w-xl">
      <CardHeader
        level={2}
        title="Authorize Application"
        description={`${appLabel} would like to connect to your account on ${organization.name}. It will be able to write, publish and delete posts and upload media there, as you (${role}); nothing on other sites. You can revoke it at any time under Your Profile.`}
      />
      {request.successUrl && (
        <p className="mb-4 text-sm">
          After you approve, you will be sent to <strong className="break-all">{destination(request.successUrl)}</strong> with the
          new password.
        </p>
      )}
      <form onSubmit={approve} noValidate className="space-y-4">
        <Field label="New Application Password Name" error={nameError}>
          {(control) => <Input {...control} name="application-password-name" maxLength={60} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy}>
            {busy ? 'Approving...' : 'Yes, I approve of this connection'}
          </Button>
          <Button variant="outline" onClick={reject} disabled={busy}>
            No, I do not approve of this connection
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Where the browser goes, as a person reads it: scheme and host (an app's own scheme too), no path or query. */
function destination(address: string): string {
  const url = new URL(address);
  return `${url.protocol}//${url.host}`;
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <dt className="text-muted-foreground">{label}:</dt>
      <dd className="flex items-center gap-2">
        <code className="rounded bg-muted px-2 py-0.5 font-mono">{value}</code>
        <CopyButton text={value} label={label.toLowerCase()} />
      </dd>
    </div>
  );
}
