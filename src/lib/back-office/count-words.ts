/**
 * A count with its noun in proper English ("1 view", "0 views", "2 views"), the one rule every count the
 * back office and the site show goes through. English plural rules say "one" only for exactly 1; the plural
 * is the singular with an "s" unless another form is given ("1 person", "3 people").
 */
const rules = new Intl.PluralRules('en-US');

/** "1 post", "3 posts", "1,200 views"; `plural` for nouns that do not just take an "s". */
export function countWords(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${rules.select(count) === 'one' ? singular : plural}`;
}
