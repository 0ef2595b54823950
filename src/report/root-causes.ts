import type { Level } from '../catalog/catalog.ts';
import { operationWithoutAnswer } from '../client/breaker.ts';
import { frontHint, serverSignature } from './front-signature.ts';
import type { ConformanceReport, FailureDetail, RequirementResult, RequirementVerdict } from './report-types.ts';

/**
 * Failures grouped by probable root cause. One defect often fails many requirements (createPet answering
 * 200 fails every test that creates a pet); a reader should see the defect once, with what it explains.
 * The key comes from the evidence only, never from a requirement's text:
 * - status: the judged response's operation and status, where the check expected another status;
 * - schema: the schema violation the observed body shows ("body must have required property 'code'");
 * - check: the always-on check that found it;
 * - mismatch: operation, status and the check's expectation with its numbers and quoted values blanked;
 *   for a test that needed an operation the suite had stopped sending, that operation alone.
 */
export interface RootCause {
  key: string;
  kind: 'status' | 'schema' | 'check' | 'mismatch';
  /** One sentence: "createPet answers 200 where 201 is expected". */
  summary: string;
  operation?: string;
  /** The status observed (kind status). */
  status?: number;
  /** The status (or statuses) the checks expected instead (kind status). */
  expected?: string;
  check?: string;
  /** Requirements whose failures this cause explains (each requirement is in one group), catalog order. */
  requirements: ExplainedRequirement[];
  /** Requirements left untested because a test needed what these requirements' failures broke (named in the skip reason). */
  untested: string[];
  /** The deciding answer lacks the server's signature: probably from something in front, and how to tell (front-signature.ts). */
  front?: string;
}

export interface ExplainedRequirement {
  id: string;
  level: Level;
  verdict: RequirementVerdict;
}

interface Cause {
  key: string;
  kind: RootCause['kind'];
  operation?: string;
  status?: number;
  expected: number[];
  check?: string;
  violation?: string;
  failure: FailureDetail;
}

/** Groups, the one explaining the most failing requirements first (MUST failures count first); singletons too. */
export function rootCauses(report: ConformanceReport): RootCause[] {
  const failing = report.requirements.filter((r) => r.failures.length > 0);
  const causesOf = new Map(failing.map((r) => [r.id, r.failures.map(causeOf)] as const));
  const reach = new Map<string, Set<string>>();
  for (const [id, causes] of causesOf) for (const c of causes) (reach.get(c.key) ?? reach.set(c.key, new Set()).get(c.key)!).add(id);

  const groups = new Map<string, { causes: Cause[]; requirements: RequirementResult[] }>();
  for (const requirement of failing) {
    const causes = causesOf.get(requirement.id)!;
    // The cause that explains the most requirements; the first failure's on a tie.
    const best = causes.reduce((a, b) => (reach.get(b.key)!.size > reach.get(a.key)!.size ? b : a));
    const group = groups.get(best.key) ?? groups.set(best.key, { causes: [], requirements: [] }).get(best.key)!;
    group.requirements.push(requirement);
    group.causes.push(...causes.filter((c) => c.key === best.key));
  }

  const ranked = [...groups.entries()]
    .map(([key, group]) => ({ key, ...group, order: failing.indexOf(group.requirements[0]!) }))
    .sort((a, b) => weight(b.requirements) - weight(a.requirements) || b.requirements.length - a.requirements.length || a.order - b.order);
  const untested = untestedBehind(
    report,
    ranked.map((g) => new Set(g.requirements.map((r) => r.id))),
  );
  const signature = serverSignature(report);
  return ranked.map((group, index) => {
    const cause = describe(group.key, group.causes, group.requirements, untested[index] ?? []);
    const front = frontHint(group.causes[0]?.failure.evidence.at(-1), signature);
    return front ? { ...cause, front } : cause;
  });
}

