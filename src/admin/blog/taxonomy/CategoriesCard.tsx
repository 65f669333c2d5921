import { useState, type FormEvent } from 'react';
import { type TaxonomyCategory } from '../../../lib/back-office/blog-taxonomy';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Card, CardHeader } from '../../components/ui/Card';
import { Field, Input } from '../../components/ui/Input';
import { Skeleton } from '../../components/ui/Skeleton';
import type { BackOfficeAccess } from '../../use-back-office-access';
import { countWords } from '../../../lib/back-office/count-words';
import type { Editing } from './TaxonomyDialogs';

/**
 * The categories with their posts and addresses, a form that adds one, and each one's rename, merge and delete.
 * A category a writing-tool delivery created waits for review, marked "Needs review": Approve offers it to
 * visitors; Rename or Merge into… fix a misspelt one.
 */
export function CategoriesCard({
  access,
  categories,
  onCreate,
  onEdit,
  onApprove,
}: {
  access: BackOfficeAccess;
  categories: TaxonomyCategory[] | null;
  onCreate: (name: string) => Promise<boolean>;
  onEdit: (editing: Editing) => void;
  onApprove: (category: TaxonomyCategory) => void;
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
                  {category.needs_review && (
                    <Badge variant="warning" className="ml-2" data-testid="needs-review">
                      Needs review
                    </Badge>
                  )}
                </p>
                <p className="text-xs break-words text-muted-foreground">
                  /blog/category/{category.slug} · {countWords(category.post_count, 'post')}
                </p>
                {category.needs_review && (
                  <p className="text-xs text-muted-foreground">Created by ZimmWriter from a name no category matched. Visitors don't see it until it is approved.</p>
                )}
              </div>
              {access.canEdit && (
                <div className="flex shrink-0 flex-wrap gap-1">
                  {category.needs_review && (
                    <Button size="sm" onClick={() => onApprove(category)}>
                      Approve<span className="sr-only"> {category.name}</span>
                    </Button>
                  )}
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
