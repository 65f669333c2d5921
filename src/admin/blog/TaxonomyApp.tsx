import { useState, type FormEvent } from 'react';
import {
  categoryNameAndSlug,
  createCategory,
  deleteCategory,
  listCategories,
  listTags,
  mergeCategories,
  renameCategory,
  renameTag,
  TaxonomyError,
  TAXONOMY_MESSAGES,
  type TaxonomyCategory,
  type TaxonomyTag,
} from '../../lib/back-office/blog-taxonomy';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { toast } from '../../stores/toast';
import { Badge } from '../components/ui/Badge';
import { Button, ButtonLink } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { Dialog } from '../components/ui/Dialog';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { Field, Input } from '../components/ui/Input';
import { Select } from '../components/ui/Select';
import { Skeleton } from '../components/ui/Skeleton';
import BackOfficeShell from '../BackOfficeShell';
import type { BackOfficeAccess } from '../use-back-office-access';
import { useLoad } from '../use-load';

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** "Its 2 posts move to X" or "Its post moves to X"; null without posts. */
const postsMoveTo = (count: number, where: string) =>
  count === 0 ? null : `${count === 1 ? 'Its post moves' : `Its ${count} posts move`} to ${where}`;

/** /admin/blog/categories: the organization's categories and tags (client-only island). */
export default function TaxonomyApp() {
  return <BackOfficeShell title="Categories & Tags">{(access) => <Taxonomy access={access} />}</BackOfficeShell>;
}

type Editing =
  | { kind: 'rename'; category: TaxonomyCategory }
  | { kind: 'merge'; category: TaxonomyCategory }
  | { kind: 'delete'; category: TaxonomyCategory }
  | { kind: 'tag'; tag: TaxonomyTag };

function Taxonomy({ access }: { access: BackOfficeAccess }) {
  const organizationId = access.organization.id;
  const lists = useLoad(async () => {
    const client = supabaseBrowser();
    const [categories, tags] = await Promise.all([listCategories(client, organizationId), listTags(client, organizationId)]);
    return { categories, tags };
  }, [organizationId]);
  const [editing, setEditing] = useState<Editing | null>(null);
  // A reload keeps the lists on screen; only another organization's lists are replaced by the skeleton.
  const current = lists.value;

  /**
   * Runs one change: on success its toast and fresh lists (the database records the site's rebuild with the
   * change); on refusal the message as an error toast. Resolves true when the change was saved.
   */
  async function change(run: () => Promise<string>): Promise<boolean> {
    let done: string;
    try {
      done = await run();
    } catch (error) {
      toast({ title: error instanceof TaxonomyError ? error.message : TAXONOMY_MESSAGES.failed, variant: 'destructive' });
      if (!(error instanceof TaxonomyError)) console.error(error);
      return false;
    }
    toast({ title: done });
    lists.reload();
    return true;
  }

  const close = (saved: boolean) => {
    if (saved) setEditing(null);
  };

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-xl font-semibold">Categories &amp; Tags</h2>
        <ButtonLink href="/admin/blog" variant="outline">
          Back to Posts
        </ButtonLink>
      </div>
      {!access.canEdit && (
        <p className="mt-2 text-sm text-muted-foreground">You can view categories and tags. Editors and admins change them.</p>
      )}
      {lists.state === 'error' ? (
        <div className="mt-6">
          <ErrorState message="The categories and tags could not be loaded." onRetry={lists.reload} />
        </div>
      ) : (
        <div className="mt-6 grid gap-6 lg:grid-cols-2">
          <CategoriesCard
            access={access}
            categories={current?.categories ?? null}
            onCreate={(name) =>
              change(async () => `Category "${(await createCategory(supabaseBrowser(), organizationId, name)).name}" created`)
            }
            onEdit={setEditing}
          />
          <TagsCard access={access} tags={current?.tags ?? null} onEdit={(tag) => setEditing({ kind: 'tag', tag })} />
        </div>
      )}

      {editing?.kind === 'rename' && (
        <RenameCategoryDialog
          category={editing.category}
          onCancel={() => setEditing(null)}
          onSave={(name) =>
            change(async () => {
              const renamed = await renameCategory(supabaseBrowser(), editing.category.id, name);
              return `Category renamed to "${renamed.name}"`;
            }).then(close)
          }
        />
      )}
      {editing?.kind === 'merge' && current?.categories && (
        <MergeCategoryDialog
          category={editing.category}
          targets={current.categories.filter((other) => other.id !== editing.category.id)}
          onCancel={() => setEditing(null)}
          onMerge={(target) =>
            change(async () => {
              await mergeCategories(supabaseBrowser(), editing.category.id, target.id);
              return `"${editing.category.name}" merged into "${target.name}"`;
            }).then(close)
          }
        />
      )}
      {editing?.kind === 'delete' && (
        <DeleteCategoryDialog
          category={editing.category}
          fallbackName={current?.categories?.find((category) => category.is_default)?.name ?? 'Uncategorized'}
          onCancel={() => setEditing(null)}
          onDelete={() =>
            change(async () => {
              await deleteCategory(supabaseBrowser(), editing.category.id);
              return `Category "${editing.category.name}" deleted`;
            }).then(close)
          }
        />
      )}
      {editing?.kind === 'tag' && (
        <RenameTagDialog
          tag={editing.tag}
          tags={current?.tags ?? []}
          onCancel={() => setEditing(null)}
          onSave={(name, merging) =>
            change(async () => {
              await renameTag(supabaseBrowser(), organizationId, editing.tag.name, name);
              return merging ? `Tag "${editing.tag.name}" merged into "${merging.name}"` : `Tag renamed to "${name.trim()}"`;
            }).then(close)
          }
        />
      )}
    </>
  );
}

