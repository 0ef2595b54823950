import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseFlatted, stringify as stringifyFlatted } from 'flatted';
import { type TestContext, afterAll, describe, expect, test } from 'vitest';
import { writeKeyPair } from '../../src/certificate/index.ts';
import { runVerify } from '../../src/cli/verify.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import type { ConformanceMeta } from '../../src/report/test-meta.ts';
import type { ShardRecord } from '../../src/report/shard-record.ts';
import { type CliRun, runCliInTest } from './support/run-cli.ts';

/**
 * Issue 48's five forgeries that needed no key, end to end as the issue ran them: two genuine shards of
 * a faulty reference (thorough, the whole catalog: what a certified merge takes), ONE shard's blob and
 * record edited as the forger of the issue's table edited them (both shards where the failures fell in both), then the honest certifier's
 * `--merge-reports … --certify --sign-key`: with the run's shard key the edited shard does not
 * authenticate; without it (and without --trust-shards) the merge re-judges the shards and refuses them,
 * naming the forged test, before anything is signed. One pair of shards per fault, shared by its merges.
 */

const RUN_TIMEOUT_MS = 300_000;
const SHARD_KEY = 'shard-key-of-keyless-forgeries-0123456789abcdef';
const NONCE = 'keyless-forgeries-1';
const SEED = '3';

const work = mkdtempSync(join(tmpdir(), 'keyless-merged-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const keys = writeKeyPair(join(work, 'keys'));

interface BlobTask {
  id?: string;
  type?: string;
  name?: string;
  tasks?: BlobTask[];
  result?: { state?: string; errors?: unknown[] };
  meta?: { conformance?: ConformanceMeta };
}

/** One shard's files as the forger holds them: the blob (vitest's, flatted) and its record. */
interface Shard {
  blobName: string;
  blob: unknown[];
  record: ShardRecord;
}

type Context = Parameters<typeof runCliInTest>[0];

/** Two genuine shards of the fault, run with the run's nonce and shard key; each shard's blob/ files in a folder. */
async function genuineShards(context: Context, fault: string): Promise<string[]> {
  const runs = await Promise.all(
    [1, 2].map((i) =>
      runCliInTest(context, ['--reference-faults', fault, '--seed', SEED, '--shard', `${i}/2`, '--run-nonce', NONCE], {
        timeoutMs: RUN_TIMEOUT_MS,
        label: 'keyless-shard-',
        env: { ASC_SHARD_KEY: SHARD_KEY },
      }),
    ),
  );
  return runs.map((run: CliRun, i) => {
    expect(run.exitCode, run.stdout + run.stderr).not.toBe(2);
    const dir = join(work, `${fault}-${i + 1}`);
    mkdirSync(dir);
    for (const name of readdirSync(join(run.reportDir, 'blob'))) copyFileSync(join(run.reportDir, 'blob', name), join(dir, name));
    return dir;
  });
}

function readShard(dir: string): Shard {
  const blobName = readdirSync(dir).find((name) => !name.endsWith('.run.json'));
  if (!blobName) throw new Error(`no blob in ${dir}`);
  const record = JSON.parse(readFileSync(join(dir, blobName.replace(/\.json$/, '.run.json')), 'utf8')) as ShardRecord;
  return { blobName, blob: parseFlatted(readFileSync(join(dir, blobName), 'utf8')) as unknown[], record };
}

/** Every test of a blob, with the file it is in. */
function testsOf(shard: Shard): Array<{ file: BlobTask; test: BlobTask }> {
  const found: Array<{ file: BlobTask; test: BlobTask }> = [];
  const walk = (file: BlobTask, task: BlobTask) => {
    if (task.type === 'test') found.push({ file, test: task });
    for (const child of task.tasks ?? []) walk(file, child);
  };
  for (const file of shard.blob[1] as BlobTask[]) walk(file, file);
  return found;
}

const failedIds = (shards: readonly Shard[]) =>
  [
    ...new Set(shards.flatMap((s) => testsOf(s).filter(({ test }) => test.result?.state === 'fail')).map(({ test }) => test.meta?.conformance?.requirementId)),
  ].sort();

/** The forger's edit of an outcome, in the blob and in the record: the failed test passed, as a clean shard says. */
function flip(shard: Shard, test: BlobTask): ConformanceMeta {
  const meta = test.meta?.conformance;
  if (!meta) throw new Error(`${test.name ?? '?'} has no conformance meta`);
  test.result = { ...test.result, state: 'pass', errors: [] };
  delete meta.failure;
  const row = shard.record.tests.find((t) => t.id === test.id);
  if (row) row.state = 'passed';
  shard.record.verdict = { overall: 'partial', exitCode: 0 };
  return meta;
}

/** Every copy of one of the file's exchanges (a shared one is in the meta of each test that judged it). */
function copiesOf(shard: Shard, file: BlobTask, seq: number): Exchange[] {
  return testsOf(shard)
    .filter((t) => t.file === file)
    .flatMap(({ test }) => test.meta?.conformance?.exchanges ?? [])
    .filter((e) => e.seq === seq);
}

/** The failed tests of a requirement, each with the shard and file that hold it. */
function failed(shards: readonly Shard[], id: string) {
  const found = shards.flatMap((shard) =>
    testsOf(shard)
      .filter(({ test }) => test.result?.state === 'fail' && test.meta?.conformance?.requirementId === id)
      .map((t) => ({ shard, ...t })),
  );
  if (found.length === 0) throw new Error(`${id} did not fail`);
  return found;
}

/** Every number of the file's exchanges after `gone`, one lower, in every test of the file: the blob the shard would have written without it. */
function closeUp(shard: Shard, file: BlobTask, gone: number): void {
  const SEQ_KEYS = new Set(['seq', 'exchange', 'exchanges', 'idFrom', 'countFrom', 'sentFrom', 'exchangeSeq', 'exchangeSeqs']);
  const lower = (value: unknown): unknown =>
    typeof value === 'number' ? (value > gone ? value - 1 : value) : Array.isArray(value) ? value.map(lower) : (walk(value), value);
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const [key, child] of Object.entries(record)) {
        if (SEQ_KEYS.has(key)) record[key] = lower(child);
        else walk(child);
      }
    }
  };
  for (const { test } of testsOf(shard).filter((t) => t.file === file)) walk(test.meta?.conformance);
}

