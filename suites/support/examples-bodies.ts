import type { ApiResponse } from '../../src/client/index.ts';
import { formatIssues } from '../../src/checks/response-reading.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import { stringifyJson } from '../../src/text/json.ts';

export const TWO_POW_53_PLUS_1 = 2n ** 53n + 1n;
export const TWO_POW_63 = 2n ** 63n;

/** An invalid request body with the words a failure is reported in: "createPet accepted <label> (<shown>)". */
export interface BodyCase {
  label: string;
  body: unknown;
  /** The offending value as JSON text. */
  shown: string;
}

/** A body sent as raw text, for what JSON.stringify cannot produce (malformed JSON, empty body). */
export interface RawBodyCase {
  label: string;
  rawBody: string;
}

/** The fields of a valid NewPet the invalid cases start from, so each case differs in one named way. */
export interface NewPetBase {
  name: string;
  categoryId: bigint;
}

export function newPetBase(ctx: ConformanceContext, label?: string): NewPetBase {
  return { name: ctx.petName(label), categoryId: ctx.categoryId() };
}

/** The quick profile runs the first `quick` cases (its budget is one Free-plan minute); others run all. */
export function forProfile<T>(ctx: ConformanceContext, cases: readonly T[], quick: number): readonly T[] {
  if (ctx.run.profile !== 'quick' || cases.length <= quick) return cases;
  // The cases left out are untested: the test judges the ones it sends (a failure still counts) but
  // cannot pass its requirement on a sample.
  ctx.observable(false, `the quick profile sends ${quick} of its ${cases.length} cases: --profile standard sends them all`, 'profile');
  return cases.slice(0, quick);
}

function withField(base: NewPetBase, field: string, value: unknown, label: string): BodyCase {
  return { label, body: { ...base, [field]: value }, shown: stringifyJson(value) };
}

/** STA-005: each required field missing, then both. */
export function missingFieldCases(base: NewPetBase): BodyCase[] {
  return [
    { label: 'a body without name', body: { categoryId: base.categoryId }, shown: stringifyJson({ categoryId: base.categoryId }) },
    { label: 'a body without categoryId', body: { name: base.name }, shown: stringifyJson({ name: base.name }) },
    { label: 'a body with neither name nor categoryId', body: { status: 'available' }, shown: '{"status":"available"}' },
  ];
}

/** The cases of wrongValueCases the quick profile sends. */
export const WRONG_VALUE_QUICK = 3;

/** STA-006: one field of an otherwise valid NewPet holds a value of the wrong type or outside PetStatus. */
export function wrongValueCases(base: NewPetBase): BodyCase[] {
  return [
    // First the mistakes lenient servers most often let through (a coercing parser, an unchecked enum, a
    // truncating integer): the quick profile sends these three (WRONG_VALUE_QUICK).
    withField(base, 'categoryId', String(base.categoryId), 'categoryId as numeric string'),
    withField(base, 'status', 'unknown', 'status outside PetStatus'),
    withField(base, 'categoryId', 1.5, 'categoryId as float'),
    withField(base, 'name', 42, 'name as number'),
    withField(base, 'name', [base.name], 'name as array'),
    withField(base, 'name', { first: base.name }, 'name as object'),
    withField(base, 'name', null, 'name as null'),
    withField(base, 'categoryId', true, 'categoryId as boolean'),
    withField(base, 'categoryId', null, 'categoryId as null'),
    // PetStatus values are lower-case; the enum admits no other spelling.
    withField(base, 'status', 'AVAILABLE', 'status in upper case'),
    withField(base, 'status', 123, 'status as number'),
  ];
}

/** STA-013: categoryId literals that are not integers, though a double reads them as one. */
export function roundingFractionCases(base: NewPetBase): RawBodyCase[] {
  const name = JSON.stringify(base.name);
  return ['1.0000000000000001', '1e-400', '0.99999999999999999'].map((literal) => ({
    label: `categoryId ${literal} (a fraction a double rounds to an integer)`,
    rawBody: `{"name":${name},"categoryId":${literal}}`,
  }));
}

/** STA-007: bodies that are not a JSON object at all. */
export function notAnObjectCases(base: NewPetBase): RawBodyCase[] {
  const valid = stringifyJson(base);
  return [
    // Quick sends the first two: the two a handler most often crashes on (a parser's error not caught,
    // and a valid JSON text whose fields are read without a look at its type).
    { label: 'malformed JSON (cut off)', rawBody: valid.slice(0, -3) },
    { label: 'JSON null', rawBody: 'null' },
    { label: 'an empty body', rawBody: '' },
    { label: 'a JSON array', rawBody: `[${valid}]` },
    { label: 'a JSON string', rawBody: JSON.stringify(valid) },
    // JSON text is a value between optional whitespace (RFC 8259 §2): whitespace alone is no JSON at all.
    { label: 'a body of whitespace only', rawBody: ' \r\n\t ' },
  ];
}

/** Why the body is not an Error, or undefined when it is one. */
export function errorBodyProblem(ctx: ConformanceContext, response: ApiResponse): string | undefined {
  if (!response.isJson) return response.text.length === 0 ? 'an empty body' : `a body that is not JSON: ${brief(response.text)}`;
  const issues = ctx.contract.validate('#/components/schemas/Error', response.body);
  return issues.length === 0 ? undefined : formatIssues(issues);
}

/**
 * Asserts a refusal: one of `statuses` (400 unless told) with an Error body. Failures read
 * "createPet accepted categoryId as numeric string ("5") with 201".
 */
export function expectRefused(ctx: ConformanceContext, response: ApiResponse, what: { operation: string; input: string; statuses?: readonly number[] }): void {
  const statuses = what.statuses ?? [400];
  const expected = `${what.operation} refuses ${what.input} with ${statuses.join(' or ')} and an Error body`;
  ctx.judge('status-in', response, { allowed: [...statuses] }, expected);
  ctx.judge('json-schema', response, { schema: 'Error' }, `${expected}: the ${response.status} for ${what.input}`);
}

/** The response's media type is application/json (parameters such as charset allowed). */
export function expectJsonMediaType(ctx: ConformanceContext, response: ApiResponse, what: string): void {
  ctx.judge('media-type', response, { name: 'Content-Type', value: 'application/json' }, what);
}

export function brief(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