/** MUST failures count most, then any failure, then warnings. */
function weight(requirements: readonly RequirementResult[]): number {
  return requirements.reduce(
    (sum, r) => sum + (r.verdict === 'fail' && r.level === 'MUST' ? 1_000 : r.verdict === 'fail' || r.verdict === 'deviation' ? 10 : 1),
    0,
  );
}

/** A test that needed an operation the suite had stopped sending (src/client/breaker.ts). */
const OPERATION_BROKEN = 'ERR_OPERATION_BROKEN';

function causeOf(failure: FailureDetail): Cause {
  // One cause, whatever answer the test had before it needed the operation: the exchange it ended on
  // (a createPet 201, a listPets 200) is not what failed.
  if (failure.code === OPERATION_BROKEN) {
    const seen = failure.actual ?? failure.message;
    const operation = operationWithoutAnswer(seen);
    return { key: `broken:${operation ?? blank(seen)}`, kind: 'mismatch', operation, expected: [], failure };
  }
  const exchange = failure.evidence.at(-1);
  const operation = exchange?.operationId;
  const status = exchange?.response?.status;
  const expected = expectedStatuses(failure.expected ?? '');
  if (status !== undefined && expected.length > 0 && !expected.includes(status)) {
    return { key: `status:${operation ?? '?'}:${status}`, kind: 'status', operation, status, expected, failure };
  }
  const violation = schemaViolation(failure.actual ?? '');
  if (violation) return { key: `schema:${violation}`, kind: 'schema', operation, status, expected, violation, failure };
  if (failure.origin === 'finding' && failure.check) return { key: `check:${failure.check}`, kind: 'check', check: failure.check, expected, failure };
  const shape = blank(failure.expected ?? failure.message);
  return { key: `mismatch:${operation ?? '?'}:${status ?? '?'}:${shape}`, kind: 'mismatch', operation, status, expected, failure };
}

const QUOTED = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;
/**
 * An HTTP status the check names: "404 for …" (first), "status 201", "answers 201", "with 201", "one of 201, 400", "(201, 400)",
 * "401 or 404"; not a count ("a name with 400 digits"), a status refused ("answers 401, not 400") nor an id
 * written as a BigInt ("getPet(122n)", the model's counterexample).
 */
const STATUS =
  /(?:^|\bstatus|\banswers?|\bwith|\bone of|\bor|,|\()\s*([1-5]\d\d)(?![\w.])(?!\s*(?:digits?|characters?|chars|animals?|pets?|items?|bytes?|ms|s|seconds?|requests?|responses?)\b)/g;

/** The statuses a check's expectation names, its quoted values (bodies, names) left out. */
export function expectedStatuses(expected: string): number[] {
  const text = expected.replace(QUOTED, '""');
  return [...new Set([...text.matchAll(STATUS)].map((m) => Number(m[1])))];
}

const DOUBLE_QUOTED = /"(?:[^"\\]|\\.)*"/g;
const VIOLATION = /(?:^|[\s:])((?:body|\/[\w/~-]+)(?:\s+\(root\))?\s+must\b[^;:\n—]*)/;

/**
 * The first schema violation the observed body shows, as the contract words it ("body must have required
 * property 'code'", "/status must be equal to one of the allowed values"); never one quoted from the
 * target's own body (an Error message that says "categoryId must be integer").
 */
export function schemaViolation(actual: string): string | undefined {
  const match = VIOLATION.exec(actual.replace(DOUBLE_QUOTED, '""'));
  // "/0/id" and "/3/id" are one violation: the index is which item of a list, not what is wrong.
  return match?.[1]
    ?.replace(/\s+\(root\)/, '')
    .replace(/\/\d+(?=\/|\s)/g, '/#')
    .trim();
}

