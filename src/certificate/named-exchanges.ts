import { introducedPetId, requestedPetId } from '../checks/judgment-rules.ts';
import type { Judgment } from '../report/test-meta.ts';
import { readJson } from '../text/json.ts';
import type { RecordedEntry } from './rejudge-har.ts';

/**
 * Requirements whose passed tests name every exchange they send in a judgment: each case a test sends
 * is judged (a status, a rule, a check). A forger who edits a failed test into a pass and drops its one
 * failing judgment among several of one kind (the one odd body of STA-008's that got a 500) leaves that
 * case's exchange named by nothing, and rejudge refuses the test. Passed over: an exchange with no
 * answer, a 429 the client waited out and sent again, a summarised one (a certified log has none), and
 * one that introduced the animal a judgment reads (an `idFrom` or `sentFrom`, or the pet a judged getPet
 * asked for: a pet set up for the cases). Taken from the passes of 269 runs and checked on remote runs
 * against a crowded store (docs/how-to/certification.md); a requirement some of whose tests leave a request
 * unjudged by design (a keep-alive test's first request, a list read before the case, CON-003's create
 * on a store whose lists are full) is absent.
 */
export const EVERY_EXCHANGE_NAMED: readonly string[] = [
  'AUTH-003',
  'AUTH-004',
  'AUTH-005',
  'AUTH-006',
  'AUTH-007',
  'AUTH-008',
  'AUTH-009',
  'AUTH-010',
  'CON-001',
  'CON-002',
  'CON-004',
  'DEP-001',
  'DEP-006',
  'HTTP-001',
  'HTTP-002',
  'INT-002',
  'INT-003',
  'INT-005',
  'INT-006',
  'RATE-007',
  'SCH-001',
  'SCH-002',
  'SCH-004',
  'SCH-007',
  'SCH-008',
  'STA-001',
  'STA-002',
  'STA-004',
  'STA-005',
  'STA-006',
  'STA-007',
  'STA-008',
  'STA-010',
  'STA-011',
  'STA-013',
  'STA-014',
  'STA-016',
  'STA-017',
  'STA-018',
  'VER-001',
];

/** The exchanges a test's judgments name, and those they read a value from (idFrom, countFrom, sentFrom). */
function namedBy(judgments: readonly Judgment[]): Set<number> {
  const named = new Set<number>();
  for (const judgment of judgments) {
    if (judgment.kind === 'status') {
      named.add(judgment.exchange);
      continue;
    }
    for (const seq of judgment.exchanges) named.add(seq);
    if (judgment.kind !== 'rule') continue;
    const { idFrom, countFrom, sentFrom } = judgment.params;
    if (typeof idFrom === 'number') named.add(idFrom);
    if (typeof countFrom === 'number') named.add(countFrom);
    if (Array.isArray(sentFrom)) for (const seq of sentFrom) if (typeof seq === 'number') named.add(seq);
  }
  return named;
}

/** The id of the animal an exchange introduced (see introducedPetId), its recorded body parsed. */
function introducedId(entry: RecordedEntry): bigint | undefined {
  const reading = entry.text === '' ? undefined : readJson(entry.text);
  return reading?.ok ? introducedPetId({ status: entry.status, body: reading.value }) : undefined;
}

/**
 * The first exchange a passed test sent that no judgment names (see EVERY_EXCHANGE_NAMED), said for the
 * report; undefined when each is named or passed over.
 */
export function unnamedExchange(
  requirementId: string,
  sent: readonly number[],
  judgments: readonly Judgment[],
  bySeq: ReadonlyMap<number, RecordedEntry>,
  everyExchangeNamed: readonly string[] = EVERY_EXCHANGE_NAMED,
): string | undefined {
  if (!everyExchangeNamed.includes(requirementId)) return undefined;
  const named = namedBy(judgments);
  const asked = new Set<bigint>();
  for (const seq of named) {
    const entry = bySeq.get(seq);
    const id = entry ? requestedPetId(entry) : undefined;
    if (id !== undefined) asked.add(id);
  }
  for (const seq of sent) {
    if (named.has(seq)) continue;
    const entry = bySeq.get(seq);
    // A summarised entry (a report outside --certify) holds no body to tell a set-up pet by.
    if (!entry || entry.transportError || entry.status === 429 || entry.summarised) continue;
    const id = introducedId(entry);
    if (id !== undefined && asked.has(id)) continue;
    const what = entry.raw ? 'the framing probe' : (entry.operationId ?? entry.method);
    return `#${seq} (${what}, ${entry.status}) is named by no judgment, where a passed ${requirementId} test judges every exchange it sends`;
  }
  return undefined;
}
