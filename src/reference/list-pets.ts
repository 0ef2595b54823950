import type { FaultHooks } from './seams.ts';
import { type ListQuerySettings, interpretListQuery, isProblem, readListQuery } from './list-query.ts';
import { renderArray } from './pet-wire.ts';
import { type ErrorReplyFactory, type Reply, jsonReply } from './replies.ts';
import type { PetStoreView, StoredPet } from './store.ts';

export interface ListPetsDeps {
  store: PetStoreView;
  hooks: FaultHooks;
  errorReply: ErrorReplyFactory;
  query: ListQuerySettings;
  order: 'oldest-first' | 'newest-first';
}

/** GET /pets: the first `limit` pets matching the filter, from the cached JSON of each pet. */
export function createListPets(deps: ListPetsDeps): (search: string) => Reply {
  const { store, hooks, errorReply, order } = deps;
  return (search) => {
    const raw = readListQuery(search);
    let query = interpretListQuery(raw, deps.query);
    // Stryker disable next-line ConditionalExpression: only a fault hook takes this path
    if (hooks.listQuery) query = hooks.listQuery(query, raw);
    const { limit, status } = query;
    // Stryker disable next-line ConditionalExpression: an unreadable or out-of-range limit may be refused (400) or answered with at most 100 animals (LIM-004): the reference refuses
    if (isProblem(limit)) return errorReply(400, 'invalid_query', limit.problem);
    // Stryker disable next-line ConditionalExpression: an unknown or repeated status filter may be refused (400) or answered with an empty list (LIM-007): the reference refuses
    if (isProblem(status)) return errorReply(400, 'invalid_query', status.problem);
    const pets = hooks.listSource ? hooks.listSource(store.all()) : store.all();
    const parts: string[] = [];
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: newest-first is a valid order too (the interface shows none)
    if (order === 'oldest-first') {
      // Stryker disable next-line EqualityOperator: one step past the end reads undefined, which collect() skips
      for (let i = 0; i < pets.length && parts.length < limit; i++) collect(parts, pets[i], status);
      // Stryker disable next-line BlockStatement: only a valid variant takes this path (newest-first)
    } else {
      // Stryker disable next-line ArithmeticOperator,AssignmentOperator,ConditionalExpression,EqualityOperator,LogicalOperator,UnaryOperator,UpdateOperator: only a valid variant takes this path (newest-first)
      for (let i = pets.length - 1; i >= 0 && parts.length < limit; i--) collect(parts, pets[i], status);
    }
    return jsonReply(200, renderArray(parts));
  };
}

/** A module function rather than a closure per request: under tsx every closure is also named at creation. */
function collect(parts: string[], pet: StoredPet | undefined, status: string | undefined): void {
  // Stryker disable next-line ConditionalExpression: every stored index holds a pet
  if (pet && (status === undefined || pet.status === status)) parts.push(pet.json);
}
