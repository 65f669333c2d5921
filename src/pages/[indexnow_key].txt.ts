/**
 * /{key}.txt: the organization's IndexNow key, at the key location IndexNow reads on the site's own host
 * (src/lib/server/indexnow.ts names it in every submission). No file while the organization's submissions are off.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getIndexNowKey } from '../lib/site/indexnow-key';
import { getSiteOrganization } from '../lib/site/organizations';

export const getStaticPaths: GetStaticPaths = async () => {
  const key = await getIndexNowKey((await getSiteOrganization()).id);
  return key ? [{ params: { indexnow_key: key } }] : [];
};

export const GET: APIRoute = ({ params }) => new Response(params.indexnow_key, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
