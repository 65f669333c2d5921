import { type TaxonomyTag } from '../../../lib/back-office/blog-taxonomy';
import { Button } from '../../components/ui/Button';
import { Card, CardHeader } from '../../components/ui/Card';
import { EmptyState } from '../../components/ui/EmptyState';
import { Skeleton } from '../../components/ui/Skeleton';
import type { BackOfficeAccess } from '../../use-back-office-access';
import { countWords } from '../../../lib/back-office/count-words';

/** The tags with their posts; each can be renamed or merged into another. */
export function TagsCard({ access, tags, onEdit }: { access: BackOfficeAccess; tags: TaxonomyTag[] | null; onEdit: (tag: TaxonomyTag) => void }) {
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
                <span className="ml-2 text-xs text-muted-foreground">{countWords(tag.post_count, 'post')}</span>
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
