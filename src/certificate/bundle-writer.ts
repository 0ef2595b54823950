import { createPublicKey, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Exchange } from '../client/exchange.ts';
import { HarnessError } from '../errors.ts';
import { HAR_FILE, writeHar } from '../report/har.ts';
import type { ConformanceReport } from '../report/report-types.ts';
import { writeReports } from '../report/write-reports.ts';
import { ATTESTATION_FILE, type ImplementationClaim, sha256Hex, signStatement, statementFor } from './attestation.ts';
import { BADGE_FILE, badgeMarkdown, renderBadge } from './badge.ts';

export { HAR_FILE };
export const MANIFEST_FILE = 'manifest.json';
/** The signer's public key, so anyone can see who signed (its fingerprint) and check the signature. */
export const SIGNER_KEY_FILE = 'signer.pub.pem';
export const BUNDLE_FORMAT = 'animal-store-conformance-bundle';
export const BUNDLE_FORMAT_VERSION = 2;

/** manifest.json: what the bundle claims, and the sha256 of every file so a certifier can check them. */
export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  formatVersion: typeof BUNDLE_FORMAT_VERSION;
  suiteVersion: string;
  /** sha256 over the suite's own files (src/certificate/suite-identity.ts). */
  suiteIdentity: string;
  specVersion: string;
  specSha256: string;
  target: { url: string; embedded: boolean };
  /** The key's plan as the run knew it: a name, or enterprise:<perMinute>:<perDay>. */
  plan?: string;
  profile: string;
  seed: number;
  strict: boolean;
  /** A run merged from shards: how many, and whether each was authenticated (false: taken on trust, --trust-shards). */
  shards?: { count: number; authenticated: boolean };
  /** Everything else that changes what the verdict covers: a selection, read-only, no exhaustion, a shard. */
  options: { only: string[]; readOnly: boolean; exhaust: boolean; requireComplete: boolean; shard?: string };
  /** How much of the scope was proven; a partial run is never called conformant. */
  scope: { mustInScope: number; mustTested: number; untested: string[] };
  verdict: ConformanceReport['verdict']['overall'];
  verdictLabel: string;
  why: string;
  date: string;
  command: string;
  /** Declared by the implementer (--implementation name@version): a claim of the signer, not checked by the suite. */
  implementation?: string;
  /** sha256 hex of the artifact tested (--implementation-digest), the signed statement's subject digest. */
  implementationDigest?: string;
  /** The known deviations the verdict honoured, with the sha256 of their canonical JSON. */
  deviations: { sha256: string; entries: ConformanceReport['deviations'] };
  /** badge.svg, and the Markdown that shows it (next to the bundle's conformance.html). */
  badge: { file: string; markdown: string };
  files: Array<{ name: string; bytes: number; sha256: string }>;
}

export interface BundleOptions {
  implementation?: string;
  /** sha256 hex of the artifact tested. */
  implementationDigest?: string;
  /** Signs attestation.intoto.jsonl (Ed25519); none: the bundle is unsigned. */
  signKey?: KeyObject;
  /** Empty a non-empty directory first; without it a non-empty directory is refused. */
  force?: boolean;
}

/** The plan as the manifest and the summary say it. */
export function planText(run: ConformanceReport['run']): string | undefined {
  if (!run.plan) return undefined;
  return run.planLimits ? `${run.plan}:${run.planLimits.perMinute}:${run.planLimits.perDay}` : run.plan;
}

/** The subject's name when the run tested the suite's own embedded reference. */
export const EMBEDDED_SUBJECT = 'animal-store-conformance embedded reference';

/**
 * What the statement names as the implementation: what was tested. The embedded reference is the suite's
 * own code, so its subject is the suite identity, whatever was declared; a remote target is named as
 * declared (else by its URL), with the artefact's digest when one was given.
 */
export function implementationClaim(
  manifest: Pick<BundleManifest, 'implementation' | 'implementationDigest' | 'target' | 'suiteIdentity'>,
): ImplementationClaim {
  if (manifest.target?.embedded) return { name: EMBEDDED_SUBJECT, digest: manifest.suiteIdentity, digestOf: 'suite-identity' };
  const name = manifest.implementation ?? String(manifest.target?.url);
  return { name, ...(manifest.implementationDigest ? { digest: manifest.implementationDigest, digestOf: 'artifact' as const } : {}) };
}

