import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_SUBJECT, loadPrivateKey, writeCertificationBundle, writeKeyPair } from '../../src/certificate/index.ts';
import { runVerify } from '../../src/cli/verify.ts';
import { buildMatrix } from '../../src/matrix/build-matrix.ts';
import { input, makeRun } from '../support/matrix-runs.ts';
import { MADE_UP } from './logged-run.ts';

/**
 * What was tested is what is named (issue 48 item 5): the embedded reference certified with
 * `--implementation acme-store@2.4.0` does not verify under that name, and the matrix never ranks it as it.
 */
describe('the embedded reference under another name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-name-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let keys: ReturnType<typeof writeKeyPair>;
  const embeddedRun = () => {
    const run = makeRun();
    run.report.run.target = { url: 'http://127.0.0.1:40123/v1', embedded: true };
    return run;
  };
  const bundle = (label: string, options: { implementation?: string; implementationDigest?: string }) => {
    const { report, exchanges } = embeddedRun();
    const out = join(dir, label);
    writeCertificationBundle(report, exchanges, out, { ...options, signKey: loadPrivateKey(keys.privatePath), force: true });
    return out;
  };
  const verify = (...args: string[]) => {
    const lines: string[] = [];
    const code = runVerify([...args, '--public-key', keys.publicPath], (line) => lines.push(line), MADE_UP);
    return { code, out: lines.join('\n') };
  };

  beforeAll(() => {
    keys = writeKeyPair(join(dir, 'keys'));
  });

  it('verifies as the reference, never as the product it was labelled', () => {
    const labelled = bundle('labelled', { implementation: 'acme-store@2.4.0' });
    const plain = verify(labelled);
    expect(plain.code, plain.out).toBe(0);
    expect(plain.out).toContain(
      `implementation:  ${EMBEDDED_SUBJECT} (declared as "acme-store@2.4.0": a label, not what was tested) (the suite's own code, named by the suite)`,
    );
    expect(plain.out).toMatch(/ok {3}implementation named: the embedded reference, named as itself .*a label no --implementation pin accepts/);
    // The pins it prints never name the label.
    expect(plain.out).toMatch(/No policy given: .*--implementation-digest sha256:/);
    expect(plain.out).not.toContain('--implementation acme-store');

    const pinned = verify(labelled, '--implementation', 'acme-store@2.4.0');
    expect(pinned.code, pinned.out).toBe(1);
    expect(pinned.out).toContain(`FAIL policy implementation: the bundle says ${EMBEDDED_SUBJECT}, you pinned acme-store@2.4.0`);
    expect(verify(labelled, '--implementation', EMBEDDED_SUBJECT).code).toBe(0);
  });

  it('an embedded bundle that gives an artefact digest is refused', () => {
    const digested = bundle('digested', { implementation: 'acme-store@2.4.0', implementationDigest: 'ab'.repeat(32) });
    const { code, out } = verify(digested);
    expect(code, out).toBe(1);
    expect(out).toMatch(/FAIL implementation named: the bundle gives an artefact digest .*but the run tested the embedded reference/);
  });

  it('the matrix names and ranks it as the embedded reference, never as the product', () => {
    const matrix = buildMatrix(
      [
        input('labelled', {}, { implementation: 'acme-store@2.4.0', report: embeddedRun().report }),
        input('product', { failing: ['AUTH-001'] }, { implementation: 'acme-store@2.3.0' }),
      ],
      { generatedAt: '2026-11-28T00:00:00Z' },
    );
    const embedded = matrix.implementations.find((c) => c.source === 'labelled');
    expect(embedded).toMatchObject({ name: 'embedded reference (labelled)', declared: false, embedded: true });
    expect(embedded?.version).toBeUndefined();
    expect(embedded?.badge ?? '').not.toContain('acme');
    // The product's own history is its own: the embedded run is not its newer version.
    const product = matrix.implementations.find((c) => c.source === 'product');
    expect(product).toMatchObject({ name: 'acme-store', version: '2.3.0', latest: true });
  });
});
