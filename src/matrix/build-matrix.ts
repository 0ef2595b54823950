import { posix, relative, sep } from 'node:path';
import { HarnessError } from '../errors.ts';
import type { RequirementResult } from '../report/report-types.ts';
import { publicTargetUrl } from '../report/run-info.ts';
import { cellOf, clip, statusOf, zeroCounts } from './cells.ts';
import { columnHistories } from './history.ts';
import {
  MATRIX_FORMAT,
  MATRIX_FORMAT_VERSION,
  type Matrix,
  type MatrixColumn,
  type MatrixInput,
  type MatrixRow,
  TRUSTS,
  VERDICT_RANK,
} from './matrix-types.ts';
import { badgeFileName, implementationKey, publisherOf } from './labels.ts';

export { statusOf } from './cells.ts';

export interface BuildOptions {
  /** ISO 8601; the caller's clock, so the same inputs give the same matrix. */
  generatedAt: string;
  /** Where matrix.html is written: links to each bundle's conformance.html are relative to it. */
  outDir?: string;
}

/**
 * The matrix from checked inputs: one column per input, one row per requirement, each cell the input's
 * own verdict for it. Pure: reads nothing but its arguments. Inputs that tested different interface
 * descriptions do not compare, and two inputs claiming the same implementation and version are refused.
 */
export function buildMatrix(inputs: readonly MatrixInput[], options: BuildOptions): Matrix {
  if (inputs.length === 0) throw new HarnessError('ERR_CONFIG', 'matrix: no bundle or report given');
  const first = inputs[0] as MatrixInput;
  for (const input of inputs) {
    if (input.report.run.specSha256 !== first.report.run.specSha256)
      throw new HarnessError(
        'ERR_CONFIG',
        `matrix: ${input.source} tested another interface description (${input.report.run.specVersion}, sha256 ${input.report.run.specSha256.slice(0, 12)}…) than ${first.source} (${first.report.run.specVersion}, sha256 ${first.report.run.specSha256.slice(0, 12)}…): their verdicts do not compare`,
      );
  }
  const identities = inputs.map(identityOf);
  const seen = new Map<string, string>();
  identities.forEach((id, i) => {
    if (id.version === undefined) return;
    const label = `${id.name}@${id.version}${publisherWords(inputs[i] as MatrixInput)}`;
    const other = seen.get(label);
    if (other && inputs[i]?.trust !== 'not-verified')
      throw new HarnessError('ERR_CONFIG', `matrix: ${other} and ${inputs[i]?.source} both claim to be ${label}; give one of them`);
    if (inputs[i]?.trust !== 'not-verified') seen.set(label, inputs[i]?.source ?? '');
  });

  const draft = inputs.map((input, i) => draftColumn(input, identities[i] as Identity, options.outDir));
  const ordered = orderColumns(draft);
  ordered.forEach((entry, i) => (entry.column.key = `c${i + 1}`));
  const histories = columnHistories(ordered.map((e) => ({ column: e.column, report: e.input.report })));

  const catalog = requirementsOf(ordered.map((e) => e.input));
  const requirements: MatrixRow[] = catalog.map((req) => {
    const cells = ordered.map(({ column, input }) => {
      const result = input.report.requirements.find((r) => r.id === req.id);
      const cell = cellOf(column.key, result);
      const change = histories.changes.get(column.key)?.get(req.id);
      return change ? { ...cell, change } : cell;
    });
    const counted = new Set(ordered.filter((e) => e.column.counted).map((e) => e.column.key));
    const counts = { ...zeroCounts(), failing: 0, of: counted.size };
    for (const cell of cells.filter((c) => counted.has(c.column))) counts[cell.status] += 1;
    counts.failing = counts.fail + counts.warn + counts.deviation;
    const failingAnywhere = cells.some((c) => c.status === 'fail' || c.status === 'warn' || c.status === 'deviation');
    return { id: req.id, area: req.area, level: req.level, text: req.text, cells, counts, failingAnywhere };
  });

  const badges = new Set<string>();
  // A name several publishers claim gets each publisher's badge apart, named by its key.
  const publishers = new Map<string, Set<string>>();
  for (const { column } of ordered.filter((e) => e.column.counted))
    publishers.set(column.name, (publishers.get(column.name) ?? new Set()).add(publisherOf(column)));
  const badgeName = (column: MatrixColumn) =>
    (publishers.get(column.name)?.size ?? 0) > 1 ? `${column.name}-${publisherOf(column).slice(0, 12)}` : column.name;
  const implementations = ordered.map(({ column }) => {
    const counts = zeroCounts();
    for (const row of requirements) {
      const cell = row.cells.find((c) => c.column === column.key);
      if (cell) counts[cell.status] += 1;
    }
    const history = histories.columns.get(column.key);
    const badge = column.counted ? badgeFileName(badgeName(column), badges) : undefined;
    if (badge) badges.add(badge);
    return { ...column, counts, mustFailing: mustFailing(requirements, column.key), ...(history ? { history } : {}), ...(badge ? { badge } : {}) };
  });

  const ranking = implementations
    .filter((c) => c.counted)
    .sort(byRecommendation)
    .map((c) => c.key);
  const mostFailed = requirements
    .filter((r) => r.counts.failing > 0)
    .sort((a, b) => b.counts.failing - a.counts.failing || b.counts.fail - a.counts.fail || levelRank(a.level) - levelRank(b.level) || a.id.localeCompare(b.id))
    .map((r) => r.id);

  return {
    format: MATRIX_FORMAT,
    formatVersion: MATRIX_FORMAT_VERSION,
    generatedAt: options.generatedAt,
    interface: { version: first.report.run.specVersion, sha256: first.report.run.specSha256 },
    implementations,
    areas: areasOf(ordered.map((e) => e.input)),
    requirements,
    ranking,
    mostFailed,
  };
}

