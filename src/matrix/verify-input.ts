import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { HarnessError } from '../errors.ts';
import { keyId } from '../report/attestation.ts';
import { ATTESTATION_FILE, type BundleManifest, type ConformanceReport, MANIFEST_FILE, REPORT_FILES, loadPublicKey } from '../report/index.ts';
import { decideOverall } from '../report/overall-verdict.ts';
import type { MatrixInput } from './model.ts';

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
}

/** An input the matrix can show (trusted or not), or one it cannot read at all. */
export type InputOutcome = { input: MatrixInput } | { source: string; unreadable: string };

type Verifier = (dir: string, publicKeyPath?: string) => Array<{ ok: boolean; name: string; detail: string }>;

/**
 * Checks that say what a genuine run covered, not whether the bundle is genuine: a partial run's bundle is
 * authentic, and the matrix shows its verdict and scope in the column.
 */
const POLICY_CHECKS = new Set(['scope', 'certification grade']);

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

/** Every path, checked; the verifier is loaded once. */
export async function readInputs(paths: readonly string[], options: InputOptions): Promise<InputOutcome[]> {
  // Today's verifier lives in src/cli/; imported statically it would make cli → matrix → cli a cycle
  // between areas. When verification moves to src/certificate/, this becomes a static import of it.
  const { verifyBundle } = (await import('../cli/verify.ts')) as { verifyBundle: Verifier };
  const schema = reportValidator();
  return paths.map((path) => readInput(path, options, verifyBundle, schema));
}

function readInput(path: string, options: InputOptions, verify: Verifier, schema: (value: unknown) => string | undefined): InputOutcome {
  const verifyWith = (dir: string, key: TrustedKey | undefined) => adapt(verify(dir, key?.path), existsSync(join(dir, ATTESTATION_FILE)));
  if (!existsSync(path)) return { source: path, unreadable: 'no such file or directory' };
  const isDir = statSync(path).isDirectory();
  // A bundle's conformance.json given by itself is read as its bundle: that can only add checks.
  const bundle = isDir ? path : existsSync(join(dirname(path), MANIFEST_FILE)) && basename(path) === REPORT_FILES.json ? dirname(path) : undefined;
  const reportPath = bundle ? join(bundle, REPORT_FILES.json) : path;
  let report: ConformanceReport;
  try {
    const parsed: unknown = JSON.parse(readFileSync(reportPath, 'utf8'));
    const invalid = schema(parsed);
    if (invalid) return { source: path, unreadable: `${reportPath} does not follow spec/report.schema.json (${invalid})` };
    report = parsed as ConformanceReport;
  } catch (error) {
    return { source: path, unreadable: `${reportPath} cannot be read: ${(error as Error).message}` };
  }
  const suiteIdentity = (report.run as { suiteIdentity?: string }).suiteIdentity ?? `animal-store-conformance@${report.run.suiteVersion}`;
  const base = { source: path, suiteIdentity, report };

  if (!bundle) {
    const rederived = decideOverall(report.requirements, report.harnessErrors, report.deviations, report.run).overall;
    const problems = ['a bare report: nothing is signed or hashed, anyone can write one'];
    if (rederived !== report.verdict.overall)
      problems.push(`verdict re-derived: the per-requirement results give ${rederived}; the report states ${report.verdict.overall}`);
    if (!options.allowUnsigned) problems.push('an unsigned report is shown only with --allow-unsigned');
    const trust = options.allowUnsigned && problems.length === 1 ? 'unsigned-report' : 'not-verified';
    return { input: { ...base, trust, problems } };
  }

  const manifest = readManifest(bundle);
  const htmlPath = join(bundle, REPORT_FILES.html);
  const shown = {
    ...base,
    ...(manifest?.implementation ? { implementation: manifest.implementation } : {}),
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

/**
 * Today's verifier, adapted: its checks less the ones about what the run covered. At merge this becomes
 * `verifyBundle(dir, { publicKey: key?.key, allowUnsigned: true })` of src/certificate/, mapped the same way.
 */
function adapt(checks: ReturnType<Verifier>, signed: boolean): BundleVerdict {
  const problems = checks.filter((c) => !c.ok && !POLICY_CHECKS.has(c.name)).map((c) => `${c.name}: ${c.detail}`);
  const signature = checks.some((c) => c.name === 'signature' && c.ok);
  return { authentic: problems.length === 0 && (signature || !signed), signed: signed && signature, problems };
}

function readManifest(dir: string): BundleManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as BundleManifest;
  } catch {
    return undefined;
  }
}

/** spec/report.schema.json, compiled: an input that does not follow it is not shown at all. */
function reportValidator(): (value: unknown) => string | undefined {
  const ajv = new Ajv2020({ allErrors: false, strict: false, allowUnionTypes: true });
  addFormats.default(ajv);
  const schemaPath = fileURLToPath(new URL('../../spec/report.schema.json', import.meta.url));
  const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);
  return (value) => (validate(value) ? undefined : `${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message ?? ''}`.trim());
}