/** The forgeries of issue 48's table: the fault, the requirements it fails, the edit, what the merge names. */
interface Forgery {
  fault: string;
  fails: string[];
  edit: (shards: Shard[]) => void;
  named: RegExp;
}

const FORGERIES: Forgery[] = [
  {
    fault: 'list-drops-oldest',
    fails: ['CON-003'],
    edit: (shards) => failed(shards, 'CON-003').forEach(({ shard, test }) => flip(shard, test)),
    named: /CON-003 .*: passed, but #\d+ does not hold the rule added-pets-listed/,
  },
  {
    fault: 'chunked-body-refused',
    fails: ['STA-014'],
    edit: (shards) => {
      const [{ shard, file, test }] = failed(shards, 'STA-014') as [ReturnType<typeof failed>[number]];
      const meta = flip(shard, test);
      const exchange = (seq: number) => copiesOf(shard, file, seq)[0];
      const failing = meta.judgments?.find((j) => j.kind === 'status' && !j.allowed.includes(exchange(j.exchange)?.response?.status ?? -1));
      if (failing?.kind !== 'status') throw new Error('STA-014 failed no status judgment');
      // The failing exchange deleted, its judgment with it, the counts lowered by one, the file's numbers closed up.
      meta.judgments = meta.judgments?.filter((j) => j !== failing);
      meta.observed = (meta.observed ?? 1) - 1;
      for (const { test: other } of testsOf(shard).filter((t) => t.file === file)) {
        const own = other.meta?.conformance;
        if (own) own.exchanges = own.exchanges.filter((e) => e.seq !== failing.exchange);
      }
      closeUp(shard, file, failing.exchange);
      const row = shard.record.tests.find((t) => t.id === test.id);
      if (row) row.requests -= 1;
      shard.record.requestCount -= 1;
    },
    named: /STA-014 .*: passed, but it sent \d+ requests?, where every passed STA-014 test sends at least 3/,
  },
  {
    fault: 'default-limit-10',
    fails: ['LIM-003'],
    edit: (shards) => failed(shards, 'LIM-003').forEach(({ shard, test }) => flip(shard, test)),
    named: /LIM-003 .*: passed, but #\d+ does not hold the rule list-length/,
  },
  {
    fault: 'name-truncated',
    fails: ['SCH-005', 'SCH-006'],
    edit: (shards) => {
      for (const id of ['SCH-005', 'SCH-006'])
        for (const { shard, file, test } of failed(shards, id)) {
          // One U+FFFD inserted into each echo the test judged: "not UTF-8" once switched the body rules off.
          for (const judgment of flip(shard, test).judgments ?? []) {
            if (judgment.kind !== 'rule' || !['pet-echoes-sent', 'pet-as-answered'].includes(judgment.rule)) continue;
            for (const seq of judgment.exchanges)
              for (const copy of copiesOf(shard, file, seq))
                if (copy.response?.body !== undefined) copy.response.body = copy.response.body.replace('"name":"', '"name":"\uFFFD');
          }
        }
    },
    named: /SCH-00[56] .*: passed, but #\d+ does not hold the rule pet-/,
  },
  {
    fault: 'ind-rate-refuse-one-late',
    fails: ['RATE-004', 'RATE-008'],
    edit: (shards) => {
      // RATE-008 fails on the same late answer: flipped as it is.
      failed(shards, 'RATE-008').forEach(({ shard, test }) => flip(shard, test));
      const [{ shard, file, test }] = failed(shards, 'RATE-004') as [ReturnType<typeof failed>[number]];
      const judgment = flip(shard, test).judgments?.find((j) => j.kind === 'rule' && j.rule === 'rate-none-served-past-zero');
      if (judgment?.kind !== 'rule') throw new Error('RATE-004 judged no exhaustion');
      // The second answer served past Remaining 0 turned into "no answer".
      const late = judgment.exchanges.filter((seq) => {
        const response = copiesOf(shard, file, seq)[0]?.response;
        return response?.status === 200 && response.headers['x-ratelimit-remaining'] === '0';
      })[1];
      if (late === undefined) throw new Error('no second request served past Remaining 0');
      for (const copy of copiesOf(shard, file, late)) {
        delete copy.response;
        copy.error = { code: 'ERR_TIMEOUT', message: 'no answer' };
      }
    },
    named: /RATE-004 .*: passed, but its #\d+ has no answer/,
  },
];

