import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { type ShardAuth, shardAuth } from './shard-auth.ts';
import type { ConformanceReport, Deviation, HarnessProblem, OverallVerdict, TestOutcome } from './report-types.ts';
import type { RunInfo } from './run-info.ts';

/**
 * What a shard ran, written next to its blob (`blob-i-n.json` → `blob-i-n.run.json`), so that a merge
 * takes target, profile, seed and options from the shards themselves, and refuses shards that did not
 * run the same thing.
 */
export interface ShardRecord {
  format: typeof SHARD_RECORD_FORMAT;
  /** The shard's run info, already sanitized (no key, no credentials in the URL). */
  run: RunInfo;
  /** The expected deviations the shard judged with. */
  deviations: Deviation[];
  /** The shard's own verdict: a merge of an incomplete shard is incomplete. */
  verdict: { overall: OverallVerdict; exitCode: 0 | 1 | 2 };
  /** What kept the shard's run from completing (an interruption, its deadline, a harness error outside any test). */
  problems: HarnessProblem[];
  /** Each test as the shard ended it; `not-run`: the shard ended before it ran. With the requests it sent and the judgments it observed. */
  tests: Array<{ id: string; state: TestOutcome['state'] | 'not-run'; requests: number; observed: number }>;
  /** Every request the shard sent: the merge's exchanges must add up to the shards' counts. */
  requestCount: number;
  /** The embedded reference's faults and variants the shard ran (none for a remote target): part of what was tested. */
  reference: { faults: string[]; variants: string[] };
  /** The MAC of blob and record under the merge's shard key (--shard-key); absent: nobody can authenticate the shard. */
  auth?: ShardAuth;
}

/** A shard's record from its report: run problems are those no test or requirement owns (tests' own travel in the blob). */
export function shardRecordOf(
  report: ConformanceReport,
  deviations: Deviation[],
  reference: { faults: readonly string[]; variants: readonly string[] },
): Omit<ShardRecord, 'format' | 'auth'> {
  const tests = new Map(
    report.requirements
      .flatMap((r) => r.tests)
      .map((t) => [t.id, { id: t.id, state: t.notRun ? ('not-run' as const) : t.state, requests: t.requests, observed: t.observed ?? 0 }]),
  );
  return {
    run: report.run,
    deviations,
    verdict: { overall: report.verdict.overall, exitCode: report.verdict.exitCode },
    problems: report.harnessErrors.filter((p) => p.testId === undefined && p.requirementId === undefined),
    tests: [...tests.values()],
    requestCount: report.traffic.requestCount,
    reference: { faults: [...reference.faults], variants: [...reference.variants] },
  };
}

export const SHARD_RECORD_FORMAT = 'animal-store-conformance-shard';
const RECORD_SUFFIX = '.run.json';

export function shardRecordPath(blobPath: string): string {
  return blobPath.replace(/\.json$/, '') + RECORD_SUFFIX;
}

/** Writes the record beside its blob; with the merge's shard key, MACed with the blob (the blob must be written first). */
export function writeShardRecord(blobPath: string, record: Omit<ShardRecord, 'format' | 'auth'>, shardKey?: string): void {
  const body = { format: SHARD_RECORD_FORMAT, ...record };
  const signed = shardKey === undefined ? body : { ...body, auth: shardAuth(shardKey, readFileSync(blobPath), body) };
  writeFileSync(shardRecordPath(blobPath), `${JSON.stringify(signed, null, 2)}\n`);
}

/** A directory of shard blobs and their records, checked to belong to one run. */
export interface ShardSet {
  /** A temporary directory holding only the blobs (vitest's merge reads every file it finds). */
  blobDir: string;
  /** The run the shards make together: no shard, the earliest start, the latest end. */
  run: RunInfo;
  deviations: Deviation[];
  /**
   * What kept a shard from completing, each naming its shard; a shard recorded INCOMPLETE without one
   * gets one here, so the merge can never be more complete than its shards.
   */
  problems: HarnessProblem[];
  /** Tests a shard recorded as not run. */
  notRunTestIds: ReadonlySet<string>;
  /** How many shards were merged. */
  count: number;
  /** Each shard's record, as read. */
  records: readonly ShardRecord[];
  /** Each shard's blob file name in `blobDir`, in the order of `records`. */
  blobs: readonly string[];
  dispose(): void;
}

