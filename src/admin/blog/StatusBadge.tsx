/** Badge colours per status (spec: published green, draft yellow, scheduled blue, other grey). */
const STATUS_STYLES: Record<string, string> = {
  published: 'bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-100',
  draft: 'bg-yellow-100 text-yellow-900 dark:bg-yellow-900 dark:text-yellow-100',
  scheduled: 'bg-blue-100 text-blue-900 dark:bg-blue-900 dark:text-blue-100',
};
const OTHER_STYLE = 'bg-gray-100 text-gray-900 dark:bg-gray-800 dark:text-gray-100';

/** A post's status as a coloured badge. */
export default function StatusBadge({ status }: { status: string }) {
  return (
    <span data-testid="post-status" className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[status] ?? OTHER_STYLE}`}>
      {status}
    </span>
  );
}