/** Every claim of the manifest but its file list: a function of the report, so the verifier rebuilds it. */
export function manifestClaims(
  report: ConformanceReport,
  options: Pick<BundleOptions, 'implementation' | 'implementationDigest'>,
): Omit<BundleManifest, 'files'> {
  const { run, verdict } = report;
  const plan = planText(run);
  return {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_FORMAT_VERSION,
    suiteVersion: run.suiteVersion,
    suiteIdentity: run.suiteIdentity ?? '',
    specVersion: run.specVersion,
    specSha256: run.specSha256,
    target: { url: run.target.url, embedded: run.target.embedded },
    ...(plan ? { plan } : {}),
    profile: run.profile,
    seed: run.seed,
    strict: run.strict,
    options: {
      only: [...(run.only ?? [])],
      readOnly: run.readOnly,
      exhaust: run.exhaust,
      requireComplete: run.requireComplete === true,
      ...(run.shard ? { shard: run.shard } : {}),
    },
    ...(run.merged ? { shards: { count: run.merged.shards, authenticated: run.merged.authenticated } } : {}),
    scope: { mustInScope: verdict.scope.mustInScope, mustTested: verdict.scope.mustTested, untested: verdict.scope.untested.map((u) => u.id) },
    verdict: verdict.overall,
    verdictLabel: verdict.label,
    why: verdict.why,
    date: run.endedAt,
    command: run.command,
    ...(options.implementation ? { implementation: options.implementation } : {}),
    ...(options.implementationDigest ? { implementationDigest: options.implementationDigest } : {}),
    deviations: { sha256: sha256Hex(JSON.stringify(report.deviations)), entries: report.deviations },
    badge: { file: BADGE_FILE, markdown: badgeMarkdown(report) },
  };
}

/**
 * The bundle's directory, empty: created when missing; a non-empty one is refused (an old signature must
 * never sit beside new files) unless `force`, which empties it first.
 */
export function prepareBundleDir(dir: string, force: boolean): void {
  checkBundleDir(dir, force);
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
}

/** Before a run: refuses a non-empty bundle directory without --force (ERR_CONFIG, exit 2), so no run is spent first. */
export function checkBundleDir(dir: string, force: boolean): void {
  if (force || !existsSync(dir)) return;
  const entries = readdirSync(dir);
  if (entries.length === 0) return;
  throw new HarnessError(
    'ERR_CONFIG',
    `--certify ${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}): give an empty directory, or --force to empty it first`,
  );
}

/**
 * Writes a certification bundle into `dir`: the three reports, the exchange log as HAR 1.2, a badge, a
 * manifest with the sha256 of each file and, with a key, the signed statement and the signer's public key.
 * Exchanges are recorded redacted, so the bundle can be handed to a stranger.
 */
export function writeCertificationBundle(report: ConformanceReport, exchanges: readonly Exchange[], dir: string, options: BundleOptions = {}): BundleManifest {
  prepareBundleDir(dir, options.force === true);
  const paths = writeReports(report, dir);
  const harPath = join(dir, HAR_FILE);
  writeHar(harPath, exchanges, report.run.suiteVersion);
  const badgePath = join(dir, BADGE_FILE);
  writeFileSync(badgePath, renderBadge(report));
  const manifest: BundleManifest = { ...manifestClaims(report, options), files: [...paths, harPath, badgePath].map(fileEntry) };
  const manifestPath = join(dir, MANIFEST_FILE);
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  if (options.signKey) {
    const subjects = [...manifest.files, fileEntry(manifestPath)];
    const envelope = signStatement(statementFor(report, implementationClaim(manifest), subjects), options.signKey);
    writeFileSync(join(dir, ATTESTATION_FILE), `${JSON.stringify(envelope)}\n`);
    writeFileSync(join(dir, SIGNER_KEY_FILE), createPublicKey(options.signKey).export({ type: 'spki', format: 'pem' }));
  }
  return manifest;
}

function fileEntry(path: string): BundleManifest['files'][number] {
  const bytes = readFileSync(path);
  return { name: basename(path), bytes: bytes.length, sha256: sha256Hex(bytes) };
}
