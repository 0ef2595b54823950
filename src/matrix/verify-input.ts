import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { loadCatalog } from '../catalog/catalog.ts';
import {
  ATTESTATION_FILE,
  type BundleManifest,
  MANIFEST_FILE,
  type RejudgeOptions,
  type Verification,
  keyId,
  loadPublicKey,
  rederive,
  verifyBundle,
} from '../certificate/index.ts';
import { implementationClaim } from '../certificate/bundle-writer.ts';
import { parseStrictJson } from '../certificate/strict-json.ts';
import { HarnessError } from '../errors.ts';
import { type ConformanceReport, REPORT_FILES, reportContradictions } from '../report/index.ts';
import type { MatrixInput } from './matrix-types.ts';

/*
 * The matrix's one contact with verification: a bundle directory (or, with --allow-unsigned, a bare
 * conformance.json) becomes a MatrixInput whose `trust` says what was proven. Everything else in
 * src/matrix/ is pure and reads only MatrixInput.
 */

/** A key the user trusts (--public-key): where it came from, and its fingerprint. */
export interface TrustedKey {
  path: string;
  key: KeyObject;
  fingerprint: string;
}

export interface InputOptions {
  keys: readonly TrustedKey[];
  allowUnsigned: boolean;
  /** What verify's re-judging holds the tests to (RejudgeOptions): this suite's table unless given. */
  rejudge?: RejudgeOptions;
}

/** An input the matrix can show (trusted or not), or one it cannot read at all. */
export type InputOutcome = { input: MatrixInput } | { source: string; unreadable: string };

/**
 * Checks that say what a genuine run covered, not whether the bundle is genuine: the matrix shows a
 * bundle's verdict and scope in its column whatever they are.
 */
const POLICY_CHECKS = new Set(['certification grade']);

/** --public-key values: PEM files, or directories whose *.pem public keys are all trusted. */
export function loadTrustedKeys(paths: readonly string[]): TrustedKey[] {
  const files = paths.flatMap((path) => {
    if (!existsSync(path)) throw new HarnessError('ERR_CONFIG', `--public-key ${path}: no such file or directory`);
    if (!statSync(path).isDirectory()) return [path];
    return readdirSync(path)
      .filter((name) => name.endsWith('.pem'))
      .sort()
      .map((name) => join(path, name))
      .filter((file) => !readFileSync(file, 'utf8').includes('PRIVATE KEY'));
  });
  if (paths.length > 0 && files.length === 0) throw new HarnessError('ERR_CONFIG', `--public-key ${paths.join(', ')}: no public key (*.pem) found`);
  return files.map((path) => {
    const key = loadPublicKey(path);
    return { path, key, fingerprint: keyId(key) };
  });
}

/** Every path, checked by the certificate module's verifier (bundles) or the report's own rules (bare reports). */
export async function readInputs(paths: readonly string[], options: InputOptions): Promise<InputOutcome[]> {
  return paths.map((path) => readInput(path, options));
}