/** What must be the same in every shard of one run: a difference changes which cases ran or how they were judged. */
const MUST_AGREE: ReadonlyArray<[string, (run: RunInfo) => unknown]> = [
  ['suite version', (r) => r.suiteVersion],
  ['suite identity', (r) => r.suiteIdentity ?? 'none'],
  ['interface description (spec sha256)', (r) => r.specSha256],
  ['target', (r) => (r.target.embedded ? 'the embedded reference' : r.target.url)],
  ['profile', (r) => r.profile],
  ['seed', (r) => r.seed],
  ['run nonce (--run-nonce)', (r) => r.runNonce ?? 'none'],
  ['--only', (r) => [...(r.only ?? [])].sort().join(',')],
  ['--read-only', (r) => r.readOnly],
  ['--no-exhaust', (r) => !r.exhaust],
  ['--strict', (r) => r.strict],
  ['--plan', (r) => r.plan ?? 'none'],
  ['the plan limits', (r) => r.planLimits ?? 'none'],
  ['how the target was reached (--header, --proxy, --ca-cert, --insecure)', (r) => r.network ?? 'directly, TLS verified'],
];

const mismatch = (message: string) => new HarnessError('ERR_SHARD_MISMATCH', message);

/**
 * Reads every blob in `dir` with its record, refuses a set that is not one whole run (a blob without a
 * record, shards that disagree on what they ran, a shard missing or given twice), and returns the blobs
 * in a directory of their own for vitest's merge.
 */
export function readShardSet(dir: string): ShardSet {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new HarnessError('ERR_CONFIG', `--merge-reports: ${dir} is not a directory`);
  const names = readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile());
  const blobs = names.filter((name) => name.endsWith('.json') && !name.endsWith(RECORD_SUFFIX));
  if (blobs.length === 0)
    throw new HarnessError('ERR_CONFIG', `--merge-reports: no blob reports in ${dir} (copy every shard's blob/ files there, *.run.json included)`);
  const records = blobs.map((blob) => readRecord(dir, blob));
  checkAgreement(blobs, records);
  checkComplete(blobs, records);
  const blobDir = mkdtempSync(join(tmpdir(), 'conformance-merge-'));
  for (const blob of blobs) copyFileSync(join(dir, blob), join(blobDir, blob));
  const first = records[0] as ShardRecord;
  const { shard: _shard, ...whole } = first.run;
  const startedAt = records.map((r) => r.run.startedAt).sort()[0] ?? whole.startedAt;
  const endedAt =
    records
      .map((r) => r.run.endedAt)
      .sort()
      .at(-1) ?? whole.endedAt;
  return {
    blobDir,
    run: {
      ...whole,
      startedAt,
      endedAt,
      requireComplete: records.some((r) => r.run.requireComplete === true),
      command: whole.command.replace(/\s--shard[ =]\S+/, ''),
    },
    deviations: first.deviations,
    problems: records.flatMap(shardProblems),
    notRunTestIds: new Set(records.flatMap((r) => r.tests.filter((t) => t.state === 'not-run').map((t) => t.id))),
    count: blobs.length,
    records,
    blobs,
    dispose: () => rmSync(blobDir, { recursive: true, force: true }),
  };
}

/**
 * The known failures a merge judges with: the shards' own, which decided their exit codes, unless the
 * merge is given its own. --expected-deviations given to the merge must be the shards'. --baseline given
 * to the merge is applied, or refused when the shards recorded a different baseline (a shard's exit code
 * followed it, and a merge that judged otherwise would disagree with it); never dropped.
 */
export function mergeDeviations(recorded: readonly Deviation[], given: readonly Deviation[], flags: { declared: boolean; baseline: boolean }): Deviation[] {
  const [recordedBaseline, recordedDeclared] = splitBaseline(recorded);
  const [givenBaseline, givenDeclared] = splitBaseline(given);
  if (flags.declared && !sameEntries(givenDeclared, recordedDeclared)) {
    throw mismatch('--expected-deviations differs from the file the shards were judged with: merge without it, or run the shards with it');
  }
  if (flags.baseline && recordedBaseline.length > 0 && !sameEntries(givenBaseline, recordedBaseline)) {
    throw mismatch(
      '--baseline differs from the baseline the shards were judged with (their exit codes followed it): merge with the same file, or without --baseline to judge with theirs',
    );
  }
  const baseline = flags.baseline ? givenBaseline : recordedBaseline;
  const twice = baseline.filter((b) => recordedDeclared.some((d) => d.id === b.id)).map((b) => b.id);
  if (twice.length > 0)
    throw new HarnessError('ERR_CONFIG', `${twice.join(', ')} listed both in the shards' --expected-deviations and in --baseline: keep one`);
  return [...recordedDeclared, ...baseline];
}

function splitBaseline(deviations: readonly Deviation[]): [Deviation[], Deviation[]] {
  return [deviations.filter((d) => d.source === 'baseline'), deviations.filter((d) => d.source !== 'baseline')];
}

