import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import type { Exchange } from '../../src/client/exchange.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { createContract } from '../../src/contract/index.ts';
import { MANIFEST_FILE, type BundleManifest, suiteIdentity, writeCertificationBundle } from '../../src/certificate/index.ts';
import { sha256Hex } from '../../src/certificate/attestation.ts';
import { buildReport } from '../../src/report/build-report.ts';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { BASE_TIME, runInfo } from '../support/report-builders.ts';
import { sampleReport } from '../support/sample-report.ts';
import { asLogged } from './logged-run.ts';

/** Helpers a forger would write: copy a bundle, edit it, make its manifest consistent again. */

export function copyBundle(from: string, parent: string, label: string): string {
  const target = join(parent, label);
  rmSync(target, { recursive: true, force: true });
  cpSync(from, target, { recursive: true });
  return target;
}

export function readReport(dir: string): ConformanceReport {
  return JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
}

export function readManifest(dir: string): BundleManifest {
  return JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as BundleManifest;
}

/** Recomputes the manifest's sizes and hashes of every file but itself: what the forger did. */
export function rehash(dir: string): void {
  const manifest = readManifest(dir);
  manifest.files = manifest.files
    .filter((f) => readdirSync(dir).includes(f.name))
    .map((f) => {
      const bytes = readFileSync(join(dir, f.name));
      return { name: f.name, bytes: bytes.length, sha256: sha256Hex(bytes) };
    });
  writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * A genuine bundle of a run that is NOT CONFORMANT, written by the suite's own writer: the sample run
 * (a MUST broken by a test, one by an always-on finding, a declared deviation, skips) made thorough,
 * by this suite, with a known plan.
 */
export function notConformantBundle(parent: string, signKey: KeyObject | undefined): string {
  const { report, exchanges } = notConformantRun();
  const dir = mkdtempSync(join(parent, 'not-conformant-'));
  writeCertificationBundle(report, exchanges, dir, { implementation: 'acme-store@2.3.1', ...(signKey ? { signKey } : {}), force: true });
  return dir;
}

/** The run of notConformantBundle, and its exchanges as the bundle logs them. */
export function notConformantRun(): { report: ConformanceReport; exchanges: Exchange[] } {
  const sample = sampleReport({ exchangesPerTest: 1 });
  // What a real run records: whole exchanges, the findings the checks give on them, a judgment per pass.
  const tests = asLogged(sample.tests, createContract(), BASE_TIME);
  const report = buildReport({
    runInfo: runInfo({ profile: 'thorough', suiteIdentity: suiteIdentity(), specSha256: createContract().sha256, plan: 'pro' }),
    catalog: loadCatalog(),
    tests,
    harnessErrors: [],
    strict: false,
    expectedDeviations: sample.report.deviations.map(({ status: _status, ...d }) => d),
  });
  return { report, exchanges: tests.flatMap((t) => (t.meta?.exchanges ?? []).filter((e) => !e.sharedFrom)) };
}
