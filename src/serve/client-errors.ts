/**
 * An error message as a client may see it: absolute file paths of the server (an agents file, a
 * store, a workspace) are cut to their last part. API paths (`/v1/…`) and URLs stay as they are.
 */
const API_PREFIXES = ['/v1/', '/api/', '/t/', '/ag-ui/', '/.well-known/', '/a2a/', '/threads/', '/runs/', '/assistants/'];
const ABSOLUTE_PATH = /(?<=^|[\s'"`(=[]|:\/\/)(?:[A-Za-z]:)?[\\/](?:[^\s'"`;,()[\]\\/]+[\\/])+([^\s'"`;,()[\]\\/]*)/g;

export function withoutServerPaths(message: string): string {
  return message.replace(ABSOLUTE_PATH, (path, last: string) => (API_PREFIXES.some((p) => path.startsWith(p)) ? path : last || '…'));
}
