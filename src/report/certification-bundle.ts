import { type KeyObject, createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Exchange } from '../client/exchange.ts';
import { ATTESTATION_FILE, signStatement, statementFor } from './attestation.ts';
import { BADGE_FILE, badgeMarkdown, renderBadge } from './badge.ts';
import { toHar } from './har.ts';
import type { ConformanceReport } from './model.ts';
import { writeReports } from './write-reports.ts';

export const HAR_FILE = 'exchanges.har';
export const MANIFEST_FILE = 'manifest.json';

/** manifest.json: what the bundle claims, and the sha256 of every file so a certifier can check them. */
export interface BundleManifest {
  format: 'animal-store-conformance-bundle';
  formatVersion: 1;
  suiteVersion: string;
  specVersion: string;
  specSha256: string;
  target: { url: string; embedded: boolean };
  profile: string;
  seed: number;
  strict: boolean;
  /** Everything else that changes what the verdict covers: a selection, read-only, no exhaustion, a shard. */
  options: { only: string[]; readOnly: boolean; exhaust: boolean; requireComplete: boolean; shard?: string };
  /** How much of the scope was proven; a partial run is never called conformant. */
  scope: { mustInScope: number; mustTested: number; untested: string[] };
  verdict: ConformanceReport['verdict']['overall'];
  verdictLabel: string;
  why: string;
  date: string;
  command: string;
  /** Declared by the implementer (--implementation name@version). */
  implementation?: string;
  /** The known deviations the verdict honoured, with the sha256 of their canonical JSON. */
  deviations: { sha256: string; entries: ConformanceReport['deviations'] };
  /** badge.svg, and the Markdown that shows it (next to the bundle's conformance.html). */
  badge: { file: string; markdown: string };
  files: Array<{ name: string; bytes: number; sha256: string }>;
}

export interface BundleOptions {
  implementation?: string;
  /** Signs attestation.intoto.jsonl (Ed25519); none: the bundle is unsigned. */
  signKey?: KeyObject;
}

/**
 * Writes a certification bundle into `dir`: the three reports, the exchange log as HAR 1.2, a badge and a manifest
 * with the sha256 of each file. Exchanges are recorded redacted, so the bundle can be handed to a stranger.
 */
export function writeCertificationBundle(report: ConformanceReport, exchanges: readonly Exchange[], dir: string, options: BundleOptions = {}): BundleManifest {
  mkdirSync(dir, { recursive: true });
  const paths = writeReports(report, dir);
  const harPath = join(dir, HAR_FILE);
  const har = toHar(exchanges, { name: 'animal-store-conformance', version: report.run.suiteVersion });
  writeFileSync(harPath, `${JSON.stringify(har, null, 1)}\n`);
  const badgePath = join(dir, BADGE_FILE);
  writeFileSync(badgePath, renderBadge(report));
  const { run, verdict } = report;
  const manifest: BundleManifest = {
    format: 'animal-store-conformance-bundle',
    formatVersion: 1,
    suiteVersion: run.suiteVersion,
    specVersion: run.specVersion,
    specSha256: run.specSha256,
    target: { ...run.target },
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
    scope: { mustInScope: verdict.scope.mustInScope, mustTested: verdict.scope.mustTested, untested: verdict.scope.untested.map((u) => u.id) },
    verdict: verdict.overall,
    verdictLabel: verdict.label,
    why: verdict.why,
    date: run.endedAt,
    command: run.command,
    ...(options.implementation ? { implementation: options.implementation } : {}),
    deviations: { sha256: createHash('sha256').update(JSON.stringify(report.deviations)).digest('hex'), entries: report.deviations },
    badge: { file: BADGE_FILE, markdown: badgeMarkdown(report) },
    files: [...paths, harPath, badgePath].map(fileEntry),
  };
  const manifestPath = join(dir, MANIFEST_FILE);
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  if (options.signKey) {
    const subjects = [...manifest.files, fileEntry(manifestPath)];
    const envelope = signStatement(statementFor(report, subjects), options.signKey);
    writeFileSync(join(dir, ATTESTATION_FILE), `${JSON.stringify(envelope)}\n`);
  }
  return manifest;
}

function fileEntry(path: string): BundleManifest['files'][number] {
  const bytes = readFileSync(path);
  return { name: basename(path), bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}
