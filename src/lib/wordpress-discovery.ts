/**
 * Where this site's WordPress-compatible REST API is, as WordPress announces it: the API's root, and the `Link`
 * header every page and every API answer carries. Shared by the build (the pages' header) and the API function.
 */

/** The API's root on a site (`https://www.example.com/wp-json/`). */
export function apiRoot(siteAddress: string): string {
  return `${siteAddress}/wp-json/`;
}

/** `<https://www.example.com/wp-json/>; rel="https://api.w.org/"`. */
export function discoveryLink(siteAddress: string): string {
  return `<${apiRoot(siteAddress)}>; rel="https://api.w.org/"`;
}