function CategoriesCard({
  access,
  categories,
  onCreate,
  onEdit,
}: {
  access: BackOfficeAccess;
  categories: TaxonomyCategory[] | null;
  onCreate: (name: string) => Promise<boolean>;
  onEdit: (editing: Editing) => void;
}) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    if (await onCreate(name)) setName('');
    setBusy(false);
  }

  return (
    <Card aria-label="Categories">
      <CardHeader title="Categories" description="Posts without a category are filed under the default one." />
      {access.canEdit && (
        <form onSubmit={(event) => void submit(event)} className="mb-4 flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <Field label="New category">{(props) => <Input {...props} value={name} maxLength={80} onChange={(event) => setName(event.target.value)} />}</Field>
          </div>
          <Button type="submit" disabled={busy || name.trim() === ''}>
            {busy ? 'Creating...' : 'Create'}
          </Button>
        </form>
      )}
      {!categories ? (
        <Skeleton rows={4} label="Loading categories..." />
      ) : (
        <ul className="divide-y divide-border border-y border-border">
          {categories.map((category) => (
            <li key={category.id} data-testid="category-row" className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="font-medium">
                  {category.name}
                  {category.is_default && (
                    <Badge variant="secondary" className="ml-2">
                      Default
                    </Badge>
                  )}
                </p>
                <p className="text-xs break-words text-muted-foreground">
                  /blog/category/{category.slug} · {plural(category.post_count, 'post')}
                </p>
              </div>
              {access.canEdit && (
                <div className="flex shrink-0 flex-wrap gap-1">
                  <Button size="sm" variant="outline" onClick={() => onEdit({ kind: 'rename', category })} aria-label={`Rename ${category.name}`}>
                    Rename
                  </Button>
                  {!category.is_default && (
                    <>
                      <Button size="sm" variant="outline" onClick={() => onEdit({ kind: 'merge', category })}>
                        Merge<span className="sr-only"> {category.name}</span> into…
                      </Button>
                      <Button size="sm" variant="destructive" onClick={() => onEdit({ kind: 'delete', category })} aria-label={`Delete ${category.name}`}>
                        Delete
                      </Button>
                    </>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function TagsCard({ access, tags, onEdit }: { access: BackOfficeAccess; tags: TaxonomyTag[] | null; onEdit: (tag: TaxonomyTag) => void }) {
  return (
    <Card aria-label="Tags">
      <CardHeader title="Tags" description='Tags ignore case: "SEO" and "seo" are one tag, spelled as first used.' />
      {!tags ? (
        <Skeleton rows={4} label="Loading tags..." />
      ) : tags.length === 0 ? (
        <EmptyState title="No tags yet" hint="Tags added to posts appear here." />
      ) : (
        <ul className="divide-y divide-border border-y border-border">
          {tags.map((tag) => (
            <li key={tag.id} data-testid="tag-row" className="flex items-center justify-between gap-3 py-2">
              <p className="min-w-0 break-words">
                <span className="font-medium">{tag.name}</span>
                <span className="ml-2 text-xs text-muted-foreground">{plural(tag.post_count, 'post')}</span>
              </p>
              {access.canEdit && (
                <Button size="sm" variant="outline" className="shrink-0" onClick={() => onEdit(tag)} aria-label={`Rename / merge ${tag.name}`}>
                  Rename / merge
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** Buttons of a dialog form: Cancel and the submit button (disabled while busy). */
function DialogButtons({ busy, label, busyLabel, onCancel, disabled }: { busy: boolean; label: string; busyLabel: string; onCancel: () => void; disabled?: boolean }) {
  return (
    <div className="mt-6 flex justify-end gap-2">
      <Button variant="outline" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" disabled={busy || disabled}>
        {busy ? busyLabel : label}
      </Button>
    </div>
  );
}

function RenameCategoryDialog({ category, onCancel, onSave }: { category: TaxonomyCategory; onCancel: () => void; onSave: (name: string) => Promise<void> }) {
  const [name, setName] = useState(category.name);
  const [busy, setBusy] = useState(false);
  let slug = '';
  try {
    slug = categoryNameAndSlug(name).slug;
  } catch {
    // The hint says what is wrong; the button stays off.
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    await onSave(name);
    setBusy(false);
  }

  return (
    <Dialog open onClose={busy ? () => undefined : onCancel} title="Rename category" description={`The old address /blog/category/${category.slug} will lead to the new one.`}>
      <form onSubmit={(event) => void submit(event)}>
        <Field label="Name" hint={slug ? `New address: /blog/category/${slug}` : undefined} error={slug ? undefined : TAXONOMY_MESSAGES.categoryNameInvalid}>
          {(props) => <Input {...props} value={name} maxLength={80} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <DialogButtons busy={busy} label="Save" busyLabel="Saving..." onCancel={onCancel} disabled={!slug || name.trim() === category.name} />
      </form>
    </Dialog>
  );
}

function MergeCategoryDialog({
  category,
  targets,
  onCancel,
  onMerge,
}: {
  category: TaxonomyCategory;
  targets: TaxonomyCategory[];
  onCancel: () => void;
  onMerge: (target: TaxonomyCategory) => Promise<void>;
}) {
  const [targetId, setTargetId] = useState(targets[0]?.id ?? '');
  const [busy, setBusy] = useState(false);
  const target = targets.find((other) => other.id === targetId);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!target) return;
    setBusy(true);
    await onMerge(target);
    setBusy(false);
  }

  return (
    <Dialog
      open
      onClose={busy ? () => undefined : onCancel}
      title={`Merge "${category.name}"`}
      description={`${postsMoveTo(category.post_count, 'the category you choose') ?? 'It has no posts'}; its address will lead there, and "${category.name}" is deleted.`}
    >
      <form onSubmit={(event) => void submit(event)}>
        <Field label="Merge into">
          {(props) => (
            <Select
              {...props}
              className="w-full"
              value={targetId}
              onChange={(event) => setTargetId(event.target.value)}
              options={targets.map((other) => ({ value: other.id, label: `${other.name} (${other.post_count})` }))}
            />
          )}
        </Field>
        <DialogButtons busy={busy} label="Merge" busyLabel="Merging..." onCancel={onCancel} disabled={!target} />
      </form>
    </Dialog>
  );
}

function DeleteCategoryDialog({
  category,
  fallbackName,
  onCancel,
  onDelete,
}: {
  category: TaxonomyCategory;
  fallbackName: string;
  onCancel: () => void;
  onDelete: () => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <ConfirmDialog
      open
      title="Delete category"
      description={`Delete "${category.name}"? ${postsMoveTo(category.post_count, `"${fallbackName}"`) ?? 'It has no posts'}.`}
      confirmLabel="Delete"
      busyLabel="Deleting..."
      busy={busy}
      destructive
      onConfirm={() => {
        setBusy(true);
        void onDelete().finally(() => setBusy(false));
      }}
      onCancel={onCancel}
    />
  );
}

function RenameTagDialog({
  tag,
  tags,
  onCancel,
  onSave,
}: {
  tag: TaxonomyTag;
  tags: TaxonomyTag[];
  onCancel: () => void;
  onSave: (name: string, merging: TaxonomyTag | undefined) => Promise<void>;
}) {
  const [name, setName] = useState(tag.name);
  const [busy, setBusy] = useState(false);
  const wanted = name.trim();
  const merging = tags.find((other) => other.id !== tag.id && other.name.toLowerCase() === wanted.toLowerCase());
  const invalid = wanted.length < 1 || wanted.length > 50;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    await onSave(wanted, merging);
    setBusy(false);
  }

  return (
    <Dialog open onClose={busy ? () => undefined : onCancel} title={`Rename or merge "${tag.name}"`} description={`Changes ${plural(tag.post_count, 'post')}. Type an existing tag's name to merge into it.`}>
      <form onSubmit={(event) => void submit(event)}>
        <Field
          label="New name"
          error={invalid ? TAXONOMY_MESSAGES.tagNameInvalid : undefined}
          hint={merging ? `Merges into "${merging.name}" (${plural(merging.post_count, 'post')}).` : undefined}
        >
          {(props) => <Input {...props} value={name} maxLength={60} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <DialogButtons busy={busy} label={merging ? 'Merge' : 'Rename'} busyLabel="Saving..." onCancel={onCancel} disabled={invalid || wanted === tag.name} />
      </form>
    </Dialog>
  );
}
