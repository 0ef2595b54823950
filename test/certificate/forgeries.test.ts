import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ATTESTATION_FILE,
  SIGNER_KEY_FILE,
  type Statement,
  loadPrivateKey,
  renderBadge,
  signStatement,
  statementFor,
  verifyBundle,
  writeCertificationBundle,
  writeKeyPair,
} from '../../src/certificate/index.ts';
import { sha256Hex } from '../../src/certificate/attestation.ts';
import { runVerify } from '../../src/cli/verify.ts';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { decideOverall } from '../../src/report/overall-verdict.ts';
import { runCli } from '../support/cli.ts';
import { copyBundle, notConformantBundle, readReport, rehash } from './bundles.ts';
import { MADE_UP } from './logged-run.ts';

/**
 * Forgeries, one per way a certifier might be fooled. Each bundle is built the way a forger would build
 * it; `verify` must refuse it (exit 1) and name why. The genuine bundles are made once: a thorough,
 * signed --certify run of the embedded reference, and a NOT CONFORMANT run through the suite's writer.
 */
describe('verify refuses forged bundles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'forgeries-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const conformant = join(dir, 'conformant');
  let keys: ReturnType<typeof writeKeyPair>;
  let notConformant: string;

  beforeAll(async () => {
    keys = writeKeyPair(join(dir, 'keys'));
    const run = await runCli([
      '--certify',
      conformant,
      '--sign-key',
      keys.privatePath,
      '--implementation',
      'reference@0.1.0',
      '--profile',
      'thorough',
      '--seed',
      '77',
      '--report-dir',
      join(dir, 'reports'),
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`Signed by key sha256:${keys.keyid}`);
    notConformant = notConformantBundle(dir, loadPrivateKey(keys.privatePath));
  }, 300_000);

  /** Strips the signature layer, as a forger without the key must. */
  const unsign = (bundle: string) => {
    rmSync(join(bundle, ATTESTATION_FILE), { force: true });
    rmSync(join(bundle, SIGNER_KEY_FILE), { force: true });
  };

  /** verify's lines and exit code, as a certifier runs it. */
  function verify(bundle: string, ...flags: string[]): { code: number; out: string } {
    const lines: string[] = [];
    const code = runVerify([bundle, ...flags], (line) => lines.push(line), MADE_UP);
    return { code, out: lines.join('\n') };
  }
  const trusted = () => ['--public-key', keys.publicPath];
  const failing = (bundle: string, options: Parameters<typeof verifyBundle>[1] = { publicKey: keys.publicPath }) =>
    verifyBundle(bundle, { ...options, rejudge: MADE_UP })
      .checks.filter((c) => !c.ok)
      .map((c) => `${c.name}: ${c.detail}`)
      .join('\n');

  it('an untouched conformant bundle verifies (exit 0) and first says what it certifies', () => {
    const { code, out } = verify(conformant, ...trusted());
    expect(code, out).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe('What this bundle certifies:');
    // The embedded reference is named as itself: the name declared for it is a label.
    expect(out).toContain(
      `implementation:  animal-store-conformance embedded reference (declared as "reference@0.1.0": a label, not what was tested) (the suite's own code, named by the suite)`,
    );
    expect(out).toMatch(/plan: +enterprise:\d+:\d+/);
    expect(out).toMatch(/MUSTs tested: +(\d+) of \1 in scope/);
    expect(out).toMatch(/verdict: +CONFORMANT/);
    expect(out).toContain(`signer:          key sha256:${keys.keyid}`);
    expect(lines.at(-1)).toMatch(/^verified: an authentic certificate of a CONFORMANT run/);
    const json = verify(conformant, ...trusted(), '--format', 'json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ authentic: true, signed: true, verdict: 'conformant', summary: { signer: { fingerprint: keys.keyid } } });
  });

  it('a genuine NOT CONFORMANT bundle is authentic but exits 1 and says so; --any-verdict exits 0', () => {
    const plain = verify(notConformant, ...trusted());
    expect(plain.code, plain.out).toBe(1);
    expect(plain.out).toMatch(/authentic, but NOT a certificate of conformance: the run is NOT CONFORMANT/);
    expect(plain.out).not.toMatch(/^FAIL/m);
    const any = verify(notConformant, ...trusted(), '--any-verdict');
    expect(any.code, any.out).toBe(0);
  });

  it('a consistently edited unsigned bundle is refused; with --allow-unsigned the per-test outcomes still give it away', () => {
    // The forger flips the failing requirements to pass and re-renders everything with the suite's own writer.
    const report = readReport(notConformant);
    for (const r of report.requirements) {
      if (r.verdict === 'fail') Object.assign(r, { verdict: 'pass', failures: [], omittedFailures: 0 });
    }
    report.verdict = decideOverall(report.requirements, report.harnessErrors, report.deviations, report.run);
    const forged = join(dir, 'edited-unsigned');
    writeCertificationBundle(report, [], forged, { implementation: 'acme-store@2.3.1', force: true });
    const refused = verify(forged);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/FAIL signature: the bundle is not signed/);
    const integrity = verify(forged, '--allow-unsigned');
    expect(integrity.code).toBe(1);
    expect(integrity.out).toMatch(/FAIL requirements re-derived: verdicts their tests do not give: [A-Z]+-\d+: states pass, its tests give fail/);
    expect(integrity.out.split('\n').filter((line) => !line.includes('integrity only: anyone can produce an unsigned bundle'))).toEqual([]);
  });

  it('a transplanted signed statement (PASSED, same key, about other files) is refused', () => {
    const report = readReport(notConformant);
    for (const r of report.requirements) if (r.verdict === 'fail') Object.assign(r, { verdict: 'pass', failures: [], omittedFailures: 0 });
    report.verdict = decideOverall(report.requirements, report.harnessErrors, report.deviations, report.run);
    const forged = join(dir, 'transplanted');
    writeCertificationBundle(report, [], forged, { implementation: 'acme-store@2.3.1', force: true });
    writeFileSync(join(forged, ATTESTATION_FILE), readFileSync(join(conformant, ATTESTATION_FILE)));
    writeFileSync(join(forged, SIGNER_KEY_FILE), readFileSync(join(conformant, SIGNER_KEY_FILE)));
    const { code, out } = verify(forged, ...trusted());
    expect(code).toBe(1);
    expect(out).toMatch(/FAIL attested files: .*changed since signing/);
    expect(out).toMatch(
      /FAIL attested implementation: the statement is about animal-store-conformance embedded reference, the bundle declares acme-store@2\.3\.1/,
    );
  });

  it('a signed PASSED statement about another file entirely, with that file added, is refused', () => {
    const forged = copyBundle(notConformant, dir, 'other-file');
    const other = Buffer.from('another artefact the key once certified\n');
    writeFileSync(join(forged, 'other.tar'), other);
    const statement = statementFor(readReport(conformant), { name: 'other@1' }, [{ name: 'other.tar', sha256: sha256Hex(other) }]);
    writeFileSync(join(forged, ATTESTATION_FILE), `${JSON.stringify(signStatement(statement, loadPrivateKey(keys.privatePath)))}\n`);
    const problems = failing(forged);
    expect(problems).toContain('other.tar is in the bundle but not listed');
    expect(problems).toMatch(/attested files: badge\.svg is not attested; conformance\.html is not attested; conformance\.json is not attested/);
    expect(problems).toMatch(/attested result: the statement says PASSED; the report gives FAILED/);
  });

  it('an added file is refused, named', () => {
    const forged = copyBundle(conformant, dir, 'added');
    writeFileSync(join(forged, 'README.txt'), 'certified by us\n');
    const problems = failing(forged);
    expect(problems).toContain('README.txt is in the bundle but not listed');
    expect(problems).toContain('README.txt is not attested');
  });

  it('a removed file is refused, named', () => {
    const forged = copyBundle(conformant, dir, 'removed');
    unlinkSync(join(forged, 'badge.svg'));
    rehash(forged);
    const problems = failing(forged);
    expect(problems).toContain('missing: badge.svg');
    expect(problems).toContain('badge.svg is attested but not in the bundle');
    unsign(forged);
    expect(failing(forged, { allowUnsigned: true })).toContain('missing: badge.svg');
  });

  it('an edited per-test outcome with recomputed hashes is refused: by the signature, and by re-derivation', () => {
    const forged = copyBundle(conformant, dir, 'per-test');
    const report = readReport(forged);
    const victim = report.requirements.find((r) => r.level === 'MUST' && r.verdict === 'pass' && r.tests.length > 0);
    const test = victim?.tests[0];
    if (!victim || !test) throw new Error('the conformant run has a passing MUST');
    Object.assign(test, { state: 'failed', failureKind: 'conformance' });
    writeFileSync(join(forged, 'conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
    rehash(forged);
    const problems = failing(forged);
    expect(problems).toContain('conformance.json changed since signing');
    expect(problems).toContain(`${victim.id}: states pass, its tests give fail`);
    unsign(forged);
    expect(failing(forged, { allowUnsigned: true })).toContain(`${victim.id}: states pass, its tests give fail`);
  });

  it('an HTML report that shows NOT CONFORMANT beside a CONFORMANT report is refused (parsed, not searched)', () => {
    const forged = copyBundle(conformant, dir, 'html');
    const path = join(forged, 'conformance.html');
    writeFileSync(path, readFileSync(path, 'utf8').replace('<h1 class="verdict-word">CONFORMANT</h1>', '<h1 class="verdict-word">NOT CONFORMANT</h1>'));
    rehash(forged);
    unsign(forged);
    expect(failing(forged, { allowUnsigned: true })).toMatch(
      /conformance\.html agrees: conformance\.html shows NOT CONFORMANT and is not what conformance\.json renders/,
    );
  });

  it('an edited badge is refused', () => {
    const forged = copyBundle(notConformant, dir, 'badge');
    const report = readReport(forged);
    const flipped: ConformanceReport = { ...report, verdict: { ...report.verdict, overall: 'conformant', label: 'CONFORMANT' } };
    writeFileSync(join(forged, 'badge.svg'), renderBadge(flipped));
    rehash(forged);
    const problems = failing(forged);
    expect(problems).toMatch(
      /badge\.svg agrees: badge\.svg shows CONFORMANT and is not what conformance\.json renders; conformance\.json states NOT CONFORMANT/,
    );
    expect(problems).toContain('badge.svg changed since signing');
    unsign(forged);
    expect(failing(forged, { allowUnsigned: true })).toMatch(/badge\.svg agrees: badge\.svg shows CONFORMANT/);
  });

  it('a statement of another predicate type, signed by the same key, is refused', () => {
    const forged = copyBundle(conformant, dir, 'predicate');
    const envelope = JSON.parse(readFileSync(join(forged, ATTESTATION_FILE), 'utf8')) as { payload: string };
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Statement;
    const other = { ...statement, predicateType: 'https://slsa.dev/provenance/v1' } as unknown as Statement;
    writeFileSync(join(forged, ATTESTATION_FILE), `${JSON.stringify(signStatement(other, loadPrivateKey(keys.privatePath)))}\n`);
    expect(failing(forged)).toMatch(
      /statement type: .*predicate https:\/\/slsa\.dev\/provenance\/v1 \(expected https:\/\/in-toto\.io\/attestation\/test-result\/v0\.1\)/,
    );
  });

  it('a bundle of another suite (its identity changed), even signed by the trusted key, is refused', () => {
    const report = readReport(conformant);
    report.run.suiteIdentity = 'e'.repeat(64);
    const forged = join(dir, 'identity');
    writeCertificationBundle(report, [], forged, { signKey: loadPrivateKey(keys.privatePath), force: true });
    expect(failing(forged)).toMatch(/suite identity: made by suite identity e{64}; this suite is [0-9a-f]{64}/);
  });

  it('a signature by another key than the one given is refused', () => {
    const forged = copyBundle(conformant, dir, 'other-key');
    const other = writeKeyPair(join(dir, 'other-keys'));
    const { code, out } = verify(forged, '--public-key', other.publicPath);
    expect(code).toBe(1);
    expect(out).toContain(`FAIL signer: ${SIGNER_KEY_FILE} is key sha256:${keys.keyid}, not the key given (sha256:${other.keyid})`);
    expect(out).toContain(`FAIL signature: ${ATTESTATION_FILE}: no signature verifies with key sha256:${other.keyid}`);
  });

  it("a statement re-signed with the forger's own key is refused, and the forger's fingerprint is shown", () => {
    const report = readReport(notConformant);
    for (const r of report.requirements) if (r.verdict === 'fail') Object.assign(r, { verdict: 'pass', failures: [], omittedFailures: 0 });
    report.verdict = decideOverall(report.requirements, report.harnessErrors, report.deviations, report.run);
    const forger = generateKeyPairSync('ed25519');
    const forged = join(dir, 'self-signed');
    writeCertificationBundle(report, [], forged, { signKey: forger.privateKey, force: true });
    const unpinned = verify(forged);
    expect(unpinned.code).toBe(1);
    expect(unpinned.out).toMatch(/FAIL signer trusted: signed by key sha256:[0-9a-f]{64}, which nothing here vouches for/);
    expect(unpinned.out).toMatch(/signer: +key sha256:[0-9a-f]{64}/);
    expect(unpinned.out).not.toContain(keys.keyid);
    expect(verify(forged, '--signer', keys.keyid).out).toMatch(/FAIL signer trusted: signed by key sha256:[0-9a-f]{64}, not the signer you gave/);
    expect(verify(forged, ...trusted()).code).toBe(1);
  });

  it('a JSON file with a key given twice is refused (two readers would see two claims)', () => {
    const forged = copyBundle(conformant, dir, 'duplicate-key');
    const path = join(forged, 'manifest.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"verdict": "conformant",', '"verdict": "not-conformant",\n  "verdict": "conformant",'));
    expect(failing(forged)).toMatch(/manifest\.json cannot be read: .*duplicate key "verdict"/);
  });

  it('a manifest shaped to trip the checker (no target, files not a list) is refused, not a crash', () => {
    const forged = copyBundle(conformant, dir, 'malformed');
    const path = join(forged, 'manifest.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    delete manifest.target;
    delete manifest.implementation;
    manifest.files = 'all of them';
    writeFileSync(path, JSON.stringify(manifest));
    const result = verifyBundle(forged, { publicKey: keys.publicPath, rejudge: MADE_UP });
    expect(result.authentic).toBe(false);
    expect(verify(forged, ...trusted()).code).toBe(1);
  });

  it('a symlink in the bundle directory is refused', () => {
    const forged = copyBundle(conformant, dir, 'symlink');
    unlinkSync(join(forged, 'exchanges.har'));
    symlinkSync(join(conformant, 'exchanges.har'), join(forged, 'exchanges.har'));
    expect(failing(forged)).toContain('not plain files (symlinks, directories): exchanges.har');
  });

  it('a genuine unsigned bundle passes --allow-unsigned only, every line saying it is integrity only', () => {
    const unsigned = copyBundle(conformant, dir, 'unsigned');
    unsign(unsigned);
    expect(verify(unsigned).code).toBe(1);
    const { code, out } = verify(unsigned, '--allow-unsigned');
    expect(code, out).toBe(3);
    expect(out.split('\n').filter((line) => !line.endsWith('(integrity only: anyone can produce an unsigned bundle)'))).toEqual([]);
    expect(out).toMatch(/signer: +nobody whose signature verified: not a certificate/);
  });

  it('the signer key of the bundle alone is not trust: verify without --public-key or --signer refuses, --signer <fingerprint> accepts', () => {
    expect(verify(conformant).code).toBe(1);
    expect(verify(conformant, '--signer', keys.keyid).code).toBe(0);
  });
});
