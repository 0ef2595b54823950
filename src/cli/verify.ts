import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createContract } from '../contract/index.ts';
import { HarnessError } from '../errors.ts';
import {
  ATTESTATION_FILE,
  type ConformanceReport,
  type DsseEnvelope,
  HAR_FILE,
  REPORT_FILES,
  loadPublicKey,
  verifyEnvelope,
  writeKeyPair,
} from '../report/index.ts';
import { decideOverall } from '../report/overall-verdict.ts';
import type { BundleManifest } from '../report/certification-bundle.ts';
import { suiteVersion } from './paths.ts';

/** One check of a bundle: what was checked, and whether it holds. */
export interface BundleCheck {
  ok: boolean;
  name: string;
  detail: string;
}

/**
 * The certifier's bot: checks a certification bundle file by file and claim by claim. A bundle passes
 * only when every check holds; an edited byte names the file it was found in.
 */
export function verifyBundle(dir: string, publicKeyPath?: string): BundleCheck[] {
  const checks: BundleCheck[] = [];
  const add = (ok: boolean, name: string, detail: string) => checks.push({ ok, name, detail });
  const manifestPath = join(dir, 'manifest.json');
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BundleManifest;
  } catch (error) {
    add(false, 'manifest', `manifest.json cannot be read: ${(error as Error).message}`);
    return checks;
  }
  add(manifest.format === 'animal-store-conformance-bundle' && manifest.formatVersion === 1, 'manifest', 'manifest.json is a bundle manifest of format 1');

  for (const file of manifest.files ?? []) {
    const path = join(dir, file.name);
    if (!existsSync(path)) {
      add(false, `file ${file.name}`, `${file.name} is missing`);
      continue;
    }
    const bytes = readFileSync(path);
    const sha = createHash('sha256').update(bytes).digest('hex');
    add(
      sha === file.sha256 && bytes.length === file.bytes,
      `file ${file.name}`,
      sha === file.sha256 ? `${file.name} matches its sha256` : `${file.name} was changed: its sha256 is ${sha}, the manifest says ${file.sha256}`,
    );
  }
  const required = [...Object.values(REPORT_FILES), HAR_FILE];
  const missing = required.filter((name) => !(manifest.files ?? []).some((f) => f.name === name));
  add(missing.length === 0, 'files listed', missing.length === 0 ? 'every report file is listed' : `not listed in the manifest: ${missing.join(', ')}`);

  let report: ConformanceReport | undefined;
  try {
    report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  } catch {
    add(false, 'report', 'conformance.json cannot be read');
  }
  if (report) {
    const rederived = decideOverall(report.requirements, report.harnessErrors, report.deviations, report.run).overall;
    add(
      rederived === report.verdict.overall,
      'verdict re-derived',
      `the per-requirement results give ${rederived}; the report states ${report.verdict.overall}`,
    );
    add(
      manifest.verdict === report.verdict.overall,
      'manifest verdict',
      `the manifest states ${manifest.verdict}; the report states ${report.verdict.overall}`,
    );
    const untestedMust = report.verdict.scope.untested.filter((u) => u.level === 'MUST').map((u) => u.id);
    add(
      untestedMust.length === 0,
      'scope',
      untestedMust.length === 0
        ? `every MUST in scope tested (${report.verdict.scope.mustTested} of ${report.verdict.scope.mustInScope})`
        : `MUST requirements untested: ${untestedMust.join(', ')}`,
    );
    add(
      report.run.profile === 'thorough' && (report.run.only ?? []).length === 0 && !report.run.shard,
      'certification grade',
      `profile ${report.run.profile}${(report.run.only ?? []).length > 0 ? `, --only ${report.run.only?.join(',')}` : ''}${report.run.shard ? `, shard ${report.run.shard}` : ''}`,
    );
    add(report.run.suiteVersion === suiteVersion(), 'suite version', `made by suite ${report.run.suiteVersion}; this suite is ${suiteVersion()}`);
    add(
      report.run.specSha256 === createContract().sha256,
      'interface',
      `spec sha256 ${report.run.specSha256.slice(0, 16)}… ${report.run.specSha256 === createContract().sha256 ? 'is' : 'is not'} this suite's`,
    );
    const deviations = createHash('sha256').update(JSON.stringify(report.deviations)).digest('hex');
    add(
      manifest.deviations?.sha256 === deviations,
      'deviations',
      manifest.deviations?.sha256 === deviations
        ? `${report.deviations.length} declared deviations, as the manifest records`
        : 'the deviations in the report differ from those the manifest records',
    );
    const junit = readIfThere(join(dir, 'junit.xml'));
    const failing = report.requirements.filter((r) => r.verdict === 'fail').length;
    // The per-area suites count the failing requirements; the first suite is the run's verdict itself.
    const areaSuites = [...(junit ?? '').matchAll(/<testsuite name="([^"]*)"[^>]*\sfailures="(\d+)"/g)].filter((m) => m[1] !== 'conformance');
    const junitFailures = junit === undefined ? Number.NaN : areaSuites.reduce((n, m) => n + Number(m[2]), 0);
    add(
      junitFailures === failing,
      'junit agrees',
      `junit.xml counts ${Number.isNaN(junitFailures) ? 'no' : junitFailures} failures; conformance.json ${failing}`,
    );
    const html = readIfThere(join(dir, REPORT_FILES.html)) ?? '';
    add(
      html.includes(report.verdict.label),
      'html agrees',
      `conformance.html ${html.includes(report.verdict.label) ? 'states' : 'does not state'} ${report.verdict.label}`,
    );
  }

  const envelopePath = join(dir, ATTESTATION_FILE);
  if (!existsSync(envelopePath)) {
    add(
      publicKeyPath === undefined,
      'signature',
      publicKeyPath === undefined ? 'the bundle is not signed (no key given, nothing to check)' : `${ATTESTATION_FILE} is missing: the bundle is not signed`,
    );
  } else if (publicKeyPath === undefined) {
    add(false, 'signature', `the bundle is signed: give --public-key to check ${ATTESTATION_FILE}`);
  } else {
    const envelope = JSON.parse(readFileSync(envelopePath, 'utf8').trim().split('\n')[0] ?? '{}') as DsseEnvelope;
    const statement = verifyEnvelope(envelope, loadPublicKey(publicKeyPath));
    add(
      statement !== undefined,
      'signature',
      statement ? `${ATTESTATION_FILE} is signed by the given key` : `${ATTESTATION_FILE}: no signature verifies with the given key`,
    );
    if (statement) {
      const changed = statement.subject.filter((s) => {
        const path = join(dir, s.name);
        return !existsSync(path) || createHash('sha256').update(readFileSync(path)).digest('hex') !== s.digest.sha256;
      });
      add(
        changed.length === 0,
        'attested files',
        changed.length === 0
          ? `the ${statement.subject.length} attested files are unchanged`
          : `changed since signing: ${changed.map((s) => s.name).join(', ')}`,
      );
      const result = report?.verdict.overall === 'conformant' ? ['PASSED', 'WARNED'] : ['FAILED'];
      add(
        result.includes(statement.predicate.result),
        'attested result',
        `the attestation says ${statement.predicate.result}; the report says ${report?.verdict.overall ?? 'nothing'}`,
      );
    }
  }
  return checks;
}

