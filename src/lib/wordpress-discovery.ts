/**
 * Where this site's WordPress-compatible APIs are, as WordPress announces them: the REST API's root and the
 * `Link` header every page and every API answer carries, and the XML-RPC API's RSD document, which every page
 * names in `<link rel="EditURI">`. Shared by the build (the pages) and the API functions.
 */

/** The API's root on a site (`https://www.example.com/wp-json/`). */
export function apiRoot(siteAddress: string): string {
  return `${siteAddress}/wp-json/`;
}

/** `<https://www.example.com/wp-json/>; rel="https://api.w.org/"`. */
export function discoveryLink(siteAddress: string): string {
  return `<${apiRoot(siteAddress)}>; rel="https://api.w.org/"`;
}

/** The RSD document that says where the XML-RPC API is (`https://www.example.com/xmlrpc.php?rsd`). */
export function rsdAddress(siteAddress: string): string {
  return `${siteAddress}/xmlrpc.php?rsd`;
}
