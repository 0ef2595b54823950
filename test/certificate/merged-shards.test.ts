import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTESTATION_FILE, loadPrivateKey, writeCertificationBundle, writeKeyPair } from '../../src/certificate/index.ts';
import { runVerify } from '../../src/cli/verify.ts';
import { buildMatrix } from '../../src/matrix/build-matrix.ts';
import { renderMatrixMarkdown } from '../../src/matrix/render-markdown.ts';
import { input, makeRun } from '../support/matrix-runs.ts';
import { MADE_UP } from './logged-run.ts';

/** A certified merge says how far its shards were vouched for: in the signed statement, in verify and on the matrix. */
describe('a certified merge of shards taken on trust says so', () => {
  const dir = mkdtempSync(join(tmpdir(), 'merged-shards-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let keys: ReturnType<typeof writeKeyPair>;
  const bundle = (label: string, authenticated: boolean) => {
    const { report, exchanges } = makeRun();
    report.run.merged = { shards: 3, authenticated };
    report.run.runNonce = 'ci-4711-1';
    const out = join(dir, label);
    writeCertificationBundle(report, exchanges, out, { implementation: 'acme-store@2.4.0', signKey: loadPrivateKey(keys.privatePath), force: true });
    return out;
  };
  const verify = (at: string) => {
    const lines: string[] = [];
    const code = runVerify([at, '--public-key', keys.publicPath], (line) => lines.push(line), MADE_UP);
    return { code, out: lines.join('\n') };
  };
  const statementOf = (at: string) => {
    const envelope = JSON.parse(readFileSync(join(at, ATTESTATION_FILE), 'utf8')) as { payload: string };
    return JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as {
      predicate: { configuration: Array<{ name: string; annotations?: object }> };
    };
  };

  beforeAll(() => {
    keys = writeKeyPair(join(dir, 'keys'));
  });

  it('--trust-shards: signed, and the statement, verify and the matrix say the shards were taken on trust', () => {
    const trusted = bundle('trusted', false);
    expect(statementOf(trusted).predicate.configuration.find((c) => c.name === 'shards')).toMatchObject({
      annotations: { shards: '3', authenticated: 'false', digestOf: 'run-nonce' },
    });
    const { code, out } = verify(trusted);
    expect(code, out).toBe(0);
    expect(out).toContain('shards:          merged from 3 TAKEN ON TRUST (--trust-shards)');
    expect(out).toMatch(/^verified: an authentic certificate of a CONFORMANT run .*its shards were taken on trust/m);

    const matrix = buildMatrix([input('trusted', {}, { implementation: 'acme-store@2.4.0', report: makeTrusted() })], { generatedAt: '2026-11-28T00:00:00Z' });
    expect(matrix.implementations[0]?.shardsTrusted).toBe(true);
    expect(renderMatrixMarkdown(matrix)).toContain('shards taken on trust');
  });

  it('authenticated shards: the statement says so, and verify names no trust', () => {
    const authenticated = bundle('authenticated', true);
    expect(statementOf(authenticated).predicate.configuration.find((c) => c.name === 'shards')).toMatchObject({ annotations: { authenticated: 'true' } });
    const { code, out } = verify(authenticated);
    expect(code, out).toBe(0);
    expect(out).toContain("shards:          merged from 3, each authenticated by the merge's shard key");
    expect(out).not.toContain('taken on trust');
  });

  function makeTrusted() {
    const { report } = makeRun();
    report.run.merged = { shards: 2, authenticated: false };
    return report;
  }
});
