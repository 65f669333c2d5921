import { useState } from 'react';
import { approvalMessage, approveCategory, createCategory, deleteCategory, listCategories, listTags, mergeCategories, renameCategory, renameTag, TaxonomyError, TAXONOMY_MESSAGES } from '../../lib/back-office/blog-taxonomy';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { toast } from '../../stores/toast';
import { ButtonLink } from '../components/ui/Button';
import { ErrorState } from '../components/ui/EmptyState';
import BackOfficeShell from '../BackOfficeShell';
import type { BackOfficeAccess } from '../use-back-office-access';
import { useLoad } from '../use-load';
import { CategoriesCard } from './taxonomy/CategoriesCard';
import { TagsCard } from './taxonomy/TagsCard';
import { DeleteCategoryDialog, type Editing, MergeCategoryDialog, RenameCategoryDialog, RenameTagDialog } from './taxonomy/TaxonomyDialogs';

/** /admin/blog/categories: the organization's categories and tags (client-only island). */
export default function TaxonomyApp() {
  return <BackOfficeShell title="Categories & Tags">{(access) => <Taxonomy access={access} />}</BackOfficeShell>;
}

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
            onApprove={(category) =>
              void change(async () => {
                await approveCategory(supabaseBrowser(), category.id);
                return approvalMessage(category);
              })
            }
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
