import { type KeyObject } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../catalog/catalog.ts';
import { createContract } from '../contract/index.ts';
import type { ConformanceReport } from '../report/report-types.ts';
import { REPORT_FILES } from '../report/write-reports.ts';
import { ATTESTATION_FILE, type DsseEnvelope, keyId, sha256Hex, verifiedPayload } from './attestation.ts';
import { BADGE_FILE } from './badge.ts';
import { type BundleManifest, BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, HAR_FILE, MANIFEST_FILE, SIGNER_KEY_FILE } from './bundle-writer.ts';
import { loadPublicKey, parsePublicKey, publicKeyPem } from './keys.ts';
import { type BundleCheck, agreementChecks, reportChecks, schemaCheck } from './report-checks.ts';
import { type RejudgeOptions, rejudgeCheck } from './rejudge.ts';
import { envelopeExtras, oneLine } from './envelope-checks.ts';
import { namingCheck, statementChecks } from './statement-checks.ts';
import { isRecord, parseStrictJson } from './strict-json.ts';
import { suiteIdentity } from './suite-identity.ts';
import { type CertifiedSummary, summaryOf } from './summary.ts';

export interface VerifyOptions {
  /** The signer's public key the certifier trusts: a KeyObject, or the path of a PEM file. */
  publicKey?: KeyObject | string;
  /** Or the trusted signer's fingerprint (sha256 of its SPKI DER, hex), checked against the bundle's signer key. */
  signer?: string;
  /** Accept an unsigned bundle for an integrity check only: anyone can produce an unsigned bundle. */
  allowUnsigned?: boolean;
  /** What rejudge holds the run's tests to (see RejudgeOptions): this suite's table unless given. */
  rejudge?: RejudgeOptions;
}

export interface Verification {
  /** Every check holds: the bundle is what its (trusted) signer attested, and its claims agree. */
  authentic: boolean;
  signed: boolean;
  /** The run's overall verdict (conformant, not-conformant, partial, incomplete), or "unknown". */
  verdict: string;
  summary?: CertifiedSummary;
  checks: BundleCheck[];
  report?: ConformanceReport;
  manifest?: BundleManifest;
}

/** Files the signature layer adds; every other file of a bundle is a subject of the signed statement. */
const SIGNATURE_FILES = new Set([ATTESTATION_FILE, SIGNER_KEY_FILE]);
const REQUIRED = [REPORT_FILES.json, REPORT_FILES.html, REPORT_FILES.junit, HAR_FILE, BADGE_FILE, MANIFEST_FILE];

/**
 * The certifier's check of a bundle, file by file and claim by claim. `authentic` only when the bundle
 * is signed by the trusted key (or unsigned with allowUnsigned), every file and no other is attested with
 * its sha256, the statement is exactly what the bundle's files give, and the report's verdict follows
 * from its per-test outcomes. Whether the verdict is CONFORMANT is the caller's question (`verdict`).
 */
export function verifyBundle(dir: string, options: VerifyOptions = {}): Verification {
  const checks: BundleCheck[] = [];
  try {
    return checkBundle(dir, options, checks);
  } catch (error) {
    // A file shaped to trip the checker is a refusal, never a pass and never a crash.
    checks.push({ ok: false, name: 'bundle', detail: `the bundle could not be checked: ${(error as Error).message}` });
    return { authentic: false, signed: false, verdict: 'unknown', checks };
  }
}

