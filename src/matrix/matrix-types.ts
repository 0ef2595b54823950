import type { Level } from '../catalog/catalog.ts';
import type { ConformanceReport, OverallVerdict, RequirementVerdict } from '../report/report-types.ts';

/**
 * The conformance matrix as data: what buildMatrix() returns, what matrix.json holds
 * (spec/matrix.schema.json) and what the HTML, Markdown and badge renderers read.
 */

export const MATRIX_FORMAT = 'animal-store-conformance-matrix' as const;
export const MATRIX_FORMAT_VERSION = 1 as const;

/**
 * How far an input is trusted. verified: a signed bundle whose every check holds with a trusted key.
 * unsigned-bundle: every check holds but nothing is signed (integrity only: anyone can produce one).
 * unsigned-report: a bare conformance.json, nothing checked but its own consistency. not-verified: a
 * check failed; shown only with --include-unverified, never counted, ranked or badged.
 */
export type Trust = 'verified' | 'unsigned-bundle' | 'unsigned-report' | 'not-verified';
export const TRUSTS: readonly Trust[] = ['verified', 'unsigned-bundle', 'unsigned-report', 'not-verified'];

/** One bundle or report, checked: what the matrix is built from (see verify-input.ts). */
export interface MatrixInput {
  /** The path as given on the command line. */
  source: string;
  trust: Trust;
  /** The checks that failed (not-verified), or what an unsigned input leaves unchecked. */
  problems: string[];
  /** The key whose signature verified: sha256 of its SPKI DER, hex. */
  signer?: { fingerprint: string };
  /** As declared by the signer (`--implementation name@version`): a claim, bound by the signature. */
  implementation?: string;
  implementationDigest?: string;
  /** The suite that made the report: its identity (a content digest, or its version when none is recorded). */
  suiteIdentity: string;
  report: ConformanceReport;
  /** The bundle's conformance.html, where every failure's full evidence is. */
  reportHtml?: string;
}

/** What a cell shows. untested: partly or not tested; out-of-scope: the interface does not show it; absent: not in that suite's catalog. */
export type CellStatus = 'pass' | 'fail' | 'warn' | 'deviation' | 'untested' | 'out-of-scope' | 'absent';
export const CELL_STATUSES: readonly CellStatus[] = ['pass', 'fail', 'warn', 'deviation', 'untested', 'out-of-scope', 'absent'];

/** A cell's change since the previous version of the same implementation, as `compare` classifies it. */
export type CellChange = 'newly-failing' | 'fixed' | 'newly-untested' | 'newly-tested' | 'reason-changed' | 'changed';

export type StatusCounts = Record<CellStatus, number>;

/** What changed since the previous version of this implementation (the `compare` of the two reports). */
export interface ColumnHistory {
  /** The previous version's column key. */
  since: string;
  sinceVersion?: string;
  regressed: boolean;
  newlyFailing: string[];
  fixed: string[];
  newlyUntested: string[];
  newlyTested: string[];
  reasonChanged: string[];
  otherChanges: string[];
}

/** One implementation at one version: a column. */
export interface MatrixColumn {
  /** Stable within one matrix: c1, c2, … in the order shown. */
  key: string;
  name: string;
  version?: string;
  /** The name was declared with --implementation (false: made up from the target and the file). */
  declared: boolean;
  implementationDigest?: string;
  source: string;
  target: string;
  embedded: boolean;
  /** A merge of shards signed on trust (--trust-shards): nobody authenticated them, and every output says so. */
  shardsTrusted?: true;
  plan?: string;
  profile: string;
  suiteVersion: string;
  suiteIdentity: string;
  interfaceVersion: string;
  date: string;
  verdict: OverallVerdict;
  verdictLabel: string;
  mustTested: number;
  mustInScope: number;
  trust: Trust;
  problems: string[];
  signer?: { fingerprint: string };
  /** The newest version of its implementation: only these count in "fails in N of M" and the ranking. */
  latest: boolean;
  /** Counted in the per-requirement counts and ranked: the latest version, and not not-verified. */
  counted: boolean;
  counts: StatusCounts;
  /** Failing MUSTs (fail), failing SHOULDs (warn): what the ranking reads. */
  mustFailing: number;
  history?: ColumnHistory;
  /** Relative link to the bundle's own conformance.html. */
  reportLink?: string;
  /** Its badge's file name in badges/ (counted columns only): from the name alone, so a README's link stays valid across versions. */
  badge?: string;
}

/** A failure as the matrix shows it: enough to see it and reproduce it, the rest is in the bundle's report. */
export interface CellEvidence {
  message: string;
  expected?: string;
  actual?: string;
  /** The request the failure was decided on (method and URL) and its status. */
  request?: string;
  status?: number;
  counterexample?: string;
  /** Reproduce with this line (uses $API_KEY). */
  curl?: string;
  /** Further failures of this requirement in that report. */
  more: number;
}

export interface MatrixCell {
  column: string;
  status: CellStatus;
  /** The report's own verdict for the requirement. */
  verdict: RequirementVerdict | 'absent';
  /** Why untested, or why deviating. */
  reason?: string;
  change?: CellChange;
  evidence?: CellEvidence;
}

/** "fails in 2 of 5 implementations": over the counted columns. failing = fail + warn + deviation. */
export interface RowCounts extends StatusCounts {
  failing: number;
  of: number;
}

export interface MatrixRow {
  id: string;
  area: string;
  level: Level;
  text: string;
  cells: MatrixCell[];
  counts: RowCounts;
  /** Failing in some column, counted or not. */
  failingAnywhere: boolean;
}

export interface Matrix {
  format: typeof MATRIX_FORMAT;
  formatVersion: typeof MATRIX_FORMAT_VERSION;
  generatedAt: string;
  /** The interface every input tested. */
  interface: { version: string; sha256: string };
  implementations: MatrixColumn[];
  areas: Array<{ id: string; title: string }>;
  requirements: MatrixRow[];
  /** Counted columns, best first: the one to pick leads. */
  ranking: string[];
  /** Requirements failing in some counted column, most often first. */
  mostFailed: string[];
}

/** A verdict's rank, best first: the order in which implementations are recommended. */
export const VERDICT_RANK: Readonly<Record<OverallVerdict, number>> = { conformant: 0, partial: 1, 'not-conformant': 2, incomplete: 3 };
