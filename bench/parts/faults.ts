import type { Row } from './common.ts';
import { type FaultSetName, faultsOfSet } from '../../src/reference/index.ts';
import { inParallel, runCli } from '../lib/processes.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { progress } from '../lib/paths.ts';

interface FaultOutcome {
  name: string;
  strictOnly: boolean;
  advisoryOnly: boolean;
  /** An advisory-only fault is caught when its advisories warn (the run itself stays conformant). */
  advisoriesWarned: boolean;
  exitCode: number | null;
  requests: number | undefined;
}

export type FaultProfile = 'quick' | 'standard' | 'thorough';

/**
 * The fault sets, by the tag each fault carries (src/reference/faults/all-faults.ts): the suite's own
 * (existing), the independent one, written from the interface alone by someone who had not read the
 * suites, and the outside one, whose list was committed before it first met the suite. They are counted
 * apart: the last two say how the suite does on faults it was never tuned against.
 */
export const FAULT_SETS = {
  existing: { label: 'faults', faults: faultsOfSet('existing') },
  independent: { label: 'independent faults', faults: faultsOfSet('independent') },
  outside: { label: 'outside faults', faults: faultsOfSet('outside') },
} as const satisfies Record<FaultSetName, { label: string; faults: readonly unknown[] }>;
export type FaultSet = keyof typeof FAULT_SETS;

interface NamedFault {
  readonly name: string;
  /** The requirements the fault breaks; absent for the outside set, whose author had no catalog. */
  readonly detectedBy?: readonly string[];
  readonly strictOnly?: boolean;
  readonly advisoryOnly?: boolean;
}

/**
 * A fault every requirement of which is an advisory can only warn, even with --strict: it is caught when
 * those advisories warn. The independent set does not mark it; the catalog's levels say it. A fault that
 * names no requirement (the outside set) is caught only by a NOT CONFORMANT run.
 */
function isAdvisoryOnly(fault: NamedFault, advisories: ReadonlySet<string>): boolean {
  const ids = fault.detectedBy ?? [];
  return fault.advisoryOnly === true || (ids.length > 0 && ids.every((id) => advisories.has(id)));
}

/**
 * How many named faults each profile catches (exit 1) on the embedded reference, and the requests
 * a run sends. Faults that break only SHOULD requirements (strictOnly) are run with --strict, where they count;
 * those that break only ADVISORY ones count when the advisories warn (the run stays conformant).
 */
export async function benchFaults(
  width = 2,
  profiles: readonly FaultProfile[] = ['quick', 'standard'],
  sets: readonly FaultSet[] = ['existing', 'independent', 'outside'],
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const set of sets) {
    const caughtBy = new Map<FaultProfile, ReadonlySet<string>>();
    for (const profile of profiles) {
      const { row, caught } = await benchProfileFaults(set, profile, width);
      rows.push(row);
      caughtBy.set(profile, caught);
    }
    const quick = caughtBy.get('quick');
    const standard = caughtBy.get('standard');
    if (quick && standard) rows.push(quickBesideStandard(FAULT_SETS[set].label, quick, standard));
  }
  return rows;
}

/**
 * Quick's share of what standard catches, fault by fault: what makes quick worth gating on. A fault
 * quick catches and standard misses (a window's timing) is named apart, not counted in the share.
 */
function quickBesideStandard(label: string, quick: ReadonlySet<string>, standard: ReadonlySet<string>): Row {
  const both = [...standard].filter((name) => quick.has(name));
  const missed = [...standard].filter((name) => !quick.has(name));
  const quickOnly = [...quick].filter((name) => !standard.has(name));
  const share = standard.size === 0 ? 100 : Math.round((1000 * both.length) / standard.size) / 10;
  return {
    measure: `${label}: quick catches of those standard catches`,
    value: `${both.length} / ${standard.size} (${share}%)`,
    notes:
      (missed.length ? `missed by quick: ${missed.join(', ')}` : 'none missed') + (quickOnly.length ? `; caught by quick only: ${quickOnly.join(', ')}` : ''),
  };
}

async function benchProfileFaults(set: FaultSet, profile: FaultProfile, width: number): Promise<{ row: Row; caught: ReadonlySet<string> }> {
  const { label } = FAULT_SETS[set];
  const advisories = new Set(
    loadCatalog()
      .requirements.filter((r) => r.level === 'ADVISORY')
      .map((r) => r.id),
  );
  const advisoryOnly = (fault: NamedFault) => isAdvisoryOnly(fault, advisories);
  const faults = (FAULT_SETS[set].faults as readonly NamedFault[]).map((fault) => ({
    name: fault.name,
    detectedBy: fault.detectedBy ?? [],
    strictOnly: fault.strictOnly === true && !advisoryOnly(fault),
    advisoryOnly: advisoryOnly(fault),
  }));
  let done = 0;
  const outcomes = await inParallel(faults, width, async (fault): Promise<FaultOutcome> => {
    const args = [
      '--profile',
      profile,
      '--seed',
      '20240605',
      '--reference-faults',
      fault.name,
      ...(fault.strictOnly || fault.advisoryOnly ? ['--strict'] : []),
    ];
    const run = await runCli(args, { timeoutMs: 10 * 60_000 });
    done += 1;
    progress(`${label} (${profile}): ${done}/${faults.length} ${fault.name}: exit ${run.exitCode}`);
    const warned = new Set(run.report?.requirements.filter((r) => r.verdict === 'warn').map((r) => r.id));
    const advisoriesWarned = fault.detectedBy.every((id) => warned.has(id));
    return { ...fault, advisoriesWarned, exitCode: run.exitCode, requests: run.report?.traffic.requestCount };
  });
  // An advisory-only fault that a MUST catches as well (exit 1) is caught all the more.
  const isCaught = (o: FaultOutcome) => (o.advisoryOnly ? (o.exitCode === 0 && o.advisoriesWarned) || o.exitCode === 1 : o.exitCode === 1);
  const caught = outcomes.filter(isCaught);
  const missed = outcomes.filter((o) => o.exitCode === 0 && !isCaught(o)).map((o) => o.name);
  const broken = outcomes.filter((o) => o.exitCode !== 0 && o.exitCode !== 1).map((o) => `${o.name}(${o.exitCode})`);
  const strictCaught = caught.filter((o) => o.strictOnly).length;
  const strictTotal = outcomes.filter((o) => o.strictOnly).length;
  const advisoryCaught = caught.filter((o) => o.advisoryOnly).length;
  const advisoryTotal = outcomes.filter((o) => o.advisoryOnly).length;
  const requests = outcomes.map((o) => o.requests).filter((n): n is number => n !== undefined);
  const share = Math.round((100 * caught.length) / outcomes.length);
  const row = {
    measure: `${label} caught by --profile ${profile} (exit 1)`,
    value: `${caught.length} / ${outcomes.length} (${share}%)`,
    notes:
      `MUST faults ${caught.length - strictCaught - advisoryCaught}/${outcomes.length - strictTotal - advisoryTotal}, strictOnly (with --strict) ${strictCaught}/${strictTotal}, ` +
      `advisoryOnly (warned, exit 0 with --strict) ${advisoryCaught}/${advisoryTotal}; ` +
      `requests per run ${Math.min(...requests)}–${Math.max(...requests)} (median ${median(requests)})` +
      (missed.length ? `; missed: ${missed.join(', ')}` : '') +
      (broken.length ? `; incomplete: ${broken.join(', ')}` : ''),
  };
  return { row, caught: new Set(caught.map((o) => o.name)) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
}
