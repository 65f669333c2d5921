import { describe, expect, it } from 'vitest';
import { activitySentence, appActor, DESCRIBED_ACTIONS, entryActor, mentionedUserIds, type ActivityEntry, type Person } from '../../../../src/lib/back-office/activity-sentences.ts';

const ALEX = 'a0000000-0000-4000-8000-000000000001';
const JORDAN = 'a0000000-0000-4000-8000-000000000002';
const people = new Map<string, Person>([
  [ALEX, { email: 'alex@example.com', full_name: 'Alex Morgan' }],
  [JORDAN, { email: 'jordan@example.com', full_name: 'Jordan Lee' }],
]);
const entry = (action: string, over: Partial<ActivityEntry> = {}): ActivityEntry => ({
  action, user_id: ALEX, resource_type: null, resource_id: null, details: {}, profiles: people.get(ALEX)!, ...over,
});
const onJordan = { resource_type: 'user', resource_id: JORDAN };
const post = { resource_type: 'blog_post', resource_id: 'p1', details: { title: 'Hello World', slug: 'hello-world' } };
const invitation = { resource_type: 'invitation', resource_id: 'i1', details: { email: 'sam@example.com', role: 'viewer' } };

describe('activitySentence', () => {
  // Every action the app logs (and admin_dashboard_access, whose old rows stay), with the sentence it reads as.
  const cases: Array<[string, Partial<ActivityEntry>, string]> = [
    ['login_success', { details: { ip_address: '127.0.0.1' } }, 'Alex Morgan signed in'],
    ['admin_login_success', {}, 'Alex Morgan signed in as an admin'],
    ['admin_logout', { details: { timestamp: '2026-11-23T10:00:00Z' } }, 'Alex Morgan signed out'],
    ['admin_dashboard_access', {}, 'Alex Morgan opened the dashboard'],
    ['password_changed', {}, 'Alex Morgan changed their password'],
    ['session_terminated', { resource_type: 'session', resource_id: 's1', details: { user_id: JORDAN } }, "Alex Morgan ended Jordan Lee's session"],
    ['application_password_created', { resource_type: 'application_password', resource_id: 'a1', details: { name: 'ZimmWriter' } }, 'Alex Morgan made the application password "ZimmWriter"'],
    ['application_password_revoked', { resource_type: 'application_password', resource_id: 'a1', details: { name: 'ZimmWriter', user_id: JORDAN } }, 'Alex Morgan revoked Jordan Lee\'s application password "ZimmWriter"'],
    ['client_calendar_link_created', { resource_type: 'client_calendar_link', resource_id: 'l1', details: { label: 'Acme team', expires_at: '2026-12-29T00:00:00Z' } }, 'Alex Morgan made a client calendar link for "Acme team"'],
    ['client_calendar_link_revoked', { resource_type: 'client_calendar_link', resource_id: 'l1', details: { label: 'Acme team' } }, 'Alex Morgan revoked the client calendar link for "Acme team"'],
    ['client_calendar_link_opened', { user_id: null, profiles: null, resource_type: 'client_calendar_link', resource_id: 'l1', details: { label: 'Acme team', via: 'client_link' } }, 'A client opened the calendar link for "Acme team"'],
    ['post_created', post, 'Alex Morgan created the post "Hello World"'],
    ['post_updated', { ...post, details: { ...post.details, fields: ['title', 'meta_description'] } }, 'Alex Morgan updated the post "Hello World" (title, meta description)'],
    ['post_published', post, 'Alex Morgan published the post "Hello World"'],
    ['post_unpublished', post, 'Alex Morgan unpublished the post "Hello World"'],
    ['post_scheduled', { ...post, details: { ...post.details, published_at: '2026-12-01T14:00:00+00:00' } }, 'Alex Morgan scheduled the post "Hello World" for Dec 1, 2026, 2:00 PM UTC'],
    ['post_schedule_cancelled', post, 'Alex Morgan cancelled the schedule of the post "Hello World"'],
    ['post_restored', post, 'Alex Morgan restored the post "Hello World"'],
    ['post_deleted', post, 'Alex Morgan deleted the post "Hello World"'],
    ['post_trashed', post, 'Alex Morgan moved the post "Hello World" to the trash'],
    ['post_untrashed', post, 'Alex Morgan restored the post "Hello World" from the trash'],
    ['categories_changed', {}, 'Alex Morgan changed the blog categories'],
    ['category_created', { resource_type: 'blog_category', details: { name: 'Local SEO', slug: 'local-seo' } }, 'Alex Morgan created the blog category "Local SEO"'],
    ['category_approved', { resource_type: 'blog_category', details: { name: 'Drone Photography', slug: 'drone-photography' } }, 'Alex Morgan approved the blog category "Drone Photography" for visitors'],
    ['category_renamed', { details: { old_name: 'Seo Tips', new_name: 'SEO Tips', old_slug: 'seo-tips', new_slug: 'seo-tips', post_count: 3 } }, 'Alex Morgan renamed the blog category "Seo Tips" to "SEO Tips"'],
    ['categories_merged', { details: { from_name: 'Seo Tips', to_name: 'SEO Strategies', post_count: 1 } }, 'Alex Morgan merged the blog category "Seo Tips" into "SEO Strategies" (1 post moved)'],
    ['category_deleted', { details: { name: 'Old News', post_count: 2 } }, 'Alex Morgan deleted the blog category "Old News" (2 posts moved to Uncategorized)'],
    ['tag_renamed', { resource_type: 'blog_tag', details: { from: 'seo', to: 'SEO', post_count: 4 } }, 'Alex Morgan renamed the tag "seo" to "SEO" (4 posts changed)'],
    ['tags_merged', { resource_type: 'blog_tag', details: { from: 'Walk-Tag', to: 'walking', post_count: 0 } }, 'Alex Morgan merged the tag "Walk-Tag" into "walking" (0 posts changed)'],
    ['role_changed', { ...onJordan, details: { new_role: 'editor', old_role: 'viewer' } }, "Alex Morgan changed Jordan Lee's role to editor"],
    ['role_changed_bulk', { ...onJordan, details: { new_role: 'viewer' } }, "Alex Morgan changed Jordan Lee's role to viewer in a bulk change"],
    ['user_activated', onJordan, 'Alex Morgan activated Jordan Lee'],
    ['user_activated_bulk', onJordan, 'Alex Morgan activated Jordan Lee in a bulk change'],
    ['user_deactivated', onJordan, 'Alex Morgan deactivated Jordan Lee'],
    ['user_deactivated_bulk', onJordan, 'Alex Morgan deactivated Jordan Lee in a bulk change'],
    ['user_soft_deleted_bulk', onJordan, 'Alex Morgan removed Jordan Lee in a bulk change'],
    ['user_created_by_admin', { ...onJordan, details: { created_user_email: 'jordan@example.com', role: 'editor' } }, 'Alex Morgan created an account for Jordan Lee as editor'],
    ['profile_updated_by_admin', { ...onJordan, details: { changes: { full_name: {}, phone: {} } } }, "Alex Morgan updated Jordan Lee's profile (full name, phone)"],
    ['password_reset_by_admin', onJordan, 'Alex Morgan sent Jordan Lee a password reset e-mail'],
    ['user_invited', invitation, 'Alex Morgan invited sam@example.com as viewer'],
    ['invitation_resent', invitation, 'Alex Morgan resent the invitation to sam@example.com'],
    ['invitation_revoked', invitation, 'Alex Morgan revoked the invitation to sam@example.com'],
    ['invitation_accepted', { details: { invitation_id: 'i1', role: 'editor', existing_account: false } }, 'Alex Morgan accepted an invitation and joined as editor'],
    ['organization_settings_updated', { resource_type: 'organization', details: { fields: ['name', 'contact_email'] } }, 'Alex Morgan updated the organization settings (name, contact email)'],
    ['webhook_publish_mode_changed', { resource_type: 'organization', details: { from: 'publish', to: 'draft' } }, 'Alex Morgan set posts from ZimmWriter and publishing tools to be saved as drafts for review'],
    ['webhook_author_changed', { ...onJordan, details: { from: null, to: 'u-jordan' } }, "Alex Morgan credited ZimmWriter's posts to Jordan Lee"],
    ['webhook_author_changed', { resource_type: 'user', resource_id: null, details: { from: 'u-jordan', to: null } }, "Alex Morgan set ZimmWriter's posts to have no author"],
    ['webhook_publish_mode_changed', { resource_type: 'organization', details: { from: 'draft', to: 'queue' } }, 'Alex Morgan set posts from ZimmWriter and publishing tools to join the publishing queue'],
    ['indexnow_changed', { resource_type: 'organization', details: { enabled: false, rotated: false } }, 'Alex Morgan switched search engine notifications (IndexNow) off'],
    ['indexnow_changed', { resource_type: 'organization', details: { enabled: true, rotated: true } }, 'Alex Morgan gave the site a new IndexNow key'],
    ['hosting_team_changed', { resource_type: 'hosting_team', details: { name: 'Agency team', monthly_credits: 5000, build_share_percent: 80 } }, 'Alex Morgan set the hosting team "Agency team" to 5,000 credits a month, 80% for builds'],
    ['publishing_queue_changed', { resource_type: 'organization', details: { from: { posts_per_day: 1 }, to: { posts_per_day: 3 } } }, 'Alex Morgan set the publishing queue to 3 posts a day'],
    ['queue_reordered', { resource_type: 'blog_post', details: { title: 'Local SEO', slug: 'local-seo', from: 5, to: 1 } }, 'Alex Morgan moved the post "Local SEO" to place 1 of the publishing queue'],
    ['media_uploaded', { resource_type: 'media', details: { file_name: 'team.jpg' } }, 'Alex Morgan added the image "team.jpg" to the Media Library'],
    ['media_deleted', { resource_type: 'media', details: { file_name: 'team.jpg' } }, 'Alex Morgan deleted the image "team.jpg" from the Media Library'],
  ];

  it.each(cases)('%s reads as a sentence', (action, over, sentence) => {
    expect(activitySentence(entry(action, over), people)).toBe(sentence);
  });

  it('has a test case for every action it describes, and describes every case', () => {
    expect([...new Set(cases.map(([action]) => action))].sort()).toEqual([...DESCRIBED_ACTIONS].sort());
  });

  it('names the writing tool and the scheduler for what the database logged on their behalf', () => {
    const byService = (via: string) => entry('post_published', { user_id: null, profiles: null, ...post, details: { ...post.details, via } });
    expect(activitySentence(byService('webhook'), people)).toBe('ZimmWriter (writing tool) published the post "Hello World"');
    const upload = entry('media_uploaded', { user_id: null, profiles: null, resource_type: 'media', details: { file_name: 'cover.png', via: 'webhook' } });
    expect(activitySentence(upload, people)).toBe('ZimmWriter (writing tool) added the image "cover.png" to the Media Library');
    expect(activitySentence(byService('schedule'), people)).toBe('The scheduler published the post "Hello World"');
    expect(activitySentence(entry('post_deleted', { user_id: null, profiles: null, ...post }), people)).toBe('Someone deleted the post "Hello World"');
  });

  it("names the member and the application password for a publishing tool's work through the WordPress API", () => {
    const throughApi = entry('post_published', { ...post, details: { ...post.details, via: 'webhook', application_password: 'RankWriting' } });
    expect(activitySentence(throughApi, people)).toBe('Alex Morgan published the post "Hello World", through the application password "RankWriting"');
  });

  it('names the writing tool for a category a delivery created (by_server; via since the database records it)', () => {
    const byServer = entry('category_created', { user_id: null, profiles: null, details: { name: 'Seo Tips', by_server: true } });
    expect(activitySentence(byServer, people)).toBe('ZimmWriter (writing tool) created the blog category "Seo Tips"');
    const viaWebhook = entry('category_created', { user_id: null, profiles: null, details: { name: 'Seo Tips', by_server: true, via: 'webhook' } });
    expect(activitySentence(viaWebhook, people)).toBe('ZimmWriter (writing tool) created the blog category "Seo Tips"');
    // Other server work on categories (a direct database change) is not the writing tool's.
    const deleted = entry('category_deleted', { user_id: null, profiles: null, details: { name: 'Old News', by_server: true, post_count: 0 } });
    expect(activitySentence(deleted, people)).toBe('Someone deleted the blog category "Old News" (0 posts moved to Uncategorized)');
  });

  it('names the seed and the operator for what they made, not the writing tool or "Someone"', () => {
    const seeded = entry('category_created', { user_id: null, profiles: null, details: { name: 'SEO', via: 'seed' } });
    expect(activitySentence(seeded, people)).toBe('The demo data (seed) created the blog category "SEO"');
    const operated = entry('publishing_queue_changed', { user_id: null, profiles: null, details: { via: 'operator', to: { posts_per_day: 3 } } });
    expect(activitySentence(operated, people)).toBe('The operator (site:add) set the publishing queue to 3 posts a day');
    expect(entryActor(operated)).toEqual({ kind: 'operator', name: 'Operator (site:add)', email: null });
  });

  it('says a post created published or scheduled was published or scheduled, so that the log and its search show it', () => {
    const created = (status: string, extra: Record<string, unknown> = {}) => entry('post_created', { ...post, details: { ...post.details, status, ...extra } });
    expect(activitySentence(created('published'), people)).toBe('Alex Morgan created and published the post "Hello World"');
    expect(activitySentence(created('scheduled', { published_at: '2026-12-01T14:00:00Z' }), people)).toBe('Alex Morgan created and scheduled the post "Hello World" for Dec 1, 2026, 2:00 PM UTC');
    expect(activitySentence(created('draft'), people)).toBe('Alex Morgan created the post "Hello World"');
  });

  it('names a client who opened their calendar link, never "Someone"', () => {
    const opened = entry('client_calendar_link_opened', { user_id: null, profiles: null, details: { label: 'Acme team', via: 'client_link' } });
    expect(entryActor(opened)).toEqual({ kind: 'client_link', name: 'A client (calendar link)', email: null });
    // The mark names nobody on an entry that has a member.
    expect(entryActor(entry('client_calendar_link_created', { details: { label: 'Acme team', via: 'client_link' } }), people).kind).toBe('user');
  });

  it('reads an unknown action from its code', () => {
    expect(activitySentence(entry('some_action'), people)).toBe('Alex Morgan did something: some_action');
    // Inherited object keys are not actions.
    expect(activitySentence(entry('constructor'), people)).toBe('Alex Morgan did something: constructor');
  });

  it('names the actor by e-mail without a name, and neutrally without a profile', () => {
    expect(activitySentence(entry('admin_logout', { profiles: { email: 'alex@example.com', full_name: null } }))).toBe('alex@example.com signed out');
    expect(activitySentence(entry('admin_logout', { profiles: { email: 'alex@example.com', full_name: '  ' } }))).toBe('alex@example.com signed out');
    expect(activitySentence(entry('admin_logout', { user_id: null, profiles: null }))).toBe('Someone signed out');
  });

  it('names the target from the loaded profiles, else what the entry recorded, else its id', () => {
    const unknown = 'b0000000-0000-4000-8000-000000000009';
    expect(activitySentence(entry('user_deactivated', { ...onJordan, details: { full_name: 'Old Name' } }), people)).toBe('Alex Morgan deactivated Jordan Lee');
    expect(activitySentence(entry('user_deactivated', { resource_type: 'user', resource_id: unknown, details: { full_name: 'Kim Park' } }), people)).toBe('Alex Morgan deactivated Kim Park');
    expect(activitySentence(entry('user_deactivated', { resource_type: 'user', resource_id: unknown, details: { email: 'kim@example.com' } }), people)).toBe('Alex Morgan deactivated kim@example.com');
    expect(activitySentence(entry('user_deactivated', { resource_type: 'user', resource_id: unknown }), people)).toBe(`Alex Morgan deactivated user ${unknown}`);
  });

  it('says "their own" when the actor acted on themselves', () => {
    expect(activitySentence(entry('session_terminated', { details: { user_id: ALEX } }), people)).toBe('Alex Morgan ended their own session');
    expect(activitySentence(entry('role_changed', { resource_type: 'user', resource_id: ALEX, details: { new_role: 'editor' } }), people)).toBe('Alex Morgan changed their own role to editor');
  });

  it('falls back when a post title or role was not recorded', () => {
    expect(activitySentence(entry('post_deleted', { details: {} }), people)).toBe('Alex Morgan deleted a post');
    expect(activitySentence(entry('role_changed', { ...onJordan, details: null }), people)).toBe("Alex Morgan changed Jordan Lee's role");
    expect(activitySentence(entry('categories_changed', post), people)).toBe('Alex Morgan changed the categories of the post "Hello World"');
  });
});

