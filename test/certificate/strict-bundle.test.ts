import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import {
  ATTESTATION_FILE,
  SIGNER_KEY_FILE,
  type Statement,
  loadPrivateKey,
  signStatement,
  suiteIdentity,
  writeCertificationBundle,
  writeKeyPair,
} from '../../src/certificate/index.ts';
import { runVerify } from '../../src/cli/verify.ts';
import { createContract } from '../../src/contract/index.ts';
import { buildReport } from '../../src/report/build-report.ts';
import type { TestOutcome } from '../../src/report/report-types.ts';
import { runInfo } from '../support/report-builders.ts';
import { sampleReport } from '../support/sample-report.ts';
import { copyBundle, notConformantBundle, notConformantRun, readReport } from './bundles.ts';
import { MADE_UP } from './logged-run.ts';

/** Nothing unsigned rides along: the envelope, the key files and the statement hold exactly what is signed. */
describe('a strict bundle: one signature, no extras, the catalog as this suite states it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strict-bundle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let keys: ReturnType<typeof writeKeyPair>;
  let genuine: string;

  beforeAll(() => {
    keys = writeKeyPair(join(dir, 'keys'));
    genuine = notConformantBundle(dir, loadPrivateKey(keys.privatePath));
  });

  function verify(bundle: string, ...flags: string[]): { code: number; out: string } {
    const lines: string[] = [];
    const code = runVerify([bundle, ...flags], (line) => lines.push(line), MADE_UP);
    return { code, out: lines.join('\n') };
  }
  const trusted = (...more: string[]) => ['--public-key', keys.publicPath, '--any-verdict', ...more];
  const envelopeOf = (bundle: string) =>
    JSON.parse(readFileSync(join(bundle, ATTESTATION_FILE), 'utf8')) as Record<string, unknown> & {
      signatures: Array<Record<string, string>>;
      payload: string;
    };
  const writeEnvelope = (bundle: string, envelope: object) => writeFileSync(join(bundle, ATTESTATION_FILE), `${JSON.stringify(envelope)}\n`);

  it('the genuine bundle verifies with --any-verdict', () => {
    const { code, out } = verify(genuine, ...trusted());
    expect(code, out).toBe(0);
    expect(out).toContain('ok   envelope: one signature');
  });

  it('an envelope with a note, a bogus second signature or a relabelled keyid is refused', () => {
    const noted = copyBundle(genuine, dir, 'noted');
    writeEnvelope(noted, { ...envelopeOf(noted), note: 'certified by the board' });
    expect(verify(noted, ...trusted()).out).toMatch(/FAIL envelope: .*unsigned fields in the envelope: note/);

    const twice = copyBundle(genuine, dir, 'twice');
    const envelope = envelopeOf(twice);
    writeEnvelope(twice, { ...envelope, signatures: [...envelope.signatures, { keyid: 'board', sig: 'AAAA' }] });
    expect(verify(twice, ...trusted()).out).toMatch(/FAIL envelope: .*2 signatures: a bundle carries exactly one/);

    const relabelled = copyBundle(genuine, dir, 'relabelled');
    const original = envelopeOf(relabelled);
    writeEnvelope(relabelled, { ...original, signatures: [{ ...original.signatures[0], keyid: 'certification-board-key' }] });
    const result = verify(relabelled, ...trusted());
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/FAIL envelope: .*keyid is certification-board-key, not the signing key's fingerprint/);
  });

  it('an attestation with a whitespace line, a CR or a second line beside its envelope is refused', () => {
    const line = readFileSync(join(genuine, ATTESTATION_FILE), 'utf8').trimEnd();
    for (const [label, text] of [
      ['blank-line', `${line}\n\n`],
      ['whitespace-line', `${line}\n   \n`],
      ['leading-line', ` \n${line}\n`],
      ['crlf', `${line}\r\n`],
      ['padded', `${line}  \n`],
    ] as const) {
      const forged = copyBundle(genuine, dir, `attestation-${label}`);
      writeFileSync(join(forged, ATTESTATION_FILE), text);
      const { code, out } = verify(forged, ...trusted());
      expect(code, label).toBe(1);
      expect(out, label).toMatch(/FAIL signature: attestation\.intoto\.jsonl cannot be read: .*(exactly one|lines)/);
    }
    // Without its final line feed the one line still verifies: nothing rides along.
    const bare = copyBundle(genuine, dir, 'attestation-no-final-lf');
    writeFileSync(join(bare, ATTESTATION_FILE), line);
    expect(verify(bare, ...trusted()).code).toBe(0);
  });

  it('a key file with text around its PEM block is refused, in the bundle and as --public-key', () => {
    const padded = copyBundle(genuine, dir, 'padded-key');
    const pem = readFileSync(join(padded, SIGNER_KEY_FILE), 'utf8');
    writeFileSync(join(padded, SIGNER_KEY_FILE), `Issued by the Animal Store certification board\n${pem}`);
    expect(verify(padded, '--signer', keys.keyid, '--any-verdict').out).toMatch(
      /FAIL signature: signer\.pub\.pem: not an Ed25519 public key in PEM \(the file must hold one PUBLIC KEY block/,
    );

    const given = join(dir, 'padded.pub.pem');
    writeFileSync(given, `${pem}trust me\n`);
    const withGiven = verify(genuine, '--public-key', given, '--any-verdict');
    expect(withGiven.code).toBe(1);
    expect(withGiven.out).toMatch(/one PUBLIC KEY block and nothing else/);
  });

  it('extra fields inside a file subject, signed by the trusted key, are refused: nothing else is signed', () => {
    const extra = copyBundle(genuine, dir, 'subject-extras');
    const statement = JSON.parse(Buffer.from(envelopeOf(extra).payload, 'base64').toString('utf8')) as Statement;
    const file = statement.subject[1] as unknown as Record<string, unknown>;
    Object.assign(file, { uri: 'https://example.com/x', annotations: { certified: 'yes' }, digest: { ...(file.digest as object), sha512: 'ab'.repeat(64) } });
    writeEnvelope(extra, signStatement(statement, loadPrivateKey(keys.privatePath)));
    const { code, out } = verify(extra, ...trusted());
    expect(code).toBe(1);
    expect(out).toMatch(/FAIL attested files: \S+ carries fields this suite does not sign: uri, annotations, sha512/);
    expect(out).toMatch(/FAIL statement fields: the statement is not exactly the one the bundle gives/);
  });

  it('a requirement reworded (text, source) and re-signed by the trusted key is refused against the catalog', () => {
    const report = readReport(genuine);
    const sch = report.requirements.find((r) => r.id === 'SCH-002');
    if (!sch) throw new Error('the catalog holds SCH-002');
    Object.assign(sch, { text: 'Anything goes.', source: 'nowhere' });
    const reworded = mkdtempSync(join(dir, 'reworded-'));
    writeCertificationBundle(report, [], reworded, { implementation: 'acme-store@2.3.1', signKey: loadPrivateKey(keys.privatePath), force: true });
    const { code, out } = verify(reworded, ...trusted());
    expect(code).toBe(1);
    expect(out).toMatch(/FAIL catalog: SCH-002: the report states it otherwise than the catalog/);
  });

  it('--format json parses whatever the bundle holds: C1 controls and bidi overrides are \\u escapes', () => {
    const report = readReport(genuine);
    const named = mkdtempSync(join(dir, 'named-'));
    const name = 'acme\u0085store\u202e@1';
    writeCertificationBundle(report, [], named, { implementation: name, signKey: loadPrivateKey(keys.privatePath), force: true });
    const { out } = verify(named, ...trusted('--format', 'json'));
    expect(out).not.toContain('\\x85');
    expect(/^[\x20-\x7e\n]*$/.test(out)).toBe(true);
    expect((JSON.parse(out) as { summary: { implementation: string } }).summary.implementation).toBe(name);
  });

  it('--allow-unsigned never exits 0: exit 3 and certificate false, even with --any-verdict', () => {
    const unsigned = copyBundle(genuine, dir, 'unsigned');
    rmSync(join(unsigned, ATTESTATION_FILE));
    rmSync(join(unsigned, SIGNER_KEY_FILE));
    expect(verify(unsigned, '--allow-unsigned', '--any-verdict').code).toBe(3);
    const json = verify(unsigned, '--allow-unsigned', '--any-verdict', '--format', 'json');
    expect(json.code).toBe(3);
    expect(JSON.parse(json.out)).toMatchObject({ authentic: true, signed: false, certificate: false, exitCode: 3 });
  });

  it('an authentic INCOMPLETE bundle is accepted with --any-verdict, and refused without it', () => {
    // A run stopped by its deadline: the tests it never reached are not run, each untested for that problem.
    const sample = sampleReport({ exchangesPerTest: 1 });
    const tests = sample.tests.map((t): TestOutcome => {
      const { failure: _failure, skipCode: _code, ...meta } = t.meta ?? { requirementId: '', level: 'MUST', area: '', findings: [], exchanges: [] };
      return {
        ...t,
        state: 'skipped',
        notRun: true,
        skipNote: 'did not run: the run ended first',
        meta: { ...meta, findings: [], exchanges: [], skipReason: 'did not run: the run ended first' },
      };
    });
    const report = buildReport({
      runInfo: runInfo({ profile: 'thorough', suiteIdentity: suiteIdentity(), specSha256: createContract().sha256, plan: 'pro' }),
      catalog: loadCatalog(),
      tests,
      harnessErrors: [{ code: 'ERR_DEADLINE', message: 'the run reached its --max-duration' }],
      strict: false,
    });
    expect(report.verdict.overall).toBe('incomplete');
    const incomplete = mkdtempSync(join(dir, 'incomplete-'));
    writeCertificationBundle(report, [], incomplete, {
      implementation: 'acme-store@2.3.1',
      signKey: loadPrivateKey(keys.privatePath),
      force: true,
    });
    const any = verify(incomplete, ...trusted());
    expect(any.code, any.out).toBe(0);
    expect(any.out).toContain('verified: an authentic bundle of a INCOMPLETE run (--any-verdict)');
    expect(verify(incomplete, '--public-key', keys.publicPath).code).toBe(1);
  });
});

