import type { Judgment } from '../harness/meta.ts';
import type { RecordedEntry } from './rejudge-har.ts';

/** The rules every exchange of one operation is judged by; `past4xx`: its 4xx answers are passed over. */
interface Covered {
  rules: readonly string[];
  /**
   * A 4xx to a valid NewPet may be a liberty the interface leaves (categories restricted, names bounded):
   * the test learns from it and judges that case no further, so only the other answers are held to `rules`.
   */
  past4xx?: true;
}

/**
 * The judgments a passed test of these requirements makes on every exchange it sends of an operation:
 * their tests judge each generated case the same way, so the rules are known from the log alone. A
 * forger who edits a failed test into a pass and drops the judgments that fail leaves an exchange that
 * one of these does not name, and rejudge refuses the test. `status` is a status judgment (ctx.expectStatus);
 * the rest are rule names. Keyed by requirement: every test of the requirement judges so.
 */
export const JUDGED_ON_EVERY_EXCHANGE: Readonly<Record<string, Readonly<Record<string, Covered>>>> = {
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
};

/** The name a judgment is covered under: `status` for a status judgment, the rule's otherwise. */
function judgedBy(judgment: Judgment): string {
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
): string | undefined {
  const expected = JUDGED_ON_EVERY_EXCHANGE[requirementId];
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
    if (!entry || entry.transportError || entry.raw || entry.status === 429 || entry.operationId === undefined) continue;
    const covered = expected[entry.operationId];
    if (!covered || (covered.past4xx && entry.status >= 400 && entry.status < 500)) continue;
    const missing = covered.rules.find((rule) => !named.get(rule)?.has(seq));
    if (missing !== undefined) {
      const answers = covered.past4xx ? ' answered other than 4xx' : '';
      return `#${seq} (${entry.operationId}, ${entry.status}) is judged by no ${missing}, where a passed ${requirementId} judges every ${entry.operationId}${answers} by ${covered.rules.join(' and ')}`;
    }
  }
  return undefined;
}
