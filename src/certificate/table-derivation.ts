import type { Judgment } from '../report/test-meta.ts';
import type { ConformanceReport } from '../report/report-types.ts';
import { judgedBy } from './coverage.ts';

/**
 * The certificate tables keyed by requirement, derived from the passes of authentic runs
 * (`npm run certificate:tables`): what every pass of a requirement judges, the statuses its passes
 * allow, how many requests they send, whether they name every exchange they send, and the params their
 * rules state. The checked-in tables are held to what is derived (an entry an authentic pass
 * contradicts would refuse a genuine run), and every requirement a table leaves out is listed with the
 * reason the runs give (table-absences.ts; a fast test holds every tested requirement to one or the other).
 */

/** One passed test as a report gives it. */
export interface PassedTest {
  requirementId: string;
  judgments: readonly Judgment[];
  exchanges: readonly number[];
}

/** What the passes of one requirement give, over every run read. */
export interface DerivedRequirement {
  passes: number;
  /** Judgment names (`status` or a rule's) every pass makes. */
  judgedByEveryPass: string[];
  /** Every status a status judgment or `status-in` of a pass allows. */
  statusesAllowed: number[];
  /** The fewest and most requests a pass sent (whole-catalog runs only). */
  requests?: { min: number; max: number };
  /** Of the passes, the most exchanges one sent that none of its judgments names. */
  mostUnnamed: number;
  /** Each rule's params as stated (sources of values read from the log left out), every value seen. */
  params: Record<string, Record<string, string[]>>;
}

/** Params that name an exchange a rule reads from: the log anchors them, no table needs to. */
const SOURCE_PARAMS = new Set(['idFrom', 'countFrom', 'sentFrom']);

/** The passed tests of a report; `wholeCatalog` says whether its request counts may be compared (no --only). */
export function passesOf(report: ConformanceReport): { passes: PassedTest[]; wholeCatalog: boolean } {
  const passes = report.requirements.flatMap((r) =>
    r.tests.filter((t) => t.state === 'passed').map((t) => ({ requirementId: r.id, judgments: t.judgments ?? [], exchanges: t.exchanges ?? [] })),
  );
  return { passes, wholeCatalog: (report.run.only ?? []).length === 0 };
}

const seqsOf = (j: Judgment) => (j.kind === 'status' ? [j.exchange] : j.exchanges);

/** Folds the passes of many runs into one derivation per requirement. */
export function deriveTables(runs: ReadonlyArray<{ passes: readonly PassedTest[]; wholeCatalog: boolean }>): Map<string, DerivedRequirement> {
  const derived = new Map<string, DerivedRequirement>();
  for (const run of runs) {
    for (const pass of run.passes) {
      const made = [...new Set(pass.judgments.map(judgedBy))];
      const entry = derived.get(pass.requirementId);
      const current: DerivedRequirement = entry ?? { passes: 0, judgedByEveryPass: made, statusesAllowed: [], mostUnnamed: 0, params: {} };
      current.passes += 1;
      current.judgedByEveryPass = current.judgedByEveryPass.filter((name) => made.includes(name));
      const statuses = new Set(current.statusesAllowed);
      for (const j of pass.judgments) {
        if (j.kind === 'status') j.allowed.forEach((s) => statuses.add(s));
        if (j.kind === 'rule' && j.rule === 'status-in' && Array.isArray(j.params.allowed))
          j.params.allowed.forEach((s) => typeof s === 'number' && statuses.add(s));
        if (j.kind !== 'rule') continue;
        const rule = (current.params[j.rule] ??= {});
        for (const [key, value] of Object.entries(j.params ?? {})) {
          if (SOURCE_PARAMS.has(key)) continue;
          const seen = new Set(rule[key] ?? []);
          seen.add(JSON.stringify(value));
          rule[key] = [...seen].sort();
        }
      }
      current.statusesAllowed = [...statuses].sort((a, b) => a - b);
      if (run.wholeCatalog) {
        const sent = pass.exchanges.length;
        current.requests = current.requests
          ? { min: Math.min(current.requests.min, sent), max: Math.max(current.requests.max, sent) }
          : { min: sent, max: sent };
      }
      const named = new Set(pass.judgments.flatMap(seqsOf));
      current.mostUnnamed = Math.max(current.mostUnnamed, pass.exchanges.filter((seq) => !named.has(seq)).length);
      derived.set(pass.requirementId, current);
    }
  }
  return derived;
}

/** The checked-in tables the derivation is held to. */
export interface CheckedInTables {
  judgedByEveryPass: Readonly<Record<string, readonly string[]>>;
  statusesAllowed: Readonly<Record<string, readonly number[]>>;
  requestsOfEveryPass: Readonly<Record<string, number>>;
}

/** Entries of the checked-in tables an authentic pass contradicts: each would refuse a genuine run. */
export function tableContradictions(derived: ReadonlyMap<string, DerivedRequirement>, tables: CheckedInTables): string[] {
  const problems: string[] = [];
  for (const [id, d] of derived) {
    const missing = (tables.judgedByEveryPass[id] ?? []).filter((name) => !d.judgedByEveryPass.includes(name));
    if (missing.length > 0) problems.push(`JUDGED_BY_EVERY_PASS ${id}: a pass makes no ${missing.join(', ')} judgment`);
    const allowed = tables.statusesAllowed[id];
    const beyond = allowed ? d.statusesAllowed.filter((s) => !allowed.includes(s)) : [];
    if (beyond.length > 0) problems.push(`STATUSES_ALLOWED ${id}: a pass allows ${beyond.join(', ')}`);
    const least = tables.requestsOfEveryPass[id];
    if (least !== undefined && d.requests && d.requests.min < least)
      problems.push(`REQUESTS_OF_EVERY_PASS ${id}: a pass sent ${d.requests.min}, below ${least}`);
  }
  return problems;
}
