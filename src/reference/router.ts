import type { OperationId } from './replies.ts';

export type Route =
  | { readonly kind: 'operation'; readonly operation: OperationId; readonly petId?: string }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'method-not-allowed'; readonly allow: string };

export interface RequestTarget {
  path: string;
  /** Without the `?`; empty when there is no query. */
  search: string;
}

const LIST: Route = Object.freeze({ kind: 'operation', operation: 'listPets' });
const CREATE: Route = Object.freeze({ kind: 'operation', operation: 'createPet' });
const NOT_FOUND: Route = Object.freeze({ kind: 'not-found' });
const COLLECTION_METHODS: Route = Object.freeze({ kind: 'method-not-allowed', allow: 'GET, POST' });
const ITEM_METHODS: Route = Object.freeze({ kind: 'method-not-allowed', allow: 'GET' });

/** Splits a request target; absolute-form targets are reduced to their path, anything else has none. */
export function splitTarget(url: string | undefined): RequestTarget {
  if (url === undefined) return { path: '', search: '' };
  if (url.charCodeAt(0) !== 47 /* / */) {
    try {
      const parsed = new URL(url);
      return { path: parsed.pathname, search: parsed.search.slice(1) };
    } catch {
      return { path: '', search: '' };
    }
  }
  const question = url.indexOf('?');
  return question === -1 ? { path: url, search: '' } : { path: url.slice(0, question), search: url.slice(question + 1) };
}

/** Routes on the raw path: the collection and its items under the base path, nothing else. */
export function createRouter(basePath: string): (method: string | undefined, path: string) => Route {
  const collection = `${basePath}/pets`;
  const itemPrefix = `${collection}/`;
  return (method, path) => {
    if (path === collection) {
      if (method === 'GET') return LIST;
      if (method === 'POST') return CREATE;
      return COLLECTION_METHODS;
    }
    if (path.startsWith(itemPrefix)) {
      const petId = path.slice(itemPrefix.length);
      if (!petId || petId.includes('/')) return NOT_FOUND;
      return method === 'GET' ? { kind: 'operation', operation: 'getPet', petId } : ITEM_METHODS;
    }
    return NOT_FOUND;
  };
}
