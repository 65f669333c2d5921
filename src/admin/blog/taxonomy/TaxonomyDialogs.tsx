import { useState, type FormEvent } from 'react';
import { categoryNameAndSlug, TAXONOMY_MESSAGES, type TaxonomyCategory, type TaxonomyTag } from '../../../lib/back-office/blog-taxonomy';
import { Button } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { Dialog } from '../../components/ui/Dialog';
import { Field, Input } from '../../components/ui/Input';
import { Select } from '../../components/ui/Select';
import { countWords } from '../../../lib/back-office/count-words';
import { postsMoveTo } from './words';

/** Which dialog is open, for what. */
export type Editing =
  | { kind: 'rename'; category: TaxonomyCategory }
  | { kind: 'merge'; category: TaxonomyCategory }
  | { kind: 'delete'; category: TaxonomyCategory }
  | { kind: 'tag'; tag: TaxonomyTag };

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

/** Renames a category (its old address keeps leading to it). */
export function RenameCategoryDialog({ category, onCancel, onSave }: { category: TaxonomyCategory; onCancel: () => void; onSave: (name: string) => Promise<void> }) {
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

/** Merges a category into another: its posts move there and it is deleted. */
export function MergeCategoryDialog({
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

/** Deletes a category after a confirmation; its posts move to the default category. */
export function DeleteCategoryDialog({
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

/** Renames a tag, or merges it into an existing tag typed by name. */
export function RenameTagDialog({
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
    <Dialog open onClose={busy ? () => undefined : onCancel} title={`Rename or merge "${tag.name}"`} description={`Changes ${countWords(tag.post_count, 'post')}. Type an existing tag's name to merge into it.`}>
      <form onSubmit={(event) => void submit(event)}>
        <Field
          label="New name"
          error={invalid ? TAXONOMY_MESSAGES.tagNameInvalid : undefined}
          hint={merging ? `Merges into "${merging.name}" (${countWords(merging.post_count, 'post')}).` : undefined}
        >
          {(props) => <Input {...props} value={name} maxLength={60} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <DialogButtons busy={busy} label={merging ? 'Merge' : 'Rename'} busyLabel="Saving..." onCancel={onCancel} disabled={invalid || wanted === tag.name} />
      </form>
    </Dialog>
  );
}
