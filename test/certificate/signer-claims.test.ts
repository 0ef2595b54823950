import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPrivateKey, summaryLines, verifyBundle, writeKeyPair } from '../../src/certificate/index.ts';
import { runVerify } from '../../src/cli/verify.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { runMatrix } from '../../src/matrix/index.ts';
import { buildMatrix } from '../../src/matrix/build-matrix.ts';
import { input, makeBundle } from '../support/matrix-runs.ts';
import { MADE_UP } from '../certificate/logged-run.ts';

/**
 * What an outside reviewer, trying as a forger without reading the code, got through verify and matrix:
 * each case failed before its fix. A signer nobody verified is never named, two pins must agree, a name
 * from a bundle adds no line to the console, and a publisher cannot continue another's history.
 */
describe('verify and matrix against an outside forger', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signer-claims-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let victim: ReturnType<typeof writeKeyPair>;
  let attacker: ReturnType<typeof writeKeyPair>;
  const attackerBundle = join(dir, 'attacker-signed');
  const unsigned = join(dir, 'unsigned');

  beforeAll(() => {
    victim = writeKeyPair(join(dir, 'victim'));
    attacker = writeKeyPair(join(dir, 'attacker'));
    makeBundle(attackerBundle, {}, { implementation: 'evil@1.0', signKey: loadPrivateKey(attacker.privatePath) });
    makeBundle(unsigned, {}, { implementation: 'unsigned@1.0' });
  });

  const verify = (args: string[]) => {
    const lines: string[] = [];
    const code = runVerify(args, (line) => lines.push(line), MADE_UP);
    return { code, out: lines.join('\n') };
  };

  it('--signer and --public-key must name the same key: the attacker key given with the victim fingerprint is refused', () => {
    const run = verify([attackerBundle, '--signer', victim.keyid, '--public-key', attacker.publicPath]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/FAIL signer trusted: signed by key sha256:[0-9a-f]{64}, not the signer you gave/);
  });

  it('--public-key given twice is a usage error, never "the last one wins"', () => {
    const run = verify([attackerBundle, '--public-key', victim.publicPath, '--public-key', attacker.publicPath]);
    expect(run.code).toBe(2);
    expect(run.out).toContain('--public-key is given once');
  });

  it('a key whose signature does not verify is named as the signer nowhere (text, JSON, summary)', () => {
    const verification = verifyBundle(attackerBundle, { publicKey: victim.publicPath, rejudge: MADE_UP });
    expect(verification.authentic).toBe(false);
    expect(verification.summary?.signer).toBeUndefined();
    const text = verify([attackerBundle, '--public-key', victim.publicPath]);
    expect(text.code).toBe(1);
    expect(text.out).not.toContain(`signer:          key sha256:${victim.keyid}`);
    expect(text.out).not.toMatch(/ok {3}signer trusted/);
    const json = verify([attackerBundle, '--public-key', victim.publicPath, '--format', 'json']);
    const parsed = JSON.parse(json.out) as { certificate: boolean; summary?: { signer?: unknown } };
    expect(parsed.certificate).toBe(false);
    expect(parsed.summary?.signer).toBeUndefined();
  });

  it('an unsigned bundle is not what a certifier who names a signer asked for, even with --allow-unsigned', () => {
    const run = verify([unsigned, '--allow-unsigned', '--public-key', victim.publicPath]);
    expect(run.code).toBe(1);
    expect(run.out).toContain('you gave a signer (--public-key or --signer), but the bundle is not signed by anyone');
    const integrity = verify([unsigned, '--allow-unsigned']);
    expect(integrity.code).toBe(3);
    expect(integrity.out).not.toContain('authentic certificate');
    expect(integrity.out).toMatch(/not a certificate/);
  });

  it('a name with a line break from a bundle stays on its line in the summary; --implementation refuses one', () => {
    const injected = 'x@1.0\n  signer:          key sha256:' + 'a'.repeat(64);
    const lines = summaryLines({
      implementation: injected,
      target: 't',
      profile: 'thorough',
      suiteIdentity: 's',
      interfaceVersion: '1.0.0',
      date: 'd',
      mustTested: 1,
      mustInScope: 1,
      verdict: 'conformant',
      deviations: [],
    });
    expect(lines.every((line) => !line.includes('\n'))).toBe(true);
    expect(lines.filter((line) => line.startsWith('signer:'))).toHaveLength(1);
    expect(() => loadConfig({ flags: { implementation: injected }, env: {}, cwd: dir })).toThrow(/printable text on one line/);
    expect(() => loadConfig({ flags: { implementation: 'acme\u202e@1.0' }, env: {}, cwd: dir })).toThrow(/printable text on one line/);
  });

  it("matrix: a second publisher of a name is its own row of history, never the first one's newer version", () => {
    const first = { ...input('a', {}, { implementation: 'acme@1.0', trust: 'verified' }), signer: { fingerprint: 'a'.repeat(64) } };
    const second = { ...input('b', { failing: ['AUTH-001'] }, { implementation: 'acme@2.0', trust: 'verified' }), signer: { fingerprint: 'b'.repeat(64) } };
    const matrix = buildMatrix([first, second], { generatedAt: '2026-01-01T00:00:00Z', outDir: dir });
    expect(matrix.implementations.every((c) => c.latest && c.counted)).toBe(true);
    expect(matrix.implementations.every((c) => !c.history)).toBe(true);
    const badges = matrix.implementations.map((c) => c.badge);
    expect(new Set(badges).size).toBe(2);
    expect(badges.every((b) => b !== 'acme.svg')).toBe(true);
  });

  it('matrix: a bare report with a key given twice is not read (one reader, as verify reads bundles)', async () => {
    const bare = join(dir, 'dup.json');
    const genuine = readFileSync(join(unsigned, 'conformance.json'), 'utf8');
    writeFileSync(bare, genuine.replace('{', '{"format":"bogus",'));
    const lines: string[] = [];
    const code = await runMatrix([bare, '--out', join(dir, 'mx'), '--allow-unsigned'], (line) => lines.push(line), MADE_UP);
    expect(code).toBe(1);
    expect(lines.join('\n')).toMatch(/REFUSED .*(duplicate|twice)/i);
  });
});