function publisherWords(input: MatrixInput): string {
  return input.signer ? ` (key ${input.signer.fingerprint.slice(0, 12)}…)` : ` (${input.trust})`;
}

interface Identity {
  name: string;
  version?: string;
  declared: boolean;
}

/** `name@version` as declared (the last @ splits, so `@scope/pkg@1.2` works); else the target and the file. */
export function identityOf(input: MatrixInput): Identity {
  // The embedded reference is the suite's own code: never ranked or badged under a product's name.
  if (input.report.run.target.embedded) return { name: `embedded reference (${input.source})`, declared: false };
  const declared = input.implementation?.trim();
  if (declared) {
    const at = declared.lastIndexOf('@');
    return at > 0 ? { name: declared.slice(0, at), version: declared.slice(at + 1), declared: true } : { name: declared, declared: true };
  }
  const target = input.report.run.target.embedded ? 'embedded reference' : publicTargetUrl(input.report.run.target.url);
  return { name: `${target} (${input.source})`, declared: false };
}

interface Draft {
  input: MatrixInput;
  column: MatrixColumn;
}

function draftColumn(input: MatrixInput, identity: Identity, outDir: string | undefined): Draft {
  const { run, verdict } = input.report;
  const column: MatrixColumn = {
    key: '',
    name: identity.name,
    ...(identity.version !== undefined ? { version: identity.version } : {}),
    declared: identity.declared,
    ...(input.implementationDigest ? { implementationDigest: input.implementationDigest } : {}),
    source: input.source,
    target: publicTargetUrl(run.target.url),
    embedded: run.target.embedded,
    ...(run.merged?.authenticated === false ? { shardsTrusted: true as const } : {}),
    ...(run.plan ? { plan: run.plan } : {}),
    profile: run.profile,
    suiteVersion: run.suiteVersion,
    suiteIdentity: input.suiteIdentity,
    interfaceVersion: run.specVersion,
    date: run.endedAt,
    verdict: verdict.overall,
    verdictLabel: verdict.label,
    mustTested: verdict.scope.mustTested,
    mustInScope: verdict.scope.mustInScope,
    trust: input.trust,
    problems: input.problems.map(clip),
    ...(input.signer ? { signer: { fingerprint: input.signer.fingerprint } } : {}),
    latest: false,
    counted: false,
    counts: zeroCounts(),
    mustFailing: 0,
    ...(input.reportHtml && outDir !== undefined ? { reportLink: linkTo(outDir, input.reportHtml) } : {}),
  };
  return { input, column };
}

/** A relative URL that always starts with ./ or ../, so no directory name can read as a scheme (javascript:). */
function linkTo(outDir: string, file: string): string {
  const path = relative(outDir, file).split(sep).map(encodeURIComponent).join(posix.sep);
  return path.startsWith('..') ? path : `./${path}`;
}