/** The genuine shards copied, the edit applied to the shards' files (the MACs left as they were: the forger has no key). */
function forged(dirs: readonly string[], label: string, edit: (shards: Shard[]) => void): { dir: string; edited: string[] } {
  const shards = dirs.map(readShard);
  const before = shards.map((s) => stringifyFlatted(s.blob) + JSON.stringify(s.record));
  edit(shards);
  expect(failedIds(shards), 'the forged shards claim no failure').toEqual([]);
  const dir = join(work, label);
  mkdirSync(dir);
  const edited: string[] = [];
  shards.forEach((shard, i) => {
    writeFileSync(join(dir, shard.blobName), stringifyFlatted(shard.blob));
    writeFileSync(join(dir, shard.blobName.replace(/\.json$/, '.run.json')), JSON.stringify(shard.record, null, 2));
    if (stringifyFlatted(shard.blob) + JSON.stringify(shard.record) !== before[i]) edited.push(shard.blobName);
  });
  return { dir, edited };
}

/** The honest certifier's merge: certify and sign; with the shard key when `authenticated`. */
async function certifyMerge(context: Context, from: string, label: string, authenticated: boolean) {
  const bundle = join(work, `${label}-bundle`);
  const run = await runCliInTest(
    context,
    ['--merge-reports', from, '--run-nonce', NONCE, '--certify', bundle, '--sign-key', keys.privatePath],
    authenticated
      ? { timeoutMs: RUN_TIMEOUT_MS, label: 'keyless-merge-', env: { ASC_SHARD_KEY: SHARD_KEY } }
      : { timeoutMs: RUN_TIMEOUT_MS, label: 'keyless-merge-' },
  );
  const said = [run.stdout, run.stderr, ...(run.report?.harnessErrors.map((p) => p.message) ?? [])].join('\n');
  return { run, said, bundle };
}

