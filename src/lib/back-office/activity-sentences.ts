/**
 * The activity log read as sentences ("Alex Morgan changed Jordan Lee's role to editor"). One sentence per
 * action the app logs; an action this module does not know still reads as a sentence built from its code.
 * Pure functions: the Security tab, the Overview's recent activity and the exports share them.
 *
 * An entry without a user was written by the app itself: the database logs the writing tool's deliveries
 * (ZimmWriter) and the scheduler's publications with details.via ('webhook' or 'schedule'), what the seed and
 * the operator's `site:add` made with details.via ('seed' or 'operator'), and a category an older delivery
 * created with details.by_server alone. Those entries name their writer. A post a
 * publishing tool sent through the WordPress API is its member's entry, with details.application_password.
 */

/** A person as the audit screens know them. */
export interface Person {
  email: string;
  full_name: string | null;
}

/** The fields of an activity entry a sentence needs. */
export interface ActivityEntry {
  action: string;
  user_id: string | null;
  resource_type: string | null;
  resource_id: string | null;
  details: Record<string, unknown> | null;
  /** The acting user's profile (joined by the query). */
  profiles: Person | null;
}

/** People by user id: the organization's profiles the screen loaded. */
export type People = ReadonlyMap<string, Person>;

/** A person's display name: the full name, else the e-mail. */
export function personName(person: Person | null | undefined): string | null {
  return person?.full_name?.trim() || person?.email || null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

/**
 * Who wrote an entry: a member, the writing tool, the scheduler, the seed, the operator's command, or nobody
 * known (a deleted account).
 */
export type ActorKind = 'user' | 'writing_tool' | 'scheduler' | 'seed' | 'operator' | 'client_link' | 'unknown';

/** The app's own writers: their name in lists and exports, and as the subject of a sentence. */
const APP_ACTORS = {
  writing_tool: { name: 'ZimmWriter (writing tool)', subject: 'ZimmWriter (writing tool)' },
  scheduler: { name: 'Scheduler', subject: 'The scheduler' },
  seed: { name: 'Demo data (seed)', subject: 'The demo data (seed)' },
  operator: { name: 'Operator (site:add)', subject: 'The operator (site:add)' },
  client_link: { name: 'A client (calendar link)', subject: 'A client' },
} as const satisfies Record<string, { name: string; subject: string }>;

/** The actor of an entry as the screens and exports name it. */
export interface Actor {
  kind: ActorKind;
  /** Display name: the member's full name or e-mail, an app writer's name, or 'Unknown user'. */
  name: string;
  /** The member's e-mail when known. */
  email: string | null;
}

/**
 * Which of the app's writers wrote an entry that has no user: details.via says so for the writing tool's
 * deliveries ('webhook'), the scheduler ('schedule'), the seed ('seed'), the operator's command
 * ('operator') and a client opening their calendar link ('client_link'); details.by_server alone marks a category a writing-tool delivery created before deliveries
 * carried `via` (every later server write carries `via` or its member, as the WordPress API's terms carry the
 * application password's; any other server change without a mark names nobody). Null for an entry with a user
 * or without either mark.
 */
export function appActor(entry: Pick<ActivityEntry, 'user_id' | 'details'> & Partial<Pick<ActivityEntry, 'action'>>): Exclude<ActorKind, 'user' | 'unknown'> | null {
  if (entry.user_id) return null;
  const via = text(entry.details?.via);
  if (via === 'webhook') return 'writing_tool';
  if (via === 'schedule') return 'scheduler';
  if (via === 'seed' || via === 'operator') return via;
  if (via === 'client_link') return 'client_link';
  return entry.details?.by_server === true && (entry.action ?? 'category_created') === 'category_created' ? 'writing_tool' : null;
}

/**
 * The actor of an entry: the joined profile, else the loaded one (`people`), else the app writer the entry
 * records, else unknown (the account was deleted, or the profile is out of the reader's reach).
 */
export function entryActor(entry: ActivityEntry, people: People = new Map()): Actor {
  const person = entry.profiles ?? (entry.user_id ? people.get(entry.user_id) : undefined);
  const name = personName(person);
  if (person && name) return { kind: 'user', name, email: person.email || null };
  const app = appActor(entry);
  if (app) return { kind: app, name: APP_ACTORS[app].name, email: null };
  return { kind: 'unknown', name: 'Unknown user', email: null };
}

/** What a sentence is built from: the actor, the details, and the target user when there is one. */
class Sentence {
  constructor(
    private readonly entry: ActivityEntry,
    private readonly people: People,
  ) {}

  get details(): Record<string, unknown> {
    return this.entry.details ?? {};
  }

  /**
   * The actor: full name, else e-mail; the writing tool or the scheduler for the app's own entries; else a
   * neutral word (a deleted account leaves user_id null).
   */
  get actor(): string {
    const actor = entryActor(this.entry, this.people);
    return actor.kind === 'user' ? actor.name : actor.kind === 'unknown' ? 'Someone' : APP_ACTORS[actor.kind].subject;
  }

  /** A recorded name in quotes ("SEO"), or the fallback when it was not recorded. */
  quoted(key: string, fallback: string): string {
    const value = text(this.details[key]);
    return value ? `"${value}"` : fallback;
  }

  /** " (3 posts moved)" style suffix from details.post_count; empty when not recorded. */
  postCount(what: string): string {
    const count = this.details.post_count;
    return typeof count === 'number' ? ` (${count} ${count === 1 ? 'post' : 'posts'} ${what})` : '';
  }

  /** The user the entry is about: resource_id when resource_type is 'user', else details.user_id. */
  private get targetId(): string | null {
    if (this.entry.resource_type === 'user') return this.entry.resource_id;
    return text(this.details.user_id) ?? text(this.details.target_user_id);
  }

  /** True when the actor acted on themselves (their own session, their own role). */
  private get selfTarget(): boolean {
    return this.targetId !== null && this.targetId === this.entry.user_id;
  }

  /** The target user's name: the loaded profile, else what the entry recorded, else the id. */
  get target(): string {
    const id = this.targetId;
    const known = id ? personName(this.people.get(id)) : null;
    const d = this.details;
    return known ?? text(d.full_name) ?? text(d.email) ?? text(d.created_user_email) ?? (id ? `user ${id}` : 'a user');
  }

  /** "Jordan Lee's", or "their own" when the actor is the target. */
  get targetPossessive(): string {
    return this.selfTarget ? 'their own' : `${this.target}'s`;
  }

  /** `the post "Title"`, or `a post` when the title was not recorded. */
  get post(): string {
    const title = text(this.details.title);
    return title ? `the post "${title}"` : 'a post';
  }

  /** " as editor" from details.new_role or details.role; empty when neither was recorded. */
  get asRole(): string {
    const role = text(this.details.new_role) ?? text(this.details.role);
    return role ? ` as ${role}` : '';
  }

  /** " for Dec 1, 2026, 9:00 AM" from details.published_at (UTC, so every screen and export agrees). */
  get publicationTime(): string {
    const at = text(this.details.published_at);
    const date = at ? new Date(at) : null;
    if (!date || Number.isNaN(date.getTime())) return '';
    return ` for ${date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`;
  }

  /** The invited address (invitations are about an e-mail, not yet a user). */
  get invitee(): string {
    return text(this.details.email) ?? 'someone';
  }

  /** " (name, phone)": the fields an update changed, when it recorded them. */
  get changedFields(): string {
    const d = this.details;
    const fields = d.changes && typeof d.changes === 'object' && !Array.isArray(d.changes) ? Object.keys(d.changes)
      : Array.isArray(d.fields) ? d.fields.filter((f): f is string => typeof f === 'string')
      : [];
    return fields.length ? ` (${fields.map((f) => f.replace(/_/g, ' ')).join(', ')})` : '';
  }
}

/** " in a bulk change" for the `_bulk` variants, which log one entry per user changed together. */
const bulk = (action: string) => (action.endsWith('_bulk') ? ' in a bulk change' : '');

const roleChanged = (s: Sentence, action: string) => {
  const role = text(s.details.new_role);
  return `${s.actor} changed ${s.targetPossessive} role${role ? ` to ${role}` : ''}${bulk(action)}`;
};

/** A webhook publish mode as the sentence says it. */
const publishModeWords = (mode: unknown) =>
  mode === 'draft' ? 'be saved as drafts for review' : mode === 'publish' ? 'be published at once' : mode === 'queue' ? 'join the publishing queue' : 'a new publish mode';

/** "3 posts a day" from a publishing queue's settings, else nothing. */
const postsADay = (settings: unknown) => {
  const count = (settings as { posts_per_day?: unknown } | null)?.posts_per_day;
  return typeof count === 'number' ? ` to ${count} ${count === 1 ? 'post' : 'posts'} a day` : '';
};

/** The sentence of every action the app logs (and of `admin_dashboard_access`, no longer written). */
const SENTENCES: Record<string, (s: Sentence, action: string) => string> = {
  login_success: (s) => `${s.actor} signed in`,
  admin_login_success: (s) => `${s.actor} signed in as an admin`,
  admin_logout: (s) => `${s.actor} signed out`,
  admin_dashboard_access: (s) => `${s.actor} opened the dashboard`,
  password_changed: (s) => `${s.actor} changed their password`,
  session_terminated: (s) => {
    const count = s.details.sessions;
    return typeof count === 'number' && count > 1 ? `${s.actor} ended ${s.targetPossessive} ${count} sessions in one browser` : `${s.actor} ended ${s.targetPossessive} session`;
  },
  application_password_created: (s) => `${s.actor} made the application password ${s.quoted('name', 'for a publishing tool')}`,
  application_password_revoked: (s) => `${s.actor} revoked ${s.targetPossessive} application password ${s.quoted('name', 'for a publishing tool')}`,
  client_calendar_link_created: (s) => `${s.actor} made a client calendar link for ${s.quoted('label', 'a client')}`,
  client_calendar_link_revoked: (s) => `${s.actor} revoked the client calendar link for ${s.quoted('label', 'a client')}`,
  client_calendar_link_opened: (s) => `${s.actor} opened the calendar link for ${s.quoted('label', 'a client')}`,

  // A post created published or scheduled (the editor's Publish, a tool's arrival) says so: one entry, both words.
  post_created: (s) =>
    s.details.status === 'published'
      ? `${s.actor} created and published ${s.post}`
      : s.details.status === 'scheduled'
        ? `${s.actor} created and scheduled ${s.post}${s.publicationTime}`
        : `${s.actor} created ${s.post}`,
  post_updated: (s) => `${s.actor} updated ${s.post}${s.changedFields}`,
  post_published: (s) => `${s.actor} published ${s.post}`,
  post_unpublished: (s) => `${s.actor} unpublished ${s.post}`,
  post_scheduled: (s) => `${s.actor} scheduled ${s.post}${s.publicationTime}`,
  post_schedule_cancelled: (s) => `${s.actor} cancelled the schedule of ${s.post}`,
  post_restored: (s) => `${s.actor} restored ${s.post}`,
  post_deleted: (s) => `${s.actor} deleted ${s.post}`,
  post_trashed: (s) => `${s.actor} moved ${s.post} to the trash`,
  post_untrashed: (s) => `${s.actor} restored ${s.post} from the trash`,
  category_created: (s) => `${s.actor} created the blog category ${s.quoted('name', 'a category')}`,
  category_approved: (s) => `${s.actor} approved the blog category ${s.quoted('name', 'a category')} for visitors`,
  category_renamed: (s) => `${s.actor} renamed the blog category ${s.quoted('old_name', 'a category')} to ${s.quoted('new_name', 'a new name')}`,
  categories_merged: (s) =>
    `${s.actor} merged the blog category ${s.quoted('from_name', 'a category')} into ${s.quoted('to_name', 'another')}${s.postCount('moved')}`,
  category_deleted: (s) => `${s.actor} deleted the blog category ${s.quoted('name', 'a category')}${s.postCount('moved to Uncategorized')}`,
  tag_renamed: (s) => `${s.actor} renamed the tag ${s.quoted('from', 'a tag')} to ${s.quoted('to', 'a new name')}${s.postCount('changed')}`,
  tags_merged: (s) => `${s.actor} merged the tag ${s.quoted('from', 'a tag')} into ${s.quoted('to', 'another')}${s.postCount('changed')}`,
  categories_changed: (s) => (text(s.details.title) ? `${s.actor} changed the categories of ${s.post}` : `${s.actor} changed the blog categories`),

  role_changed: roleChanged,
  role_changed_bulk: roleChanged,
  user_activated: (s, a) => `${s.actor} activated ${s.target}${bulk(a)}`,
  user_activated_bulk: (s, a) => `${s.actor} activated ${s.target}${bulk(a)}`,
  user_deactivated: (s, a) => `${s.actor} deactivated ${s.target}${bulk(a)}`,
  user_deactivated_bulk: (s, a) => `${s.actor} deactivated ${s.target}${bulk(a)}`,
  user_soft_deleted_bulk: (s, a) => `${s.actor} removed ${s.target}${bulk(a)}`,
  user_created_by_admin: (s) => `${s.actor} created an account for ${s.target}${s.asRole}`,
  profile_updated_by_admin: (s) => `${s.actor} updated ${s.targetPossessive} profile${s.changedFields}`,
  password_reset_by_admin: (s) => `${s.actor} sent ${s.target} a password reset e-mail`,

  user_invited: (s) => `${s.actor} invited ${s.invitee}${s.asRole}`,
  invitation_resent: (s) => `${s.actor} resent the invitation to ${s.invitee}`,
  invitation_revoked: (s) => `${s.actor} revoked the invitation to ${s.invitee}`,
  invitation_accepted: (s) => `${s.actor} accepted an invitation and joined${s.asRole}`,

  organization_settings_updated: (s) => `${s.actor} updated the organization settings${s.changedFields}`,
  webhook_publish_mode_changed: (s) => `${s.actor} set posts from ZimmWriter and publishing tools to ${publishModeWords(s.details.to)}`,
  webhook_author_changed: (s) => (s.details.to ? `${s.actor} credited ZimmWriter's posts to ${s.target}` : `${s.actor} set ZimmWriter's posts to have no author`),
  indexnow_changed: (s) =>
    s.details.rotated === true
      ? `${s.actor} gave the site a new IndexNow key`
      : `${s.actor} switched search engine notifications (IndexNow) ${s.details.enabled === false ? 'off' : 'on'}`,
  publishing_queue_changed: (s) => `${s.actor} set the publishing queue${postsADay(s.details.to)}`,
  hosting_team_changed: (s) => {
    const credits = typeof s.details.monthly_credits === 'number' ? ` to ${s.details.monthly_credits.toLocaleString('en-US')} credits a month` : '';
    const share = typeof s.details.build_share_percent === 'number' ? `, ${s.details.build_share_percent}% for builds` : '';
    return `${s.actor} set the hosting team ${s.quoted('name', 'of the site')}${credits}${share}`;
  },
  queue_reordered: (s) => `${s.actor} moved ${s.post} to place ${typeof s.details.to === 'number' ? s.details.to : '?'} of the publishing queue`,

  media_uploaded: (s) => `${s.actor} added the image ${s.quoted('file_name', 'an image')} to the Media Library`,
  media_deleted: (s) => `${s.actor} deleted the image ${s.quoted('file_name', 'an image')} from the Media Library`,
};

/** The actions with a sentence of their own (the rest read "… did something: code"). */
export const DESCRIBED_ACTIONS: readonly string[] = Object.keys(SENTENCES);

/**
 * One activity entry as a sentence. `people` resolves user ids to names (the actor when the join found no
 * profile, the target of user actions); missing names fall back to what the entry recorded, then to ids.
 */
export function activitySentence(entry: ActivityEntry, people: People = new Map()): string {
  const sentence = new Sentence(entry, people);
  const build = Object.hasOwn(SENTENCES, entry.action) ? SENTENCES[entry.action] : undefined;
  const said = build ? build(sentence, entry.action) : `${sentence.actor} did something: ${entry.action}`;
  // A publishing tool's work through the WordPress API is its member's, with the password it signed in with.
  const password = text(entry.details?.application_password);
  return password ? `${said}, through the application password "${password}"` : said;
}

/** The user ids an entry names besides its actor (to load their profiles before writing sentences). */
export function mentionedUserIds(entries: readonly ActivityEntry[]): string[] {
  const ids = new Set<string>();
  for (const entry of entries) {
    const id = entry.resource_type === 'user' ? entry.resource_id : text(entry.details?.user_id);
    if (id) ids.add(id);
  }
  return [...ids];
}
