import type { ApiResponse, TargetClient } from '../../src/client/index.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import { stringifyJson } from '../../src/text/json.ts';
import type { RawBodyCase } from './examples-bodies.ts';

/** A read request with an odd query or path, named for the report. */
export interface OddRead {
  label: string;
  send(client: TargetClient): Promise<ApiResponse>;
}

const NESTING_DEPTH = 512;
const LONG_NAME_BYTES = 100 * 1024;

/**
 * STA-008: bodies a robust server refuses (or, where the interface is silent, accepts) without a 5xx.
 * Each stays a plausible NewPet apart from its one oddity, so the server's validation is what is tested.
 * Invalid UTF-8 bytes cannot be sent: the client's body is a string, which undici encodes as UTF-8, so
 * an unpaired surrogate written as a JSON escape stands in for them.
 */
export function oddCreateBodies(ctx: ConformanceContext): RawBodyCase[] {
  const name = ctx.petName('odd');
  const categoryId = ctx.categoryId().toString();
  const withName = (rawName: string) => `{"name":${rawName},"categoryId":${categoryId}}`;
  const withCategory = (rawCategory: string) => `{"name":${JSON.stringify(name)},"categoryId":${rawCategory}}`;
  return [
    // Length bounds of name are not shown: 400, 413 and 201 are all acceptable answers.
    { label: 'a 100 KB name', rawBody: stringifyJson({ name: `${name} ${'x'.repeat(LONG_NAME_BYTES)}`, categoryId: ctx.categoryId() }) },
    { label: `a name nested ${NESTING_DEPTH} arrays deep`, rawBody: withName(`${'['.repeat(NESTING_DEPTH)}${']'.repeat(NESTING_DEPTH)}`) },
    { label: 'a name holding an unpaired UTF-16 surrogate (\\ud800)', rawBody: withName(`"${name} \\ud800"`) },
    { label: 'a name holding a NUL escape (\\u0000)', rawBody: withName(`"${name} \\u0000"`) },
    { label: 'categoryId 1e400 (beyond any float)', rawBody: withCategory('1e400') },
    { label: 'categoryId with 400 digits', rawBody: withCategory('9'.repeat(400)) },
    { label: 'categoryId -1e-400 (a float that underflows)', rawBody: withCategory('-1e-400') },
    { label: 'the same key twice', rawBody: `{"name":${JSON.stringify(name)},"categoryId":${categoryId},"categoryId":"x"}` },
  ];
}

/** STA-008: odd queries and paths for the read operations; none of them is a valid request. */
export function oddReadRequests(): OddRead[] {
  return [
    { label: 'listPets with limit of 30 digits', send: (c) => c.listPets({ limit: '9'.repeat(30) }) },
    { label: 'listPets with limit=1e3', send: (c) => c.listPets({ limit: '1e3' }) },
    { label: 'listPets with a 1,000-character status', send: (c) => c.listPets({ status: 's'.repeat(1000) }) },
    { label: 'listPets with limit given twice', send: (c) => c.listPets(undefined, { query: 'limit=1&limit=abc' }) },
    { label: 'listPets with status given twice', send: (c) => c.listPets(undefined, { query: 'status=available&status=available' }) },
    { label: 'getPet with a 400-digit petId', send: (c) => c.getPet('9'.repeat(400)) },
    { label: 'getPet with a NUL byte as petId', send: (c) => c.getPet('\u0000') },
    { label: 'getPet with petId "1e3"', send: (c) => c.getPet('1e3') },
  ];
}