describe('verify takes a policy: what the certificate must be of', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verify-policy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let keys: ReturnType<typeof writeKeyPair>;
  let bundle: string;

  beforeAll(() => {
    keys = writeKeyPair(join(dir, 'keys'));
    // A signed, CONFORMANT-shaped bundle is not needed: --any-verdict isolates the policy's own exit code.
    const { report, exchanges } = notConformantRun();
    bundle = mkdtempSync(join(dir, 'pinned-'));
    writeCertificationBundle(report, exchanges, bundle, {
      implementation: 'acme-store@2.3.1',
      implementationDigest: 'cd'.repeat(32),
      signKey: loadPrivateKey(keys.privatePath),
      force: true,
    });
  });

  function verify(...flags: string[]): { code: number; out: string } {
    const lines: string[] = [];
    const code = runVerify([bundle, '--public-key', keys.publicPath, '--any-verdict', ...flags], (line) => lines.push(line), MADE_UP);
    return { code, out: lines.join('\n') };
  }

  it('without a policy it prints what to pin', () => {
    const { code, out } = verify();
    expect(code, out).toBe(0);
    expect(out).toContain(
      `No policy given: pin what you certify, e.g. verify <bundle> --signer ${keys.keyid} --implementation acme-store@2.3.1 --implementation-digest sha256:${'cd'.repeat(32)} --plan pro --suite-identity ${suiteIdentity()}`,
    );
  });

  it('the pinned values the bundle holds pass', () => {
    const ended = readReport(bundle).run.endedAt;
    const { code, out } = verify(
      '--implementation',
      'acme-store@2.3.1',
      '--implementation-digest',
      `sha256:${'cd'.repeat(32)}`,
      '--plan',
      'pro',
      '--suite-identity',
      suiteIdentity(),
      '--not-before',
      ended.slice(0, 10),
    );
    expect(code, out).toBe(0);
    expect(out).not.toContain('No policy given');
  });

  it.each([
    [['--implementation', 'acme-store@2.3.2'], 'implementation'],
    [['--implementation-digest', `sha256:${'ef'.repeat(32)}`], 'implementation digest'],
    [['--plan', 'business'], 'plan'],
    [['--suite-identity', 'ab'.repeat(32)], 'suite identity'],
    [['--not-before', '2999-01-01'], 'not before'],
    [['--max-age', '1'], 'max age'],
  ])('%j: a mismatch exits 1 and names it', (flags, name) => {
    const { code, out } = verify(...flags);
    expect(code, out).toBe(1);
    expect(out).toContain(`FAIL policy ${name}: the bundle says`);
    expect(out).toContain(`NOT the certificate asked for: ${name} does not match`);
    const json = verify(...flags, '--format', 'json');
    expect(JSON.parse(json.out)).toMatchObject({ certificate: false, exitCode: 1 });
  });

  it('a policy value that cannot mean anything is a usage error (exit 2)', () => {
    expect(verify('--not-before', 'yesterday').code).toBe(2);
    expect(verify('--max-age', '-3').code).toBe(2);
    expect(verify('--implementation-digest', 'md5:00').code).toBe(2);
  });
});