/** Compares dotted versions by their numbers (1.10 after 1.9), then as text. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^v/, '').split(/[.+-]/);
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const [x, y] = [pa[i] ?? '', pb[i] ?? ''];
    const [nx, ny] = [Number(x), Number(y)];
    const diff = x !== '' && y !== '' && Number.isFinite(nx) && Number.isFinite(ny) ? nx - ny : x.localeCompare(y);
    if (diff !== 0) return diff;
  }
  return 0;
}

/**
 * Columns grouped by implementation, its versions oldest first (history reads left to right), the groups
 * in the order of their latest version's recommendation; not-verified inputs last, outside every group.
 */
function orderColumns(drafts: Draft[]): Draft[] {
  const trusted = drafts.filter((d) => d.column.trust !== 'not-verified');
  const groups = new Map<string, Draft[]>();
  // One implementation is one name from one publisher: a second signer claiming the name is another row
  // of history, never a newer version of the first one's.
  for (const d of trusted) groups.set(implementationKey(d.column), [...(groups.get(implementationKey(d.column)) ?? []), d]);
  const sorted = [...groups.values()].map((group) =>
    group.sort((a, b) => compareVersions(a.column.version ?? '', b.column.version ?? '') || Date.parse(a.column.date) - Date.parse(b.column.date)),
  );
  for (const group of sorted) {
    const latest = group[group.length - 1] as Draft;
    latest.column.latest = true;
    latest.column.counted = true;
  }
  const countsOf = (d: Draft) => {
    const c = zeroCounts();
    for (const r of d.input.report.requirements) c[statusOf(r.verdict)] += 1;
    return { ...d.column, counts: c, mustFailing: d.input.report.requirements.filter((r) => r.verdict === 'fail' && r.level === 'MUST').length };
  };
  sorted.sort((a, b) => byRecommendation(countsOf(a[a.length - 1] as Draft), countsOf(b[b.length - 1] as Draft)));
  return [...sorted.flat(), ...drafts.filter((d) => d.column.trust === 'not-verified')];
}

/** Best first: the verdict, then failing MUSTs, then how far it is trusted, then warnings, deviations, MUSTs tested. */
function byRecommendation(a: MatrixColumn, b: MatrixColumn): number {
  return (
    VERDICT_RANK[a.verdict] - VERDICT_RANK[b.verdict] ||
    a.mustFailing - b.mustFailing ||
    a.counts.fail - b.counts.fail ||
    TRUSTS.indexOf(a.trust) - TRUSTS.indexOf(b.trust) ||
    a.counts.warn - b.counts.warn ||
    a.counts.deviation - b.counts.deviation ||
    b.mustTested - a.mustTested ||
    a.name.localeCompare(b.name)
  );
}

function mustFailing(rows: readonly MatrixRow[], key: string): number {
  return rows.filter((r) => r.level === 'MUST' && r.cells.some((c) => c.column === key && c.status === 'fail')).length;
}

const levelRank = (level: string) => ['MUST', 'SHOULD', 'MAY', 'ADVISORY'].indexOf(level);

/** Every requirement any input reports, in catalog order (the first input's, then any others'). */
function requirementsOf(inputs: readonly MatrixInput[]): Array<Pick<RequirementResult, 'id' | 'area' | 'level' | 'text'>> {
  const rows = new Map<string, Pick<RequirementResult, 'id' | 'area' | 'level' | 'text'>>();
  for (const input of inputs)
    for (const r of input.report.requirements) if (!rows.has(r.id)) rows.set(r.id, { id: r.id, area: r.area, level: r.level, text: clip(r.text) });
  const areaOrder = areasOf(inputs).map((a) => a.id);
  return [...rows.values()].sort((a, b) => areaOrder.indexOf(a.area) - areaOrder.indexOf(b.area));
}

function areasOf(inputs: readonly MatrixInput[]): Matrix['areas'] {
  const areas = new Map<string, string>();
  for (const input of inputs) for (const a of input.report.areas) if (!areas.has(a.id)) areas.set(a.id, clip(a.title));
  for (const input of inputs) for (const r of input.report.requirements) if (!areas.has(r.area)) areas.set(r.area, r.area);
  return [...areas].map(([id, title]) => ({ id, title }));
}