/** The expectation's shape: numbers, quoted values and plural endings blanked, so "limit=1: at most 1 animal" matches "limit=2: at most 2 animals". */
function blank(text: string): string {
  return text
    .replace(QUOTED, '"…"')
    .replace(/\d+/g, '#')
    .replace(/\b(\w{3,}?)s\b/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Untested for the run's own scope, not for what a failure broke: --only, a shard, the plan not given, the run cut short. */
const SCOPE_CODES: ReadonlySet<string> = new Set(['not-selected', 'shard', 'no-plan', 'run-problem']);

/** Untested requirements (skipped or partly tested) whose skip reason names a requirement of a group: the first such group gets it. */
function untestedBehind(report: ConformanceReport, groups: ReadonlyArray<ReadonlySet<string>>): string[][] {
  const out = groups.map(() => [] as string[]);
  for (const r of report.requirements) {
    if (r.verdict !== 'skipped' && r.verdict !== 'partial') continue;
    // "not selected (--only HTTP-002)" names a requirement too, but nothing failed to leave it untested.
    if (r.untestedCode !== undefined && SCOPE_CODES.has(r.untestedCode)) continue;
    const reasons = [r.reason ?? '', ...r.tests.map((t) => t.skipReason ?? '')].join(' ');
    const named = new Set(reasons.match(/\b[A-Z]{2,6}-\d{3}\b/g) ?? []);
    named.delete(r.id);
    const at = groups.findIndex((ids) => [...named].some((id) => ids.has(id)));
    if (at >= 0) out[at]!.push(r.id);
  }
  return out;
}

function describe(key: string, causes: readonly Cause[], requirements: readonly RequirementResult[], untested: string[]): RootCause {
  const first = causes[0]!;
  const explained = requirements.map((r) => ({ id: r.id, level: r.level, verdict: r.verdict }));
  const base = { key, kind: first.kind, requirements: explained, untested };
  if (first.kind === 'status') {
    const expected = expectedLabel(causes);
    return {
      ...base,
      ...(first.operation ? { operation: first.operation } : {}),
      status: first.status!,
      expected,
      summary: `${first.operation ?? 'A request'} answers ${first.status} where ${expected} is expected`,
    };
  }
  const expectedText = first.failure.expected ?? first.failure.message;
  const actual = first.failure.actual ? withoutSubject(first.failure.actual, expectedText) : undefined;
  const seen = `expected ${clip(expectedText)}${actual ? `, got ${clip(actual)}` : ''}`;
  if (first.kind === 'schema') {
    const where = [...new Set(causes.map((c) => (c.operation ? `${c.operation}${c.status !== undefined ? ` ${c.status}` : ''}` : undefined)).filter(Boolean))];
    return { ...base, summary: `Response bodies break the schema: ${first.violation}${where.length > 0 ? ` (${where.join(', ')})` : ''}` };
  }
  if (first.kind === 'check') return { ...base, check: first.check!, summary: `The always-on check ${first.check}: ${seen}` };
  const where = first.operation ? `${first.operation}${first.status !== undefined ? ` (${first.status})` : ''}: ` : '';
  return {
    ...base,
    ...(first.operation ? { operation: first.operation } : {}),
    ...(first.status !== undefined ? { status: first.status } : {}),
    summary: `${where}${seen}`,
  };
}

/** The expected status most checks of the group named: a single one if any check named one, else the most common list. */
function expectedLabel(causes: readonly Cause[]): string {
  const counts = new Map<string, number>();
  const single = causes.some((c) => c.expected.length === 1);
  for (const c of causes) {
    if (single && c.expected.length !== 1) continue;
    const label = c.expected.length === 1 ? String(c.expected[0]) : `one of ${c.expected.join(', ')}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

/**
 * What was seen, without the subject it shares with the expectation: a judgment words both as
 * "getPet 110, just created by …: what", and the one-line cause says that subject once.
 */
function withoutSubject(actual: string, expected: string): string {
  let common = 0;
  while (common < actual.length && actual[common] === expected[common]) common += 1;
  const end = actual.lastIndexOf(': ', common - 2);
  return end > 0 && end + 2 <= common ? actual.slice(end + 2) : actual;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}
