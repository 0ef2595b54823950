import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBundle, writeKeyPair } from '../../../src/certificate/index.ts';
import { Ajv2020 as Ajv } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { HAR_1_2_SCHEMA } from '../../support/har-schema.ts';
import { parse as parseFlatted, stringify as stringifyFlatted } from 'flatted';
import type { ShardRecord } from '../../../src/report/index.ts';
import { readReport, runCli } from '../../support/cli.ts';

/** A certification bundle a third party can check: every edit is caught, and named. */
describe('certification: --certify, keygen, verify', () => {
  const dir = mkdtempSync(join(tmpdir(), 'certify-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = join(dir, 'bundle');
  let keys: ReturnType<typeof writeKeyPair>;
  let other: ReturnType<typeof writeKeyPair>;

  beforeAll(async () => {
    keys = writeKeyPair(join(dir, 'keys'));
    other = writeKeyPair(join(dir, 'other-keys'));
    const run = await runCli([
      '--certify',
      bundle,
      '--sign-key',
      keys.privatePath,
      '--implementation',
      'reference@0.1.0',
      '--seed',
      '77',
      '--report-dir',
      join(dir, 'reports'),
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  }, 180_000);

  /** A copy of the bundle to spoil. */
  function copy(label: string): string {
    const target = join(dir, label);
    cpSync(bundle, target, { recursive: true });
    return target;
  }

  const failing = (path: string, key = keys.publicPath) =>
    verifyBundle(path, { publicKey: key })
      .checks.filter((c) => !c.ok)
      .map((c) => `${c.name}: ${c.detail}`);

  it('a thorough run of the reference, signed with a fresh key, verifies', () => {
    expect(failing(bundle)).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as { implementation?: string; verdict: string };
    expect(manifest).toMatchObject({ implementation: 'reference@0.1.0', verdict: 'conformant' });
  });

  it('the embedded reference is signed as itself: the subject is the suite identity, not a declared name', () => {
    const envelope = JSON.parse(readFileSync(join(bundle, 'attestation.intoto.jsonl'), 'utf8')) as { payload: string };
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as { subject: Array<{ name: string; digest: { sha256: string } }> };
    const report = JSON.parse(readFileSync(join(bundle, 'conformance.json'), 'utf8')) as { run: { suiteIdentity: string } };
    expect(statement.subject[0]).toEqual({
      name: 'animal-store-conformance embedded reference',
      digest: { sha256: report.run.suiteIdentity },
      annotations: { role: 'implementation', digestOf: 'suite-identity' },
    });
  });

  it('exchanges.har is a HAR 1.2 log of every exchange with headers and bodies, the key redacted', () => {
    const text = readFileSync(join(bundle, 'exchanges.har'), 'utf8');
    const har = JSON.parse(text) as {
      log: {
        version: string;
        entries: Array<{
          request: { method: string; url: string; headers: Array<{ name: string; value: string }>; postData?: { text: string } };
          response: { status: number; headers: Array<{ name: string; value: string }>; content: { text?: string } };
        }>;
      };
    };
    const report = JSON.parse(readFileSync(join(bundle, 'conformance.json'), 'utf8')) as { traffic: { requestCount: number } };
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const valid = ajv.validate(HAR_1_2_SCHEMA, har);
    expect(valid ? [] : ajv.errors?.slice(0, 5)).toEqual([]);
    expect(har.log.entries).toHaveLength(report.traffic.requestCount);
    const answered = har.log.entries.filter((e) => e.response.status > 0);
    expect(answered.every((e) => e.response.headers.some((h) => h.name === 'x-ratelimit-limit'))).toBe(true);
    // Only the requests sent without any credentials on purpose carry no header at all.
    expect(answered.filter((e) => e.request.headers.length === 0).length).toBeLessThan(answered.length / 20);
    const creates = har.log.entries.filter((e) => e.request.method === 'POST');
    expect(creates.length).toBeGreaterThan(0);
    expect(creates.every((e) => e.request.postData !== undefined)).toBe(true);
    expect(answered.filter((e) => e.response.content.text !== undefined).length).toBeGreaterThan(answered.length / 2);
    const authorization = answered.flatMap((e) => e.request.headers.filter((h) => h.name.toLowerCase() === 'authorization').map((h) => h.value));
    expect(authorization.length).toBeGreaterThan(0);
    expect(authorization.every((value) => !/embedded-[0-9a-f]{24}/.test(value))).toBe(true);
    expect(text).not.toMatch(/embedded-(exhaust-|pair-)?[0-9a-f]{24}/);
  });

  it('badge.svg shows the verdict, the suite version and the date, self-contained; the manifest holds its Markdown', () => {
    const svg = readFileSync(join(bundle, 'badge.svg'), 'utf8');
    const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as { badge: { markdown: string }; suiteVersion: string; date: string };
    expect(svg).toMatch(/^<svg [^>]*height="20"/);
    expect(svg).toContain('CONFORMANT');
    expect(svg).toContain(`suite ${manifest.suiteVersion}`);
    expect(svg).toContain(manifest.date.slice(0, 10));
    expect(svg).not.toMatch(/(href|src)=|@import|url\(http/);
    expect(manifest.badge.markdown).toBe('[![Animal Store 1.0.0: CONFORMANT](badge.svg)](conformance.html)');
  });

  it.each(['conformance.json', 'junit.xml', 'conformance.html', 'exchanges.har', 'badge.svg'])('one flipped byte in %s is caught and named', (name) => {
    const spoiled = copy(`flip-${name}`);
    const path = join(spoiled, name);
    const bytes = readFileSync(path);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = (bytes[at] ?? 0) ^ 0x01;
    writeFileSync(path, bytes);
    expect(failing(spoiled).join('\n')).toContain(`${name} was changed`);
  });

  it('a missing file, another signer, and an edited verdict are each caught', () => {
    const dropped = copy('dropped');
    rmSync(join(dropped, 'exchanges.har'));
    expect(failing(dropped).join('\n')).toContain('missing: exchanges.har');

    const resigned = copy('resigned');
    expect(failing(resigned, other.publicPath).join('\n')).toContain(`no signature verifies with key sha256:${other.keyid}`);

    const edited = copy('edited');
    const manifestPath = join(edited, 'manifest.json');
    writeFileSync(manifestPath, readFileSync(manifestPath, 'utf8').replace('"verdict": "conformant"', '"verdict": "partial"'));
    const problems = failing(edited).join('\n');
    expect(problems).toContain('manifest.json differs from conformance.json in: verdict');
    expect(problems).toContain('manifest.json changed since signing');
  });

  it('the command line prints one line per check and exits 0 or 1', async () => {
    const good = await runCli(['verify', bundle, '--public-key', keys.publicPath]);
    expect(good.code, good.stdout).toBe(0);
    expect(good.stdout).toMatch(/verified: an authentic certificate of a CONFORMANT run \(\d+ checks hold\)/);
    const spoiled = copy('cli-spoiled');
    copyFileSync(join(spoiled, 'junit.xml'), join(spoiled, 'conformance.json'));
    const bad = await runCli(['verify', spoiled, '--public-key', keys.publicPath]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('FAIL conformance.json: conformance.json cannot be read');
  });

  it('--certify refuses a run that could not certify anything: quick, --only', async () => {
    for (const args of [
      ['--profile', 'quick'],
      ['--only', 'auth'],
    ]) {
      const run = await runCli([...args, '--certify', join(dir, 'never'), '--report-dir', join(dir, 'never-reports')]);
      expect(run.code, run.stdout).toBe(2);
      expect(run.stdout + run.stderr).toMatch(/--certify (needs --profile thorough|cannot be combined with --only)/);
    }
  });
});

/** What the forger did to shard files, with vitest's blob format (flatted) read and written back. */
function forgeShards(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name.endsWith('.run.json')) {
      const record = JSON.parse(readFileSync(path, 'utf8')) as ShardRecord;
      record.run.profile = 'thorough';
      record.verdict = { overall: 'conformant', exitCode: 0 };
      record.tests = record.tests.map((t) => ({ ...t, state: 'passed' }));
      writeFileSync(path, JSON.stringify(record));
    } else {
      const blob = parseFlatted(readFileSync(path, 'utf8')) as unknown[];
      const walk = (task: ForgedTask) => {
        if (task.type === 'test') {
          task.mode = 'run';
          task.result = { ...(task.result ?? {}), state: 'pass' };
          const meta = task.meta?.conformance;
          if (meta) {
            meta.findings = [];
            delete meta.failure;
            delete meta.skipCode;
            delete meta.skipReason;
          }
        }
        for (const child of task.tasks ?? []) walk(child);
      };
      for (const file of blob[1] as ForgedTask[]) walk(file);
      writeFileSync(path, stringifyFlatted(blob));
    }
  }
}

interface ForgedTask {
  type: string;
  mode?: string;
  result?: Record<string, unknown>;
  meta?: { conformance?: Record<string, unknown> };
  tasks?: ForgedTask[];
}

describe('certification of a merge: the grade of --certify, and shards that prove what they say', () => {
  const dir = mkdtempSync(join(tmpdir(), 'certify-merge-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const shardDirs = [join(dir, 'shard-1'), join(dir, 'shard-2')];
  let keys: ReturnType<typeof writeKeyPair>;

  beforeAll(async () => {
    keys = writeKeyPair(join(dir, 'keys'));
    // Two quick shards against a faulty reference: what the forger started from.
    const runs = await Promise.all(
      shardDirs.map((out, i) =>
        runCli(['--profile', 'quick', '--reference-faults', 'error-status-mismatch', '--seed', '7', '--shard', `${i + 1}/2`, '--report-dir', out]),
      ),
    );
    for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(1);
  }, 300_000);

  const blobs = (label: string) => {
    const target = join(dir, label);
    mkdirSync(target);
    for (const shard of shardDirs) for (const name of readdirSync(join(shard, 'blob'))) copyFileSync(join(shard, 'blob', name), join(target, name));
    return target;
  };
  const certifyMerge = (from: string, label: string) =>
    runCli(['--merge-reports', from, '--certify', join(dir, `${label}-bundle`), '--sign-key', keys.privatePath, '--report-dir', join(dir, `${label}-reports`)]);

  it('a merge of quick shards is refused as --certify refuses a quick run', async () => {
    const run = await certifyMerge(blobs('quick'), 'quick');
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stdout + run.stderr).toContain('--certify refuses this merge: the shards ran profile quick');
    expect(existsSync(join(dir, 'quick-bundle', 'attestation.intoto.jsonl'))).toBe(false);
  }, 120_000);

  it('shards edited to thorough, every test passed and findings cleared, are refused: their passes carry no request', async () => {
    const forged = blobs('forged');
    forgeShards(forged);
    const run = await certifyMerge(forged, 'forged');
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stdout + run.stderr).toMatch(/the shards do not prove what they say: .*passed on no request and no observed exchange/);
    expect(existsSync(join(dir, 'forged-bundle', 'attestation.intoto.jsonl'))).toBe(false);
    expect(readReport(join(dir, 'forged-reports')).harnessErrors[0]?.code).toBe('ERR_SHARD_MISMATCH');
  }, 120_000);

  it.each([
    ['suite identity', (record: ShardRecord) => Object.assign(record.run, { suiteIdentity: 'ab'.repeat(32) })],
    ['the plan limits', (record: ShardRecord) => Object.assign(record.run, { planLimits: { perMinute: 1, perDay: 1 } })],
    ['how the target was reached', (record: ShardRecord) => Object.assign(record.run, { network: { headers: ['x-tenant'], tlsVerified: true } })],
  ])('shards that differ in %s are not one run', async (what, edit) => {
    const from = blobs(`differ-${what.replace(/\W+/g, '-')}`);
    const path = join(from, 'blob-2-2.run.json');
    const record = JSON.parse(readFileSync(path, 'utf8')) as ShardRecord;
    edit(record);
    writeFileSync(path, JSON.stringify(record));
    const run = await runCli(['--merge-reports', from, '--report-dir', join(from, 'out')]);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stdout + run.stderr).toContain(`the shards were not one run: they differ in ${what}`);
  });

  it('--implementation-digest without --target is refused: the embedded reference is not the artefact', async () => {
    const run = await runCli([
      '--implementation-digest',
      `sha256:${'ab'.repeat(32)}`,
      '--certify',
      join(dir, 'digest-bundle'),
      '--report-dir',
      join(dir, 'digest'),
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stdout + run.stderr).toContain('--implementation-digest needs --target');
  });
});