function checkBundle(dir: string, options: VerifyOptions, checks: BundleCheck[]): Verification {
  const add = (ok: boolean, name: string, detail: string) => checks.push({ ok, name, detail });
  const done = (extra: Partial<Verification> = {}): Verification => ({
    authentic: checks.length > 0 && checks.every((c) => c.ok),
    signed: false,
    verdict: 'unknown',
    checks,
    ...extra,
  });

  // Every entry must be a plain file: a symlink could point anywhere, a directory hide anything.
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    add(false, 'bundle', `${dir} cannot be read: ${(error as Error).message}`);
    return done();
  }
  const odd = names.filter((n) => !lstatSync(join(dir, n)).isFile());
  add(odd.length === 0, 'plain files', odd.length === 0 ? `${names.length} plain files` : `not plain files (symlinks, directories): ${odd.join(', ')}`);
  const files = new Map(names.filter((n) => !odd.includes(n)).map((n) => [n, readFileSync(join(dir, n))]));
  const missing = REQUIRED.filter((n) => !files.has(n));
  add(missing.length === 0, 'files present', missing.length === 0 ? 'every file of a bundle is present' : `missing: ${missing.join(', ')}`);

  // The bundle's content: every file but the signature layer, each with its digest.
  const content = [...files].filter(([name]) => !SIGNATURE_FILES.has(name)).map(([name, bytes]) => ({ name, bytes: bytes.length, sha256: sha256Hex(bytes) }));
  const manifest = readJson(files, MANIFEST_FILE, add) as BundleManifest | undefined;
  // The file hashes first: an edited byte is named by its file even when it leaves the file unreadable.
  if (manifest) checks.push(manifestFilesCheck(manifest, content));
  const report = readJson(files, REPORT_FILES.json, add) as ConformanceReport | undefined;
  if (!manifest || !report) return done();
  add(
    manifest.format === BUNDLE_FORMAT && manifest.formatVersion === BUNDLE_FORMAT_VERSION,
    'manifest format',
    `manifest.json is a bundle manifest of format ${String(manifest.formatVersion)} (this suite writes ${BUNDLE_FORMAT_VERSION})`,
  );
  // A report that breaks the schema or contradicts itself is refused, and every other check still runs,
  // so a forgery is named wherever it shows; a check a malformed report trips up is a failing check.
  checks.push(schemaCheck(report));
  const guarded = (name: string, run: () => BundleCheck[]) => {
    try {
      checks.push(...run());
    } catch (error) {
      add(false, name, `could not be checked on this report: ${(error as Error).message}`);
    }
  };
  const contract = createContract();
  guarded('report', () => reportChecks(report, { identity: suiteIdentity(), specSha256: contract.sha256, catalog: loadCatalog() }));
  const text = (name: string) => files.get(name)?.toString('utf8');
  guarded('implementation named', () => [namingCheck(manifest)]);
  guarded('agreement', () => agreementChecks(report, manifest, { html: text(REPORT_FILES.html), junit: text(REPORT_FILES.junit), badge: text(BADGE_FILE) }));
  // The verdict is a function of the signed traffic: every finding, pass and verdict again from the log.
  const harBytes = files.get(HAR_FILE);
  if (harBytes) guarded('rejudged', () => [rejudgeCheck(report, parseStrictJson(harBytes), loadCatalog(), contract, options.rejudge)]);

  const signature = attestationChecks(files, options, add, report, manifest, content, checks);
  let summary: CertifiedSummary | undefined;
  try {
    summary = summaryOf(report, manifest, signature.fingerprint);
  } catch {
    summary = undefined;
  }
  return done({
    signed: signature.fingerprint !== undefined && signature.payload !== undefined,
    verdict: typeof report.verdict?.overall === 'string' ? report.verdict.overall : 'unknown',
    ...(summary ? { summary } : {}),
    report,
    manifest,
  });
}

function attestationChecks(
  files: ReadonlyMap<string, Buffer>,
  options: VerifyOptions,
  add: (ok: boolean, name: string, detail: string) => void,
  report: ConformanceReport,
  manifest: BundleManifest,
  content: ReadonlyArray<{ name: string; sha256: string }>,
  checks: BundleCheck[],
): { payload?: Buffer; fingerprint?: string } {
  const signature = signatureChecks(files, options, add);
  if (!signature.payload) return signature;
  try {
    checks.push(...statementChecks(signature.payload, report, manifest, content));
  } catch (error) {
    add(false, 'statement', `the signed statement could not be compared with the bundle: ${(error as Error).message}`);
  }
  return signature;
}

function readJson(
  files: ReadonlyMap<string, Buffer>,
  name: string,
  add: (ok: boolean, name: string, detail: string) => void,
): Record<string, unknown> | undefined {
  const bytes = files.get(name);
  if (!bytes) return undefined;
  try {
    const value = parseStrictJson(bytes);
    if (!isRecord(value)) throw new Error('not a JSON object');
    return value;
  } catch (error) {
    add(false, name, `${name} cannot be read: ${(error as Error).message}`);
    return undefined;
  }
}

/** The manifest lists every content file but itself, with the right size and sha256, and no other. */
function manifestFilesCheck(manifest: BundleManifest, content: ReadonlyArray<{ name: string; bytes: number; sha256: string }>): BundleCheck {
  const listed = Array.isArray(manifest.files) ? manifest.files : [];
  const actual = content.filter((f) => f.name !== MANIFEST_FILE);
  const problems = [
    ...listed.filter((f) => !actual.some((a) => a.name === f.name)).map((f) => `${f.name} is listed but not in the bundle`),
    ...actual.filter((a) => !listed.some((f) => f.name === a.name)).map((a) => `${a.name} is in the bundle but not listed`),
    ...actual
      .filter((a) => listed.some((f) => f.name === a.name && (f.sha256 !== a.sha256 || f.bytes !== a.bytes)))
      .map((a) => `${a.name} was changed: its sha256 is ${a.sha256}, the manifest says ${listed.find((f) => f.name === a.name)?.sha256 ?? '?'}`),
  ];
  if (new Set(listed.map((f) => f.name)).size !== listed.length) problems.push('a file is listed twice');
  return {
    ok: problems.length === 0,
    name: 'manifest files',
    detail: problems.length === 0 ? `the ${actual.length} files listed match their sha256` : problems.join('; '),
  };
}

