import type { Judgment } from '../report/test-meta.ts';
import type { RecordedEntry } from './rejudge-har.ts';

/** The rules every exchange of one operation is judged by; `past4xx`: its 4xx answers are passed over. */
interface Covered {
  rules: readonly string[];
  /**
   * A 4xx the test accepts and judges no further: a liberty the interface leaves on a valid NewPet
   * (categories restricted, names bounded), or getPet's removal after its sunset. Only the other answers
   * are held to `rules`.
   */
  past4xx?: true;
}

/**
 * The judgments a passed test of these requirements makes on every exchange it sends of an operation:
 * their tests judge each generated case the same way, so the rules are known from the log alone. A
 * forger who edits a failed test into a pass and drops the judgments that fail leaves an exchange that
 * one of these does not name, and rejudge refuses the test. `status` is a status judgment (ctx.expectStatus);
 * the rest are rule names. Keyed by requirement, then by operation, or `framing-probe` for the probe's raw
 * exchanges that record what followed their response: every test of the requirement judges so. Each entry
 * holds on the passes of the reference, every valid variant and every fault's run (docs/how-to/certification.md);
 * a test that judges some answers only (a filter, a `continue`) is not listed.
 */
export type JudgedOnEveryExchange = Readonly<Record<string, Readonly<Record<string, Covered>>>>;

export const JUDGED_ON_EVERY_EXCHANGE: JudgedOnEveryExchange = {
  'SCH-005': { createPet: { rules: ['status', 'pet-echoes-sent'], past4xx: true } },
  'SCH-006': {
    createPet: { rules: ['status', 'pet-echoes-sent'], past4xx: true },
    getPet: { rules: ['status', 'pet-as-answered'] },
  },
  'STA-005': { createPet: { rules: ['status-in'] } },
  'STA-006': { createPet: { rules: ['status-in'] } },
  'STA-007': { createPet: { rules: ['status-in'] } },
  'INT-001': { createPet: { rules: ['status-in'], past4xx: true }, getPet: { rules: ['status', 'pet-is'] } },
  'INT-002': { createPet: { rules: ['status-in'] } },
  'CON-002': { createPet: { rules: ['store-model'] }, getPet: { rules: ['store-model'] }, listPets: { rules: ['store-model'] } },
  'INT-003': { createPet: { rules: ['pet-id-int64', 'pet-ids-distinct'] } },
  'INT-005': { createPet: { rules: ['status-in'] } },
  'LIM-005': { listPets: { rules: ['status', 'list-only-status'] } },
  // The framing probe's raw exchanges that record what followed their response (`framing-probe`, below).
  'HTTP-001': { 'framing-probe': { rules: ['nothing-heard-after'] } },
  // After getPet's x-sunset a removal (404 or 410) is judged by its status alone; before it, a 4xx fails that status judgment.
  'DEP-001': { getPet: { rules: ['status', 'pet-is'], past4xx: true } },
};

/**
 * The judgments every passed test of a requirement records at least once, on any server the interface
 * allows: what its test cannot pass without deciding. A forger who edits a failed example test into a
 * pass and drops the judgment that failed (keeping the others, which hold) leaves the test without one
 * of these, and rejudge refuses it. Names as in JUDGED_ON_EVERY_EXCHANGE (`status`, `check`, or a rule).
 * Derived from the passes of the reference and every valid variant, at each profile, embedded and remote,
 * read-only too (the intersection over them, see docs/how-to/certification.md); a requirement some of whose
 * tests judge by different rules (LIM-007, RATE-002, RATE-010, RATE-011) has no common one and is
 * absent. The verdict tests re-judge every valid variant's and every named fault's run
 * (valid-variants.test.ts, fault-sensitivity.test.ts) and a thorough certified bundle (rejudge.test.ts),
 * so an entry an authentic run does not make fails there.
 */
export type JudgedByEveryPass = Readonly<Record<string, readonly string[]>>;

