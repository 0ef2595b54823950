import type { Catalog } from '../catalog/catalog.ts';
import type { ConformanceReport } from '../report/report-types.ts';
import { reportContradictions } from '../report/report-consistency.ts';
import { readArtifact } from './artifacts.ts';
import type { BundleManifest } from './bundle-writer.ts';
import { manifestClaims } from './bundle-writer.ts';
import { rederive } from './rederive.ts';
import { canonicalJson } from '../text/canonical-json.ts';

/** One check of a bundle: what was checked, whether it holds, and what was found. */
export interface BundleCheck {
  ok: boolean;
  name: string;
  detail: string;
}

/** What the verifying suite is: a report is judged only by the suite that made it. */
export interface VerifierSuite {
  identity: string;
  specSha256: string;
  catalog: Catalog;
}

/**
 * conformance.json holds together: it follows spec/report.schema.json (a report of another shape is not
 * one this suite wrote) and contradicts itself nowhere (reportContradictions: the same rules the run and
 * the merge apply before they write a report).
 */
export function schemaCheck(report: unknown): BundleCheck {
  const contradictions = reportContradictions(report);
  const shown = contradictions.slice(0, 3).join('; ') + (contradictions.length > 3 ? `; and ${contradictions.length - 3} more` : '');
  return {
    ok: contradictions.length === 0,
    name: 'report schema',
    detail:
      contradictions.length === 0
        ? "conformance.json is a report of this suite's format and contradicts itself nowhere"
        : `conformance.json does not follow spec/report.schema.json or contradicts itself: ${shown}`,
  };
}

/**
 * The report's own consistency, in one place: made by this very suite (identity, interface, catalog),
 * with a certificate's scope, and every verdict re-derived from the per-test outcomes. Further rules on
 * what a report may not contradict belong here, so `verify` applies them to every bundle.
 */
export function reportChecks(report: ConformanceReport, suite: VerifierSuite): BundleCheck[] {
  const checks: BundleCheck[] = [];
  const add = (ok: boolean, name: string, detail: string) => checks.push({ ok, name, detail });
  const { run } = report;
  const identity = run.suiteIdentity;
  add(
    identity === suite.identity,
    'suite identity',
    identity === suite.identity
      ? `made by this suite (identity ${identity.slice(0, 16)}…)`
      : `made by suite identity ${identity ?? 'none recorded'}; this suite is ${suite.identity}: verify with the suite that made the bundle`,
  );
  add(
    run.specSha256 === suite.specSha256,
    'interface',
    `the interface tested has sha256 ${run.specSha256.slice(0, 16)}…, ${run.specSha256 === suite.specSha256 ? "this suite's" : `not this suite's ${suite.specSha256.slice(0, 16)}…`}`,
  );
  const only = run.only ?? [];
  add(
    run.profile === 'thorough' && only.length === 0 && !run.shard,
    'certification grade',
    `profile ${run.profile}${only.length > 0 ? `, --only ${only.join(',')}` : ''}${run.shard ? `, shard ${run.shard}` : ''}${run.profile === 'thorough' && only.length === 0 && !run.shard ? ': the whole interface' : ': a certificate needs the thorough profile and every requirement'}`,
  );
  const derived = rederive(report, suite.catalog);
  add(
    derived.catalogMismatches.length === 0,
    'catalog',
    derived.catalogMismatches.length === 0
      ? "every requirement of this suite's catalog, as the catalog states it"
      : derived.catalogMismatches.slice(0, 5).join('; '),
  );
  add(
    derived.requirementMismatches.length === 0,
    'requirements re-derived',
    derived.requirementMismatches.length === 0
      ? `each of the ${report.requirements.length} requirements' verdicts follows from its tests and checks`
      : `verdicts their tests do not give: ${derived.requirementMismatches.slice(0, 5).join('; ')}${derived.requirementMismatches.length > 5 ? ` and ${derived.requirementMismatches.length - 5} more` : ''}`,
  );
  const stated = report.verdict;
  const same =
    derived.verdict.overall === stated.overall &&
    derived.verdict.label === stated.label &&
    canonicalJson(derived.verdict.scope) === canonicalJson(stated.scope);
  add(
    same,
    'verdict re-derived',
    same
      ? `the per-test outcomes give ${derived.verdict.label} (${derived.verdict.scope.mustTested} of ${derived.verdict.scope.mustInScope} MUSTs tested), as stated`
      : `the per-test outcomes give ${derived.verdict.label} (${derived.verdict.scope.mustTested} of ${derived.verdict.scope.mustInScope} MUSTs tested); the report states ${stated.label} (${stated.scope.mustTested} of ${stated.scope.mustInScope})`,
  );
  return checks;
}

/** The manifest's claims are those the report makes, and the human-facing files are what it renders. */
export function agreementChecks(report: ConformanceReport, manifest: BundleManifest, texts: { html?: string; junit?: string; badge?: string }): BundleCheck[] {
  const checks: BundleCheck[] = [];
  const expected = manifestClaims(report, { implementation: manifest.implementation, implementationDigest: manifest.implementationDigest });
  const { files: _files, ...claimed } = manifest;
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(claimed)])].sort();
  const differ = keys.filter((k) => canonicalJson((expected as Record<string, unknown>)[k]) !== canonicalJson((claimed as Record<string, unknown>)[k]));
  checks.push({
    ok: differ.length === 0,
    name: 'manifest agrees',
    detail:
      differ.length === 0
        ? `manifest.json states what conformance.json does (${manifest.verdictLabel})`
        : `manifest.json differs from conformance.json in: ${differ.join(', ')}`,
  });
  for (const [kind, name] of [
    ['html', 'conformance.html'],
    ['junit', 'junit.xml'],
    ['badge', 'badge.svg'],
  ] as const) {
    const text = texts[kind];
    if (text === undefined) {
      checks.push({ ok: false, name: `${name} agrees`, detail: `${name} is missing` });
      continue;
    }
    const artifact = readArtifact(kind, name, text, report);
    const ok = artifact.rendersFromReport && artifact.shows === report.verdict.label;
    checks.push({
      ok,
      name: `${name} agrees`,
      detail: ok
        ? `${name} shows ${report.verdict.label}, exactly as conformance.json renders`
        : `${name} shows ${artifact.shows === undefined ? 'no single verdict' : artifact.shows}${artifact.rendersFromReport ? '' : ' and is not what conformance.json renders'}; conformance.json states ${report.verdict.label}`,
    });
  }
  return checks;
}