/** The same entries, in any order. */
function sameEntries(a: readonly Deviation[], b: readonly Deviation[]): boolean {
  const key = (list: readonly Deviation[]) => JSON.stringify([...list].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)));
  return key(a) === key(b);
}

function readRecord(dir: string, blob: string): ShardRecord {
  const path = shardRecordPath(join(dir, blob));
  if (!existsSync(path)) {
    throw mismatch(
      `${blob} has no ${basename(path)} beside it: copy both files of every shard (an older suite, or a blob not made with --shard, cannot be merged)`,
    );
  }
  let record: ShardRecord;
  try {
    record = JSON.parse(readFileSync(path, 'utf8')) as ShardRecord;
  } catch (error) {
    throw mismatch(`${basename(path)} is not JSON: ${(error as Error).message}`);
  }
  if (
    record?.format !== SHARD_RECORD_FORMAT ||
    typeof record.run?.shard !== 'string' ||
    !Array.isArray(record.problems) ||
    !Array.isArray(record.tests) ||
    !record.tests.every((t) => Number.isSafeInteger(t?.requests) && Number.isSafeInteger(t?.observed)) ||
    !Number.isSafeInteger(record.requestCount) ||
    !Array.isArray(record.reference?.faults) ||
    !Array.isArray(record.reference?.variants) ||
    typeof record.verdict?.overall !== 'string'
  ) {
    throw mismatch(`${basename(path)} is not a shard record of this suite`);
  }
  return record;
}

function shardProblems(record: ShardRecord): HarnessProblem[] {
  const shard = `shard ${record.run.shard ?? '?'}`;
  const own = record.problems.map((p) => ({ code: p.code, message: `${shard}: ${p.message}` }));
  if (own.length === 0 && record.verdict.overall === 'incomplete') {
    own.push({ code: 'ERR_ABORTED', message: `${shard}: the shard did not complete (its own verdict was INCOMPLETE)` });
  }
  return own;
}

function checkAgreement(blobs: readonly string[], records: readonly ShardRecord[]): void {
  const first = records[0] as ShardRecord;
  for (const [what, value] of MUST_AGREE) {
    const seen = new Map<string, string[]>();
    records.forEach((record, i) => {
      const key = JSON.stringify(value(record.run));
      seen.set(key, [...(seen.get(key) ?? []), blobs[i] as string]);
    });
    if (seen.size > 1) {
      const detail = [...seen.entries()].map(([v, files]) => `${v} (${files.join(', ')})`).join(' vs ');
      throw mismatch(`the shards were not one run: they differ in ${what}: ${detail}. Run every shard with the same options and --seed`);
    }
  }
  // The embedded reference with a fault is another target than the reference without it.
  const reference = (r: ShardRecord) =>
    `${[...r.reference.faults].sort().join(',') || 'no faults'}; ${[...r.reference.variants].sort().join(',') || 'no variants'}`;
  const differ = records.filter((r) => reference(r) !== reference(first));
  if (differ.length > 0)
    throw mismatch(
      `the shards were not one run: they differ in the embedded reference's faults and variants (--reference-faults, --reference-variants): ${reference(first)} (${blobs[0] ?? ''}) vs ${reference(differ[0] as ShardRecord)} (${blobs[records.indexOf(differ[0] as ShardRecord)] ?? ''})`,
    );
  const deviations = JSON.stringify(first.deviations);
  if (records.some((r) => JSON.stringify(r.deviations) !== deviations))
    throw mismatch('the shards were not one run: they were judged with different --expected-deviations');
}

function checkComplete(blobs: readonly string[], records: readonly ShardRecord[]): void {
  const parsed = records.map((r) => (r.run.shard ?? '').split('/').map(Number) as [number, number]);
  const counts = new Set(parsed.map(([, n]) => n));
  if (counts.size > 1) throw mismatch(`the shards were not one run: they split it differently (${records.map((r) => r.run.shard).join(', ')})`);
  const count = parsed[0]?.[1] ?? 0;
  const byIndex = new Map<number, string[]>();
  parsed.forEach(([i], n) => byIndex.set(i, [...(byIndex.get(i) ?? []), blobs[n] as string]));
  const twice = [...byIndex.entries()].filter(([, files]) => files.length > 1);
  if (twice.length > 0) throw mismatch(`shard ${twice[0]?.[0]}/${count} was given twice: ${twice[0]?.[1].join(', ')}`);
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw mismatch(`shard ${missing.map((i) => `${i}/${count}`).join(', ')} missing: a merge without it would leave its requirements untested`);
}