describe('mentionedUserIds', () => {
  it('collects the users entries are about, once each', () => {
    expect(mentionedUserIds([
      entry('role_changed', onJordan), entry('user_activated', onJordan), entry('session_terminated', { details: { user_id: ALEX } }), entry('post_deleted', post),
    ])).toEqual([JORDAN, ALEX]);
  });
});

describe('the actor of an entry', () => {
  const app = (details: Record<string, unknown>) => entry('post_created', { user_id: null, profiles: null, ...post, details: { ...post.details, ...details } });

  it('is the member: the joined profile, else the loaded one, by full name then e-mail', () => {
    expect(entryActor(entry('admin_logout'), people)).toEqual({ kind: 'user', name: 'Alex Morgan', email: 'alex@example.com' });
    expect(entryActor(entry('admin_logout', { profiles: null }), people)).toEqual({ kind: 'user', name: 'Alex Morgan', email: 'alex@example.com' });
    expect(entryActor(entry('admin_logout', { profiles: { email: 'alex@example.com', full_name: null } }))).toEqual({ kind: 'user', name: 'alex@example.com', email: 'alex@example.com' });
  });

  it('is the writing tool or the scheduler for an entry without a user, from what the entry recorded', () => {
    expect(entryActor(app({ via: 'webhook' }))).toEqual({ kind: 'writing_tool', name: 'ZimmWriter (writing tool)', email: null });
    expect(entryActor(app({ via: 'schedule' }))).toEqual({ kind: 'scheduler', name: 'Scheduler', email: null });
    expect(entryActor({ ...app({ by_server: true }), action: 'category_created' })).toEqual({ kind: 'writing_tool', name: 'ZimmWriter (writing tool)', email: null });
    expect(entryActor(app({ by_server: true })).kind).toBe('unknown');
  });

  it('is unknown without a user and without a mark, or with a mark it does not know', () => {
    expect(entryActor(app({}))).toEqual({ kind: 'unknown', name: 'Unknown user', email: null });
    expect(entryActor(app({ via: 'elsewhere' }))).toEqual({ kind: 'unknown', name: 'Unknown user', email: null });
    expect(entryActor(app({ by_server: 'yes' }))).toEqual({ kind: 'unknown', name: 'Unknown user', email: null });
  });

  it('is never an app writer when the entry has a user, whatever its details say', () => {
    expect(appActor({ user_id: ALEX, details: { via: 'webhook' } })).toBeNull();
    expect(entryActor(entry('post_created', { ...post, details: { via: 'schedule' } }), people).kind).toBe('user');
    // A user whose profile is out of reach stays unknown rather than borrowing a writer's name.
    expect(entryActor(entry('post_created', { profiles: null, details: { via: 'webhook' } })).kind).toBe('unknown');
  });
});
