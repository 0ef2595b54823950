import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Matrix } from '../../src/matrix/matrix-types.ts';
import { statusOf } from '../../src/matrix/build-matrix.ts';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { writeKeyPair } from '../../src/certificate/index.ts';
import { runCli, runMain, startStandalone } from '../support/cli.ts';

/**
 * The matrix of implementations that really run: the reference, valid variants of it (each a different
 * but conformant server), named faults (each a different broken one), a version history, and a
 * standalone reference reached over the network. Every cell must be what its own bundle says.
 */
describe('matrix of real implementations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'matrix-real-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = (name: string) => join(dir, name);
  let keys: ReturnType<typeof writeKeyPair>;

  /** name → [implementation, extra flags] */
  const EMBEDDED: Record<string, [string, string[]]> = {
    reference: ['reference@0.1.0', []],
    lenient: ['lenient-store@1.0.0', ['--reference-variants', 'limit-clamped,unknown-status-empty,petid-not-found']],
    styled: ['styled-store@3.2.1', ['--reference-variants', 'random-ids,extra-pet-fields,custom-error-codes']],
    'alpha-1': ['alpha-store@1.0.0', ['--reference-faults', 'limit-off-by-one,error-missing-code']],
    'alpha-2': ['alpha-store@1.1.0', ['--reference-faults', 'error-missing-code,ratelimit-reset-in-ms']],
    gamma: ['gamma-store@0.9.0', ['--reference-faults', 'error-missing-code']],
  };

  beforeAll(async () => {
    keys = writeKeyPair(at('keys'));
    const certify = (name: string, implementation: string, flags: string[]) =>
      runCli([
        ...flags,
        '--certify',
        at(name),
        '--sign-key',
        keys.privatePath,
        '--implementation',
        implementation,
        '--seed',
        '31',
        '--report-dir',
        at(`reports-${name}`),
        '--quiet',
      ]);
    // Two at a time: the machine has two cores.
    const names = Object.keys(EMBEDDED);
    for (let i = 0; i < names.length; i += 2) {
      const batch = names.slice(i, i + 2);
      const runs = await Promise.all(batch.map((name) => certify(name, ...(EMBEDDED[name] as [string, string[]]))));
      runs.forEach((run, j) => expect(run.code, `${batch[j]}: ${run.stdout}${run.stderr}`).toBeLessThan(2));
    }
  }, 480_000);

  const readMatrix = (out: string) => JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')) as Matrix;
  const readReport = (name: string) => JSON.parse(readFileSync(join(at(name), 'conformance.json'), 'utf8')) as ConformanceReport;

  // Bounded by the project's test time-out (vitest.config.ts), not a tighter one: the verdict files run two
  // at a time, and a thorough remote run beside another file's runs is slower than alone.
  it('with a standalone reference as a remote target: every cell agrees with its bundle, faults fail where they should, embedded runs are named as the reference', async () => {
    // Two-second windows: the Free key's exhaustion and the wait for its window's turn take seconds, not a minute.
    const { url, rateWindow } = await startStandalone('matrix-main-key-0123456789:enterprise:100000:1000000,matrix-exhaust-key-0123456789:free', [
      '--window',
      '2',
    ]);
    const remote = await runCli([
      '--target',
      url,
      ...rateWindow,
      '--api-key',
      'matrix-main-key-0123456789',
      '--exhaust-key',
      'matrix-exhaust-key-0123456789',
      '--plan',
      'enterprise',
      // CON-004 holds a connection 45 s against a remote target by default, asleep: the cell is about the
      // matrix, not old connections, so 2 s, as the verdict project's other runs (support/run-cli.ts).
      '--hold-connection',
      '2',
      '--profile',
      'thorough',
      '--certify',
      at('remote'),
      '--sign-key',
      keys.privatePath,
      '--implementation',
      'remote-reference@0.1.0',
      '--seed',
      '31',
      '--report-dir',
      at('reports-remote'),
      '--quiet',
    ]);
    expect(remote.code, remote.stdout + remote.stderr).toBe(0);

    const names = [...Object.keys(EMBEDDED), 'remote'];
    const out = at('matrix');
    // The matrix command starts no run: its main in this process, as runMain's other callers do.
    const run = await runMain(['matrix', ...names.map(at), '--public-key', keys.publicPath, '--out', out]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const matrix = readMatrix(out);
    expect(matrix.implementations).toHaveLength(names.length);
    expect(matrix.implementations.every((c) => c.trust === 'verified' && c.signer?.fingerprint === keys.keyid)).toBe(true);

    for (const name of names) {
      const report = readReport(name);
      const column = matrix.implementations.find((c) => c.source === at(name));
      expect(column?.verdict, name).toBe(report.verdict.overall);
      for (const requirement of report.requirements) {
        const cell = matrix.requirements.find((r) => r.id === requirement.id)?.cells.find((c) => c.column === column?.key);
        expect(cell?.status, `${name} ${requirement.id}`).toBe(statusOf(requirement.verdict));
        if (requirement.verdict === 'fail') expect(cell?.evidence?.curl, `${name} ${requirement.id}`).toMatch(/^curl /);
      }
    }
    const verdictOf = (name: string) => matrix.implementations.find((c) => c.source === at(name))?.verdict;
    for (const name of ['reference', 'lenient', 'styled', 'remote']) expect(verdictOf(name), name).toBe('conformant');
    for (const name of ['alpha-1', 'alpha-2', 'gamma']) expect(verdictOf(name), name).toBe('not-conformant');

    // The embedded reference is named as itself whatever it was declared as (its bundles' names are labels):
    // each run is a column of its own, never a product's version, so none continues another's history.
    for (const name of Object.keys(EMBEDDED)) {
      const column = matrix.implementations.find((c) => c.source === at(name));
      expect(column, name).toMatchObject({ name: `embedded reference (${at(name)})`, declared: false, embedded: true });
      expect(column?.history, name).toBeUndefined();
    }
    expect(matrix.implementations.find((c) => c.source === at('remote'))).toMatchObject({ name: 'remote-reference', version: '0.1.0', declared: true });
    // error-missing-code is in the three faulty runs: the requirement it breaks fails in 3 of 7.
    const top = matrix.requirements.find((r) => r.id === matrix.mostFailed[0]);
    expect(top?.counts).toMatchObject({ failing: 3, of: 7 });
    expect(matrix.ranking.map((k) => matrix.implementations.find((c) => c.key === k)?.verdict).slice(0, 4)).toEqual(Array(4).fill('conformant'));
    expect(run.stdout).toMatch(/most often failed: \S+ \w+, fails in 3 of 7 implementations/);
  });

  it('a tampered real bundle is refused; with --include-unverified it is shown NOT VERIFIED, never verified', async () => {
    cpSync(at('gamma'), at('gamma-forged'), { recursive: true });
    const path = join(at('gamma-forged'), 'manifest.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"verdict": "not-conformant"', '"verdict": "conformant"'));
    const refused = await runMain(['matrix', at('reference'), at('gamma-forged'), '--public-key', keys.publicPath, '--out', at('matrix-refused')]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(`REFUSED ${at('gamma-forged')}`);
    const marked = await runMain([
      'matrix',
      at('reference'),
      at('gamma-forged'),
      '--public-key',
      keys.publicPath,
      '--include-unverified',
      '--out',
      at('matrix-marked'),
    ]);
    expect(marked.code, marked.stdout).toBe(0);
    const forged = readMatrix(at('matrix-marked')).implementations.find((c) => c.source === at('gamma-forged'));
    expect(forged).toMatchObject({ trust: 'not-verified', counted: false });
  });
});
