import { describe, expect, it } from 'vitest';
import { actionBadgeVariant, auditCsvExport, auditJsonExport, auditStats, csvCell, loginSummary, searchAudit, type AuditActivity, type LoginAttempt } from '../../../../src/lib/back-office/audit.ts';

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
    expect(body.activities[0]).toEqual({ ...roleChange, summary: "A changed Jordan Lee's role to editor" });
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
  it('counts distinct users and login outcomes', () => {
    expect(auditStats([activity(), activity({ id: 'a2' }), activity({ id: 'a3', user_id: 'u2' })], [login(), login({ success: false })]))
      .toEqual({ totalActivities: 3, successfulLogins: 1, failedAttempts: 1, activeUsers: 2 });
  });
  it('styles action badges as spec section 9 says', () => {
    expect(actionBadgeVariant('user_login')).toBe('default');
    expect(actionBadgeVariant('user_soft_deleted_bulk')).toBe('destructive');
    expect(actionBadgeVariant('user_deactivated')).toBe('destructive');
    expect(actionBadgeVariant('user_created_by_admin')).toBe('default');
    expect(actionBadgeVariant('settings_updated')).toBe('secondary');
    expect(actionBadgeVariant('role_changed')).toBe('outline');
  });
});