function readIfThere(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** `verify <bundle> [--public-key <pem>]`: one line per check, exit 0 only when all hold. */
export function runVerify(argv: readonly string[], log: (line: string) => void): number {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { 'public-key': { type: 'string' } } });
    if (positionals.length !== 1) throw new HarnessError('ERR_CONFIG', 'verify needs one bundle directory');
    const checks = verifyBundle(positionals[0] as string, values['public-key']);
    for (const check of checks) log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`);
    const failed = checks.filter((c) => !c.ok).length;
    log(failed === 0 ? `verified: ${checks.length} checks hold` : `NOT verified: ${failed} of ${checks.length} checks fail`);
    return failed === 0 ? 0 : 1;
  } catch (error) {
    log(`animal-store-conformance verify: ${(error as Error).message}`);
    return 2;
  }
}

/** `keygen <dir>`: writes an Ed25519 key pair for --sign-key and verify --public-key. */
export function runKeygen(argv: readonly string[], log: (line: string) => void): number {
  if (argv.length !== 1) {
    log('Usage: animal-store-conformance keygen <dir>');
    return 2;
  }
  const { privatePath, publicPath, keyid } = writeKeyPair(argv[0] as string);
  log(`private key: ${privatePath} (keep it secret; --sign-key)`);
  log(`public key:  ${publicPath} (publish it; verify --public-key)`);
  log(`key id:      ${keyid}`);
  return 0;
}
