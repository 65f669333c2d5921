import { useEffect, useState } from 'react';
import Pagination from '../components/blog/Pagination';
import PostGrid from '../components/blog/PostGrid';
import { searchPath, searchQuery } from '../lib/blog-urls';
import { PAGE_SIZE, pageCount } from '../lib/site/pagination';
import type { PostCardData } from '../lib/post-display';

/** Pagefind's browser API, written by `pagefind --site dist` after the build; loaded only when searching. */
const PAGEFIND_URL = '/pagefind/pagefind.js';

/** The parts of Pagefind's API the search uses. */
interface Pagefind {
  search(query: string): Promise<{ results: { data(): Promise<{ url: string; meta: Record<string, string> }> }[] }>;
}

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'done'; query: string; page: number; total: number; posts: PostCardData[] };

/** Loads the index and the cards of one page of results (their data comes from the post pages' metadata). */
async function runSearch(query: string, page: number): Promise<Extract<State, { kind: 'done' }>> {
  const pagefind = (await import(/* @vite-ignore */ PAGEFIND_URL)) as Pagefind;
  const { results } = await pagefind.search(query);
  const onPage = results.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const posts = await Promise.all(onPage.map(async (result) => JSON.parse((await result.data()).meta.card ?? 'null') as PostCardData));
  return { kind: 'done', query, page, total: results.length, posts: posts.filter(Boolean) };
}

/** The search the address asks for: `q` trimmed (never blank: see BlogSearch) and the 1-based `page`. */
async function searchFromAddress(search: string): Promise<State> {
  const query = searchQuery(search);
  const page = Math.max(1, Number.parseInt(new URLSearchParams(search).get('page') ?? '1', 10) || 1);
  document.title = `Search results for "${query}" | ${document.title.split(' | ').pop()}`;
  return runSearch(query, page);
}

function Skeletons() {
  return (
    <ul className="grid gap-6 md:grid-cols-2" aria-hidden="true" data-skeletons>
      {Array.from({ length: PAGE_SIZE }, (_, index) => (
        <li key={index} className="animate-pulse overflow-hidden rounded-2xl border border-border">
          <div className="aspect-video bg-muted" />
          <div className="space-y-3 p-6">
            <div className="h-4 w-1/3 rounded bg-muted" />
            <div className="h-6 w-5/6 rounded bg-muted" />
            <div className="h-4 w-full rounded bg-muted" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * The search results of /blog/search?q=…, hydrated by `client:query` only when the trimmed query is not blank
 * (the page itself says what to do when it is, and loads no React); 6 skeleton cards while the index loads; the error with Try Again (reloads); otherwise the matching posts, 6 per page.
 */
export default function BlogSearch() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    searchFromAddress(location.search).then(setState, (error: Error) => {
      console.error('Blog search failed', error);
      setState({ kind: 'error', message: 'The search index could not be loaded.' });
    });
  }, []);

  return (
    <div aria-busy={state.kind === 'loading'}>
      <h2 className="mb-6 text-2xl font-bold md:text-3xl" data-list-heading>
        {state.kind === 'done' ? `Search results for "${state.query}"` : 'Search results'}
      </h2>
      {state.kind === 'loading' && <Skeletons />}
      {state.kind === 'error' && (
        <div role="alert" className="rounded-2xl border border-border px-6 py-12 text-center">
          <p className="text-xl font-semibold">Error</p>
          <p className="mt-2 text-muted-foreground">{state.message}</p>
          <button type="button" onClick={() => location.reload()} className="mt-6 rounded-full bg-primary px-6 py-2 font-semibold text-primary-foreground hover:opacity-90">
            Try Again
          </button>
        </div>
      )}
      {state.kind === 'done' && (
        <>
          <p className="sr-only" role="status">{`${state.total} article${state.total === 1 ? '' : 's'} found`}</p>
          <PostGrid posts={state.posts} />
          <Pagination current={state.page} total={pageCount(state.total)} hrefFor={(page) => `${searchPath(state.query)}&page=${page}`} />
        </>
      )}
    </div>
  );
}