/**
 * The signature layer: the DSSE envelope must verify with the trusted key. The key is the one given, or
 * the bundle's own signer key pinned by its fingerprint; a key nobody vouches for proves nothing.
 */
function signatureChecks(
  files: ReadonlyMap<string, Buffer>,
  options: VerifyOptions,
  add: (ok: boolean, name: string, detail: string) => void,
): { payload?: Buffer; fingerprint?: string } {
  const envelopeBytes = files.get(ATTESTATION_FILE);
  if (!envelopeBytes) {
    // A certifier who names a signer asks for that signer's bundle: an unsigned one is not it.
    const pinned = options.publicKey !== undefined || options.signer !== undefined;
    if (pinned) add(false, 'signer trusted', 'you gave a signer (--public-key or --signer), but the bundle is not signed by anyone');
    add(
      options.allowUnsigned === true && !files.has(SIGNER_KEY_FILE),
      'signature',
      options.allowUnsigned === true
        ? 'the bundle is not signed (--allow-unsigned): integrity only, anyone can produce an unsigned bundle'
        : `the bundle is not signed (no ${ATTESTATION_FILE}): refused, anyone can produce an unsigned bundle (--allow-unsigned checks its integrity only)`,
    );
    return {};
  }
  let envelope: DsseEnvelope | undefined;
  try {
    const value = parseStrictJson(oneLine(envelopeBytes.toString('utf8')));
    if (!isRecord(value)) throw new Error('not a JSON object');
    envelope = value as unknown as DsseEnvelope;
  } catch (error) {
    add(false, 'signature', `${ATTESTATION_FILE} cannot be read: ${(error as Error).message}`);
    return {};
  }
  const bundleKeyPem = files.get(SIGNER_KEY_FILE);
  let key: KeyObject;
  try {
    const given = options.publicKey === undefined ? undefined : typeof options.publicKey === 'string' ? loadPublicKey(options.publicKey) : options.publicKey;
    const own = bundleKeyPem ? parsePublicKey(bundleKeyPem, SIGNER_KEY_FILE) : undefined;
    if (own && bundleKeyPem && !bundleKeyPem.equals(Buffer.from(publicKeyPem(own))))
      add(false, 'signer key file', `${SIGNER_KEY_FILE} is not exactly the PEM this suite writes for its key: nothing else may sit in the file`);
    if (given && own && keyId(given) !== keyId(own)) {
      add(false, 'signer', `${SIGNER_KEY_FILE} is key sha256:${keyId(own)}, not the key given (sha256:${keyId(given)})`);
    }
    const chosen = given ?? own;
    if (!chosen) throw new Error(`no key to check it with: give --public-key (the bundle has no ${SIGNER_KEY_FILE})`);
    key = chosen;
  } catch (error) {
    add(false, 'signature', (error as Error).message);
    return {};
  }
  const fingerprint = keyId(key);
  const extras = envelopeExtras(envelope, fingerprint);
  add(
    extras.length === 0,
    'envelope',
    extras.length === 0 ? `one signature, by key sha256:${fingerprint}, and nothing unsigned beside it` : `${ATTESTATION_FILE}: ${extras.join('; ')}`,
  );
  const payload = verifiedPayload(envelope, key);
  add(
    payload !== undefined,
    'signature',
    payload ? `${ATTESTATION_FILE} is signed by key sha256:${fingerprint}` : `${ATTESTATION_FILE}: no signature verifies with key sha256:${fingerprint}`,
  );
  const wanted = options.signer?.toLowerCase().replace(/^sha256:/, '');
  // --public-key and --signer both pin the signer: given together, they must name the same key.
  const trusted = payload !== undefined && (options.publicKey !== undefined || wanted !== undefined) && (wanted === undefined || wanted === fingerprint);
  add(
    trusted,
    'signer trusted',
    trusted
      ? `key sha256:${fingerprint} is the signer you gave`
      : payload === undefined
        ? `no signature of key sha256:${fingerprint} verifies: the bundle names no signer you trust`
        : wanted !== undefined
          ? `signed by key sha256:${fingerprint}, not the signer you gave (${options.signer ?? ''})`
          : `signed by key sha256:${fingerprint}, which nothing here vouches for (anyone can sign with their own key): give --public-key <pem> or --signer <fingerprint> of the signer you trust`,
  );
  // Only a key whose signature verified is a signer: a key that verified nothing is named by no summary.
  if (!payload) return {};
  return { ...(payload ? { payload } : {}), fingerprint };
}
