import { describe, expect, it } from 'vitest';
import { DESCRIBED_ACTIONS } from '../../../../src/lib/back-office/activity-sentences.ts';
import {
  ACTION_KIND_BADGE, actionBadgeVariant, actionKind, activityResource, auditCsvExport, auditJsonExport, csvCell, loginSummary, searchAudit,
  type AuditActivity, type LoginAttempt,
} from '../../../../src/lib/back-office/audit.ts';

const activity = (over: Partial<AuditActivity> = {}): AuditActivity => ({
  id: 'a1', user_id: 'u1', action: 'user_login', resource_type: null, resource_id: null, details: {}, created_at: '2026-11-21T10:00:00Z',
  profiles: { email: 'a@x.test', full_name: 'A' }, ...over,
});
const login = (over: Partial<LoginAttempt> = {}): LoginAttempt => ({
  id: 'l1', email: 'a@x.test', success: true, failure_reason: null, ip_address: null, created_at: '2026-11-21T10:00:00Z', ...over,
});

describe('csvCell', () => {
  it.each([['=SUM(A1)', `"'=SUM(A1)"`], ['+1', `"'+1"`], ['-2', `"'-2"`], ['@cmd', `"'@cmd"`], ['\tx', `"'\tx"`], ['\rx', `"'\rx"`]])(
    'neutralises the formula start of %j', (input, out) => expect(csvCell(input)).toBe(out));
  it('quotes and doubles quotes, leaves ordinary text, and writes empty for null', () => {
    expect(csvCell('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvCell('a=b')).toBe('"a=b"');
    expect(csvCell(null)).toBe('""');
  });
});

describe('exports and stats', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const people = new Map([['u2', { email: 'jordan@x.test', full_name: 'Jordan Lee' }]]);
  const roleChange = activity({ action: 'role_changed', resource_type: 'user', resource_id: 'u2', details: { new_role: 'editor' } });
  it('names the JSON file by date and carries the four keys, raw entries plus a summary sentence', () => {
    const { filename, content } = auditJsonExport([roleChange], [login()], 'admin@x.test', people, now);
    expect(filename).toBe('audit-log-2026-11-21.json');
    const body = JSON.parse(content);
    expect(Object.keys(body)).toEqual(['activities', 'logins', 'exported_at', 'exported_by']);
    expect(body.activities[0]).toEqual({ ...roleChange, actor: { kind: 'user', name: 'A', email: 'a@x.test' }, summary: "A changed Jordan Lee's role to editor" });
    expect(body.logins[0].summary).toBe('a@x.test signed in');
  });
  it('writes one CSV row per entry with formula-safe cells, the raw columns first, then summary, user id and details', () => {
    const { filename, content } = auditCsvExport([roleChange], [login({ email: '=evil@x.test', success: false })], people, now);
    expect(filename).toBe('audit-log-2026-11-21.csv');
    const lines = content.split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('"type","created_at","email","action_or_result","resource_type","resource_id","failure_reason","ip_address","summary","user_id","details"');
    expect(lines[1]).toBe(`"activity","2026-11-21T10:00:00Z","a@x.test","role_changed","user","u2","","","A changed Jordan Lee's role to editor","u1","{""new_role"":""editor""}"`);
    expect(lines[2]).toContain(`"'=evil@x.test"`);
  });
  it('searches the sentences too', () => {
    expect(searchAudit([roleChange, activity({ id: 'a2' })], [], 'jordan lee', people).activities).toEqual([roleChange]);
    expect(searchAudit([roleChange], [], 'ROLE_CHANGED').activities).toHaveLength(1);
  });
  it('summarises login attempts', () => {
    expect(loginSummary({ email: 'a@x.test', success: false, failure_reason: 'invalid_credentials' })).toBe('Sign-in failed for a@x.test (invalid credentials)');
    expect(loginSummary({ email: 'a@x.test', success: false, failure_reason: null })).toBe('Sign-in failed for a@x.test');
  });
});

describe("the app's own entries (no user) in the exports and the search", () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const delivered = activity({
    id: 'a-tool', user_id: null, profiles: null, action: 'post_created', resource_type: 'blog_post', resource_id: 'p1',
    details: { title: 'Local SEO', via: 'webhook' },
  });
  const scheduled = activity({
    id: 'a-clock', user_id: null, profiles: null, action: 'post_published', resource_type: 'blog_post', resource_id: 'p2',
    details: { title: 'Spring Tips', via: 'schedule' },
  });
  const orphan = activity({ id: 'a-gone', user_id: null, profiles: null, action: 'post_deleted', details: { title: 'Old' } });

  it('names the writing tool and the scheduler in the CSV user columns and the sentence', () => {
    const lines = auditCsvExport([delivered, scheduled, orphan], [], new Map(), now).content.split('\r\n');
    expect(lines[1]).toBe(
      '"activity","2026-11-21T10:00:00Z","ZimmWriter (writing tool)","post_created","blog_post","p1","","",' +
        '"ZimmWriter (writing tool) created the post ""Local SEO""","writing_tool","{""title"":""Local SEO"",""via"":""webhook""}"',
    );
    expect(lines[2]).toBe(
      '"activity","2026-11-21T10:00:00Z","Scheduler","post_published","blog_post","p2","","",' +
        '"The scheduler published the post ""Spring Tips""","scheduler","{""title"":""Spring Tips"",""via"":""schedule""}"',
    );
    // Nobody recorded: the user columns stay empty rather than guess.
    expect(lines[3]).toBe('"activity","2026-11-21T10:00:00Z","","post_deleted","","","","","Someone deleted the post ""Old""","","{""title"":""Old""}"');
  });

  it('gives every JSON entry its actor', () => {
    const body = JSON.parse(auditJsonExport([delivered, scheduled, orphan], [], 'admin@x.test', new Map(), now).content);
    expect(body.activities.map((a: { actor: unknown }) => a.actor)).toEqual([
      { kind: 'writing_tool', name: 'ZimmWriter (writing tool)', email: null },
      { kind: 'scheduler', name: 'Scheduler', email: null },
      { kind: 'unknown', name: 'Unknown user', email: null },
    ]);
    expect(body.activities[0]).toMatchObject({ user_id: null, summary: 'ZimmWriter (writing tool) created the post "Local SEO"' });
  });

  it("finds them by the writer's name", () => {
    expect(searchAudit([delivered, scheduled, activity()], [], 'zimmwriter').activities).toEqual([delivered]);
    expect(searchAudit([delivered, scheduled, activity()], [], 'SCHEDULER').activities).toEqual([scheduled]);
  });
});

