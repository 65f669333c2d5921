import { describe, expect, it } from 'vitest';
import { actionBadgeVariant, auditCsvExport, auditJsonExport, auditStats, csvCell, type AuditActivity, type LoginAttempt } from '../../src/lib/audit.ts';

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
  it('names the JSON file by date and carries the four keys', () => {
    const { filename, content } = auditJsonExport([activity()], [login()], 'admin@x.test', now);
    expect(filename).toBe('audit-log-2026-11-21.json');
    expect(Object.keys(JSON.parse(content))).toEqual(['activities', 'logins', 'exported_at', 'exported_by']);
  });
  it('writes one CSV row per entry with formula-safe cells', () => {
    const { filename, content } = auditCsvExport([activity()], [login({ email: '=evil@x.test', success: false })], now);
    expect(filename).toBe('audit-log-2026-11-21.csv');
    const lines = content.split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain(`"'=evil@x.test"`);
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