/** `verify` with every pin of docs/certification.md. */
function verifyPinned(bundle: string, suiteIdentity: string): { code: number; out: string } {
  const lines: string[] = [];
  const code = runVerify(
    [
      bundle,
      '--public-key',
      keys.publicPath,
      '--implementation',
      'animal-store-conformance embedded reference',
      '--plan',
      'enterprise:1000000000:1000000000',
      '--suite-identity',
      suiteIdentity,
      '--max-age',
      '1',
    ],
    (line) => lines.push(line),
  );
  return { code, out: lines.join('\n') };
}

describe("issue 48's keyless forgeries end to end: genuine failing shards, one edited, an honest certified merge", () => {
  test.for<Forgery>(FORGERIES)(
    '$fault: the edited shard is refused at the merge, with the shard key and without it; nothing is signed',
    { timeout: 3 * RUN_TIMEOUT_MS },
    async ({ fault, fails, edit, named }: Forgery, context: TestContext) => {
      const dirs = await genuineShards(context, fault);
      // Genuinely failing: the fault fails exactly the requirements the forger edits.
      expect(failedIds(dirs.map(readShard))).toEqual(fails);
      const { dir, edited } = forged(dirs, `${fault}-forged`, edit);
      // One shard edited; two where the fault's failures fell in both (name-truncated's SCH-005 and SCH-006).
      expect(edited.length).toBeGreaterThan(0);

      const authenticated = await certifyMerge(context, dir, `${fault}-authenticated`, true);
      expect(authenticated.run.exitCode, authenticated.said).toBe(2);
      expect(authenticated.said).toContain(`${edited[0] ?? ''}: its blob is not the one its MAC was made for`);
      expect(existsSync(join(authenticated.bundle, 'attestation.intoto.jsonl'))).toBe(false);

      const unauthenticated = await certifyMerge(context, dir, `${fault}-unauthenticated`, false);
      expect(unauthenticated.run.exitCode, unauthenticated.said).toBe(2);
      expect(unauthenticated.run.report?.harnessErrors[0]?.code).toBe('ERR_SHARD_MISMATCH');
      expect(unauthenticated.said).toMatch(named);
      expect(existsSync(join(unauthenticated.bundle, 'attestation.intoto.jsonl'))).toBe(false);
    },
  );

  test(
    'the same genuine shards, untouched: the authenticated merge signs NOT CONFORMANT, and verify with every pin exits 1',
    async (context) => {
      const dirs = ['chunked-body-refused-1', 'chunked-body-refused-2'].map((d) => join(work, d));
      if (!dirs.every((d) => existsSync(d))) dirs.splice(0, 2, ...(await genuineShards(context, 'chunked-body-refused')));
      const from = join(work, 'untouched');
      mkdirSync(from);
      for (const d of dirs) for (const name of readdirSync(d)) copyFileSync(join(d, name), join(from, name));
      const merge = await certifyMerge(context, from, 'untouched', true);
      expect(merge.run.exitCode, merge.said).toBe(1);
      const suiteIdentity = merge.run.report?.run.suiteIdentity ?? '';
      expect(suiteIdentity).toMatch(/^[0-9a-f]{64}$/);
      const { code, out } = verifyPinned(merge.bundle, suiteIdentity);
      expect(code, out).toBe(1);
      expect(out).toMatch(/ok {3}signature:/);
      expect(out).toMatch(/ok {3}rejudged:/);
      // Every pin holds: what refuses it is the verdict alone.
      for (const pin of ['implementation', 'plan', 'suite identity', 'max age']) expect(out).toMatch(new RegExp(`^ok {3}policy ${pin}: .*as pinned$`, 'm'));
      expect(out).toContain('authentic, but NOT a certificate of conformance: the run is NOT CONFORMANT');
    },
    2 * RUN_TIMEOUT_MS,
  );
});