describe('action badges', () => {
  it.each([
    ['post_created', 'create'], ['category_created', 'create'], ['user_created_by_admin', 'create'], ['user_invited', 'create'],
    ['invitation_accepted', 'create'], ['media_uploaded', 'create'], ['user_activated_bulk', 'create'], ['post_published', 'create'],
    ['post_restored', 'create'],
    ['post_updated', 'update'], ['post_unpublished', 'update'], ['post_scheduled', 'update'], ['post_schedule_cancelled', 'update'],
    ['category_renamed', 'update'], ['tags_merged', 'update'], ['organization_settings_updated', 'update'], ['queue_reordered', 'update'],
    ['invitation_resent', 'update'], ['webhook_publish_mode_changed', 'update'], ['post_untrashed', 'update'],
    ['post_deleted', 'delete'], ['media_deleted', 'delete'], ['user_deactivated', 'delete'], ['user_soft_deleted_bulk', 'delete'],
    ['invitation_revoked', 'delete'], ['post_trashed', 'delete'],
    ['login_success', 'security'], ['admin_login_success', 'security'], ['admin_logout', 'security'], ['password_changed', 'security'],
    ['password_reset_by_admin', 'security'], ['session_terminated', 'security'], ['role_changed_bulk', 'security'],
    ['admin_dashboard_access', 'security'],
    ['audit_page_e2e', 'other'], ['reactivated_somehow', 'other'],
  ])('%s is of kind %s', (action, kind) => {
    expect(actionKind(action)).toBe(kind);
  });

  it('gives every action the app logs a kind', () => {
    expect(DESCRIBED_ACTIONS.filter((action) => actionKind(action) === 'other')).toEqual([]);
  });

  it('colours creates green, updates blue, deletes red, security amber and the rest grey', () => {
    expect(ACTION_KIND_BADGE).toEqual({ create: 'success', update: 'info', delete: 'destructive', security: 'warning', other: 'neutral' });
    expect(actionBadgeVariant('post_created')).toBe('success');
    expect(actionBadgeVariant('post_unpublished')).toBe('info');
    expect(actionBadgeVariant('user_deactivated')).toBe('destructive');
    expect(actionBadgeVariant('admin_login_success')).toBe('warning');
    expect(actionBadgeVariant('something_else')).toBe('neutral');
  });
});

describe('activityResource', () => {
  const people = new Map([['a0000000-0000-4000-8000-000000000002', { email: 'jordan@x.test', full_name: 'Jordan Lee' }]]);

  it('names the resource by its recorded title or name, a user, an organization and a session by name, never by an id', () => {
    expect(activityResource(activity({ resource_type: 'blog_post', resource_id: '40000000-0000-4000-8000-000000000001', details: { title: 'Hello' } })))
      .toEqual({ type: 'blog post', label: 'Hello' });
    expect(activityResource(activity({ resource_type: 'media', resource_id: 'm1', details: { file_name: 'team.jpg' } }))).toEqual({ type: 'media', label: 'team.jpg' });
    expect(activityResource(activity({ resource_type: 'user', resource_id: 'a0000000-0000-4000-8000-000000000002', details: { full_name: 'Old Name' } }), people))
      .toEqual({ type: 'user', label: 'Jordan Lee' });
    const organizations = new Map([['10000000-0000-4000-8000-000000000001', 'ScalePro Digital']]);
    expect(activityResource(activity({ resource_type: 'organization', resource_id: '10000000-0000-4000-8000-000000000001' }), people, organizations))
      .toEqual({ type: 'organization', label: 'ScalePro Digital' });
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    expect(activityResource(activity({ resource_type: 'session', resource_id: 's1', details: { full_name: 'Jordan Lee', user_agent: chrome } })))
      .toEqual({ type: 'session', label: 'Chrome 131 on Windows' });
    expect(activityResource(activity({ resource_type: 'user', resource_id: null }))).toEqual({ type: 'user', label: null });
    // An organization the reader cannot name, or a resource with nothing recorded: the type alone, no id fragment.
    expect(activityResource(activity({ resource_type: 'organization', resource_id: '10000000-0000-4000-8000-000000000009' }), people, organizations))
      .toEqual({ type: 'organization', label: null });
    expect(activityResource(activity({ resource_type: 'webhook', resource_id: '50000000-0000-4000-8000-000000000001' }))).toEqual({ type: 'webhook', label: null });
  });

  it('is null for an entry about no resource', () => {
    expect(activityResource(activity())).toBeNull();
  });
});
