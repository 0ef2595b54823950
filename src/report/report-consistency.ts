import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ownSchemaErrors } from '../contract/own-schema.ts';

export const REPORT_SCHEMA_PATH = fileURLToPath(new URL('../../spec/report.schema.json', import.meta.url));

/** The parts of a report the rules read; everything else is left to the schema. */
interface ReportView {
  run?: { strict?: boolean; requireComplete?: boolean };
  verdict?: { overall?: string; exitCode?: number; knownDeviationsOnly?: boolean; scope?: ScopeView };
  counts?: Record<string, Record<string, number>>;
  requirements?: RequirementView[];
  harnessErrors?: unknown[];
}

interface ScopeView {
  mustInScope?: number;
  mustTested?: number;
  shouldInScope?: number;
  shouldTested?: number;
  untested?: Array<{ id?: string }>;
}

interface RequirementView {
  id?: string;
  level?: string;
  verdict?: string;
  deviationOf?: string;
  tests?: Array<{ state?: string; notRun?: boolean }>;
}

const TESTED = new Set(['pass', 'fail', 'warn', 'deviation']);

/**
 * Every way a report (conformance.json, parsed) contradicts itself, as sentences; empty when it holds
 * together. First spec/report.schema.json (its if/then rules: a conformant run exits 0 and has no
 * harness error nor an untested or failing MUST, an incomplete run exits 2, a pass is made of tests that
 * all ran and passed), then what a schema cannot say: the counts and the scope are those of the
 * requirements listed, and the overall verdict is the one the requirements and harness errors decide.
 * Self-contained (it reads only the schema file), so the merge, the report writer and `verify` all ask it.
 */
export function reportContradictions(report: unknown): string[] {
  const errors = ownSchemaErrors(JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8')) as object, report, { strict: true, formats: true });
  if (errors.length > 0) {
    return errors.map((e) => `schema: ${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  }
  const view = report as ReportView;
  const requirements = view.requirements ?? [];
  const verdict = view.verdict ?? {};
  return [...countContradictions(view, requirements), ...scopeContradictions(view, requirements), ...verdictContradictions(view, requirements, verdict)];
}

function countContradictions(view: ReportView, requirements: readonly RequirementView[]): string[] {
  const out: string[] = [];
  for (const [level, byVerdict] of Object.entries(view.counts ?? {})) {
    for (const [verdict, n] of Object.entries(byVerdict)) {
      const listed = requirements.filter((r) => r.level === level && r.verdict === verdict).length;
      if (listed !== n) out.push(`counts: ${n} ${level} ${verdict}, but ${listed} such requirements are listed`);
    }
  }
  return out;
}

function scopeContradictions(view: ReportView, requirements: readonly RequirementView[]): string[] {
  const scope = view.verdict?.scope ?? {};
  const out: string[] = [];
  const inScope = (level: string) => requirements.filter((r) => r.level === level && r.verdict !== 'not-covered');
  const must = inScope('MUST');
  const mustTested = must.filter((r) => TESTED.has(r.verdict ?? ''));
  if (scope.mustInScope !== must.length) out.push(`scope: ${scope.mustInScope} MUSTs in scope, but ${must.length} are listed in scope`);
  if (scope.mustTested !== mustTested.length) out.push(`scope: ${scope.mustTested} MUSTs tested, but ${mustTested.length} have a tested verdict`);
  const strict = view.run?.strict === true;
  const should = inScope('SHOULD');
  const counted = strict ? [...must, ...should] : must;
  const untested = new Set(counted.filter((r) => !TESTED.has(r.verdict ?? '')).map((r) => r.id));
  const listed = new Set((scope.untested ?? []).map((u) => u.id));
  for (const id of untested) if (!listed.has(id)) out.push(`scope: ${id} is untested but missing from the untested list`);
  for (const id of listed) if (!untested.has(id)) out.push(`scope: ${id} is in the untested list but has a tested verdict (or is out of scope)`);
  if (strict && scope.shouldTested !== should.filter((r) => TESTED.has(r.verdict ?? '')).length)
    out.push('scope: the SHOULDs tested under --strict do not match');
  return out;
}

/** The overall verdict the requirements and harness errors decide (docs/architecture.md, "Verdicts"). */
function verdictContradictions(view: ReportView, requirements: readonly RequirementView[], verdict: NonNullable<ReportView['verdict']>): string[] {
  const out: string[] = [];
  const strict = view.run?.strict === true;
  const decides = (r: RequirementView) => r.level === 'MUST' || (strict && r.level === 'SHOULD');
  const failing = requirements.filter((r) => r.verdict === 'fail');
  const wrongLevel = failing.filter((r) => !decides(r));
  for (const r of wrongLevel) out.push(`${r.id}: a ${r.level} fails only under --strict, otherwise it warns`);
  const declared = requirements.filter((r) => r.verdict === 'deviation' && r.deviationOf === 'fail');
  const problems = (view.harnessErrors ?? []).length;
  const untested = requirements.filter((r) => decides(r) && r.verdict !== 'not-covered' && !TESTED.has(r.verdict ?? ''));
  const anyTested = requirements.some((r) => TESTED.has(r.verdict ?? ''));
  let expected: string;
  if (failing.length > 0 || declared.length > 0) expected = 'not-conformant';
  else if (problems > 0) expected = 'incomplete';
  else if (untested.length > 0) expected = 'partial';
  else expected = 'conformant';
  // A run that judged nothing at all is incomplete even without a harness error (the suites did not run).
  const nothingJudged = expected === 'partial' && !anyTested && verdict.overall === 'incomplete';
  if (verdict.overall !== expected && !nothingJudged) {
    out.push(
      `verdict: ${verdict.overall}, but the requirements and harness errors decide ${expected}${explain(expected, failing, declared, problems, untested)}`,
    );
  }
  if (verdict.knownDeviationsOnly === true && (failing.length > 0 || declared.length === 0)) {
    out.push('verdict: "known deviations only", but a requirement fails outright or none deviates as declared');
  }
  const exit = expectedExit(verdict.overall, view.run?.requireComplete === true, verdict.knownDeviationsOnly === true);
  if (exit !== undefined && !exit.includes(verdict.exitCode ?? -1)) out.push(`verdict: ${verdict.overall} exits ${exit.join(' or ')}, not ${verdict.exitCode}`);
  return out;
}

function explain(expected: string, failing: RequirementView[], declared: RequirementView[], problems: number, untested: RequirementView[]): string {
  if (expected === 'not-conformant') return ` (${[...failing, ...declared].map((r) => r.id).join(', ')} ${failing.length > 0 ? 'fail' : 'deviate'})`;
  if (expected === 'incomplete') return ` (${problems} harness error${problems === 1 ? '' : 's'})`;
  if (expected === 'partial') return ` (${untested.map((r) => r.id).join(', ')} untested)`;
  return '';
}

function expectedExit(overall: string | undefined, requireComplete: boolean, knownDeviationsOnly: boolean): number[] | undefined {
  switch (overall) {
    case 'conformant':
      return [0];
    case 'partial':
      return [requireComplete ? 1 : 0];
    case 'incomplete':
      return [2];
    case 'not-conformant':
      // Known failures of a CI baseline may pass the gate (exit 0); any other failure exits 1.
      return knownDeviationsOnly ? [0, 1] : [1];
    default:
      return undefined;
  }
}