function readInput(path: string, options: InputOptions): InputOutcome {
  const verifyWith = (dir: string, key: TrustedKey | undefined) =>
    adapt(key ? verifyBundle(dir, { publicKey: key.key, rejudge: options.rejudge }) : verifyBundle(dir, { allowUnsigned: true, rejudge: options.rejudge }));
  if (!existsSync(path)) return { source: path, unreadable: 'no such file or directory' };
  const isDir = statSync(path).isDirectory();
  // A bundle's conformance.json given by itself is read as its bundle: that can only add checks.
  const bundle = isDir ? path : existsSync(join(dirname(path), MANIFEST_FILE)) && basename(path) === REPORT_FILES.json ? dirname(path) : undefined;
  const reportPath = bundle ? join(bundle, REPORT_FILES.json) : path;
  let report: ConformanceReport;
  let contradictions: string[];
  try {
    // Read as verify reads a bundle's files: strict UTF-8, no key twice.
    const parsed: unknown = parseStrictJson(readFileSync(reportPath));
    if (!hasReportShape(parsed)) return { source: path, unreadable: `${reportPath} is not a conformance report (no run, verdict and requirements)` };
    report = parsed;
    contradictions = reportContradictions(parsed);
  } catch (error) {
    return { source: path, unreadable: `${reportPath} cannot be read: ${(error as Error).message}` };
  }
  const suiteIdentity = (report.run as { suiteIdentity?: string }).suiteIdentity ?? `animal-store-conformance@${report.run.suiteVersion}`;
  const base = { source: path, suiteIdentity, report };

  if (!bundle) {
    // Re-derived from the per-test outcomes with the run's own verdict functions, as verify does.
    const rederived = rederive(report, loadCatalog());
    const problems = ['a bare report: nothing is signed or hashed, anyone can write one', ...contradictions.slice(0, 3)];
    if (rederived.verdict.overall !== report.verdict.overall || rederived.requirementMismatches.length > 0)
      problems.push(
        `verdict re-derived: the per-test outcomes give ${rederived.verdict.overall}${rederived.requirementMismatches.length ? ` (${rederived.requirementMismatches.slice(0, 3).join('; ')})` : ''}; the report states ${report.verdict.overall}`,
      );
    if (!options.allowUnsigned) problems.push('an unsigned report is shown only with --allow-unsigned');
    const trust = options.allowUnsigned && problems.length === 1 ? 'unsigned-report' : 'not-verified';
    return { input: { ...base, trust, problems } };
  }

  const manifest = readManifest(bundle);
  const htmlPath = join(bundle, REPORT_FILES.html);
  // The signed statement's subject digest: the artefact declared, or the suite identity for the embedded reference.
  const subjectDigest = subjectDigestOf(manifest);
  const shown = {
    ...base,
    // A name declared for the embedded reference is a label, not what was tested: the matrix never shows it as one.
    ...(manifest?.implementation && !manifest.target?.embedded ? { implementation: manifest.implementation } : {}),
    ...(subjectDigest ? { implementationDigest: `sha256:${subjectDigest}` } : {}),
    ...(existsSync(htmlPath) ? { reportHtml: htmlPath } : {}),
  };
  const signed = existsSync(join(bundle, ATTESTATION_FILE));
  if (signed && options.keys.length === 0)
    return { input: { ...shown, trust: 'not-verified', problems: ['the bundle is signed, but no --public-key was given: its signature is unchecked'] } };
  // A signed bundle is tried with each trusted key until one verifies it.
  let first: BundleVerdict | undefined;
  for (const key of signed ? options.keys : [undefined]) {
    const verification = verifyWith(bundle, key);
    if (verification.authentic && verification.signed && key)
      return { input: { ...shown, trust: 'verified', problems: [], signer: { fingerprint: key.fingerprint } } };
    if (verification.authentic && !verification.signed) {
      if (options.allowUnsigned)
        return { input: { ...shown, trust: 'unsigned-bundle', problems: ['unsigned bundle: integrity only, anyone can produce one'] } };
      return { input: { ...shown, trust: 'not-verified', problems: ['the bundle is not signed: shown only with --allow-unsigned'] } };
    }
    first ??= verification;
  }
  const problems = first?.problems.length ? first.problems : [`signature: no trusted key verifies ${ATTESTATION_FILE} (${options.keys.length} tried)`];
  if (!signed && !options.allowUnsigned) problems.push('the bundle is not signed: shown only with --allow-unsigned');
  return { input: { ...shown, trust: 'not-verified', problems } };
}

/** What the matrix needs from a verification (the certificate module's Verification has these fields). */
interface BundleVerdict {
  /** Every integrity and signature check holds (the run's verdict may be anything). */
  authentic: boolean;
  signed: boolean;
  /** The checks that do not hold, one line each. */
  problems: string[];
}

/** The certificate module's verification, less the checks about what the run covered (its scope shows in the column). */
function adapt(verification: Verification): BundleVerdict {
  const problems = verification.checks.filter((c) => !c.ok && !POLICY_CHECKS.has(c.name)).map((c) => `${c.name}: ${c.detail}`);
  return { authentic: problems.length === 0, signed: verification.signed, problems };
}

function subjectDigestOf(manifest: BundleManifest | undefined): string | undefined {
  try {
    return manifest ? implementationClaim(manifest).digest : undefined;
  } catch {
    return undefined;
  }
}

function readManifest(dir: string): BundleManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as BundleManifest;
  } catch {
    return undefined;
  }
}

/** Enough of a report's shape for the matrix to show it; whether it holds together is verification's question. */
function hasReportShape(value: unknown): value is ConformanceReport {
  if (typeof value !== 'object' || value === null) return false;
  const report = value as Partial<Record<'run' | 'verdict' | 'requirements', unknown>>;
  return (
    typeof report.run === 'object' &&
    report.run !== null &&
    typeof report.verdict === 'object' &&
    report.verdict !== null &&
    Array.isArray(report.requirements) &&
    report.requirements.every((r: unknown) => typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string')
  );
}