export const JUDGED_BY_EVERY_PASS: JudgedByEveryPass = {
  'AUTH-001': ['status'],
  'AUTH-002': ['status'],
  'AUTH-003': ['status'],
  'AUTH-004': ['status'],
  'AUTH-005': ['status'],
  'AUTH-006': ['status'],
  'AUTH-007': ['status'],
  'AUTH-008': ['status'],
  'AUTH-009': ['headers-present', 'no-finding'],
  'AUTH-010': ['status'],
  'CON-001': ['status', 'pet-is'],
  'CON-002': ['store-model'],
  'CON-003': ['status', 'list-count-of-id', 'added-pets-listed'],
  'CON-004': ['answered-alike'],
  'DEP-001': ['status'],
  'DEP-002': ['no-finding'],
  'DEP-003': ['deprecation-header'],
  'DEP-004': ['sunset-names-day'],
  'DEP-005': ['deprecation-link'],
  'DEP-006': ['no-finding'],
  'DEP-007': ['no-finding'],
  'ERR-001': ['json-schema'],
  'ERR-002': ['error-status-is-http-status'],
  'ERR-003': ['field-non-empty'],
  'ERR-004': ['no-finding'],
  'ERR-005': ['json-schema'],
  'HTTP-001': ['framing-probe-kept'],
  'HTTP-002': ['answered-400', 'answered-below-500', 'tunnel-refused', 'refused-4xx-or-closed', 'own-answer-first'],
  'INT-001': ['status-in', 'pet-is', 'status'],
  'INT-002': ['status-in'],
  'INT-003': ['pet-id-int64', 'pet-ids-distinct'],
  'INT-004': ['status', 'pet-is', 'pet-is-requested'],
  'INT-005': ['status-in'],
  'INT-006': ['status'],
  'LIM-001': ['status', 'list-length'],
  'LIM-002': ['status', 'list-length'],
  'LIM-003': ['status', 'list-length'],
  'LIM-004': ['status-in'],
  'LIM-005': ['status', 'list-only-status', 'list-length'],
  'LIM-006': ['status', 'list-count-of-id'],
  'LIM-008': ['status', 'list-length'],
  'LIM-009': ['status'],
  'RATE-001': ['headers-present'],
  'RATE-003': ['rate-reset-never-back', 'rate-remaining-falls'],
  'RATE-004': ['rate-none-served-past-zero', 'rate-429-after-zero'],
  'RATE-005': ['headers-present', 'no-finding'],
  'RATE-006': ['rate-header-is', 'retry-after-agrees-reset'],
  'RATE-007': ['status'],
  'RATE-008': ['rate-header-is'],
  'RATE-009': ['no-finding'],
  'RATE-012': ['retry-after-within-reset'],
  'SCH-001': ['status', 'json-schema'],
  'SCH-002': ['status', 'json-schema'],
  'SCH-003': ['status', 'json-schema'],
  'SCH-004': ['media-type'],
  'SCH-005': ['status', 'pet-echoes-sent'],
  'SCH-006': ['status', 'pet-echoes-sent', 'pet-as-answered'],
  'SCH-007': ['status'],
  'SCH-008': ['status', 'json-schema'],
  'STA-001': ['status'],
  'STA-002': ['status'],
  'STA-003': ['status'],
  'STA-004': ['status', 'json-schema'],
  'STA-005': ['status-in'],
  'STA-006': ['status-in'],
  'STA-007': ['status-in'],
  'STA-008': ['status-below'],
  'STA-009': ['status-documented'],
  'STA-010': ['location-names-pet'],
  'STA-011': ['status-in', 'json-schema'],
  'STA-012': ['status'],
  'STA-013': ['status-in', 'json-schema'],
  'STA-014': ['status', 'pet-echoes-sent'],
  'STA-015': ['allow-lists-path-methods'],
  'STA-016': ['status-in', 'pet-is'],
  'STA-017': ['status-in', 'list-length', 'status-below'],
  'STA-018': ['status-in'],
  'VER-001': ['status'],
};

/**
 * Why a passed test's judgments do not make a pass of its requirement, said for the report: it records
 * none (every test of this suite judges what it passes), or none of a kind every pass of its requirement
 * makes (JUDGED_BY_EVERY_PASS). Undefined when they can.
 */
export function missingJudgment(
  requirementId: string,
  judgments: readonly Judgment[],
  judgedByEveryPass: JudgedByEveryPass = JUDGED_BY_EVERY_PASS,
): string | undefined {
  if (judgments.length === 0) return 'it records no judgment, where every test of this suite records what it judged';
  const made = new Set(judgments.map(judgedBy));
  const missing = (judgedByEveryPass[requirementId] ?? []).filter((name) => !made.has(name));
  if (missing.length === 0) return undefined;
  return `it records no ${missing.join(' or ')} judgment, where every passed ${requirementId} test makes one`;
}

/** The name a judgment is covered under: `status` for a status judgment, the rule's otherwise. */
export function judgedBy(judgment: Judgment): string {
  return judgment.kind === 'status' ? 'status' : judgment.kind === 'rule' ? judgment.rule : judgment.kind;
}

/**
 * The first exchange a passed test sent that its requirement's rules do not all name, said for the
 * report; undefined when each is named. An exchange with no answer, and a 429 the client waited out and
 * sent again, are judged by no test, so they are passed over (the request sent again is judged).
 */
export function unjudgedExchange(
  requirementId: string,
  sent: readonly number[],
  judgments: readonly Judgment[],
  bySeq: ReadonlyMap<number, RecordedEntry>,
  judgedOnEveryExchange: JudgedOnEveryExchange = JUDGED_ON_EVERY_EXCHANGE,
): string | undefined {
  const expected = judgedOnEveryExchange[requirementId];
  if (!expected) return undefined;
  const named = new Map<string, Set<number>>();
  for (const judgment of judgments) {
    const by = judgedBy(judgment);
    const set = named.get(by) ?? new Set<number>();
    for (const seq of judgment.kind === 'status' ? [judgment.exchange] : judgment.exchanges) set.add(seq);
    named.set(by, set);
  }
  for (const seq of sent) {
    const entry = bySeq.get(seq);
    if (!entry || entry.transportError || entry.status === 429) continue;
    // The framing probe's exchanges are keyed apart: only those recording what followed the response.
    const operation = entry.raw ? (entry.heardAfter ? 'framing-probe' : undefined) : entry.operationId;
    if (operation === undefined) continue;
    const covered = expected[operation];
    if (!covered || (covered.past4xx && entry.status >= 400 && entry.status < 500)) continue;
    const missing = covered.rules.find((rule) => !named.get(rule)?.has(seq));
    if (missing !== undefined) {
      const answers = covered.past4xx ? ' answered other than 4xx' : '';
      const what = entry.raw ? 'framing probe exchange' : operation;
      return `#${seq} (${entry.raw ? 'the framing probe' : operation}, ${entry.status}) is judged by no ${missing}, where a passed ${requirementId} judges every ${what}${answers} by ${covered.rules.join(' and ')}`;
    }
  }
  return undefined;
}
