import { shownText } from '../text/console-text.ts';
import type { ConformanceReport } from '../report/report-types.ts';
import type { BundleManifest } from './bundle-writer.ts';
import { EMBEDDED_SUBJECT, planText } from './bundle-writer.ts';

/** What a bundle certifies, in the words a certifier reads first. */
export interface CertifiedSummary {
  /** As declared by the signer (--implementation): a claim bound by the signature, not checked by the suite. */
  implementation?: string;
  implementationDigest?: string;
  /** The run tested the suite's own embedded reference: the implementation is named by the suite, not declared. */
  embedded?: boolean;
  target: string;
  plan?: string;
  profile: string;
  suiteIdentity: string;
  interfaceVersion: string;
  date: string;
  mustTested: number;
  mustInScope: number;
  /** The overall verdict (conformant, not-conformant, partial, incomplete). */
  verdict: string;
  deviations: string[];
  /** A merged run: its shards, authenticated or taken on trust. */
  shards?: string;
  signer?: { fingerprint: string };
}

/** How far a merged run's shards were vouched for, in words nobody can misread. */
export function shardsText(merged: { shards: number; authenticated: boolean }): string {
  return merged.authenticated
    ? `merged from ${merged.shards}, each authenticated by the merge's shard key`
    : `merged from ${merged.shards} TAKEN ON TRUST (--trust-shards): not authenticated, whoever ran a shard could have edited it`;
}

export function summaryOf(report: ConformanceReport, manifest: BundleManifest | undefined, fingerprint: string | undefined): CertifiedSummary {
  const { run, verdict } = report;
  const plan = planText(run);
  return {
    // The embedded reference is named as itself: a name declared for it is a label, never what was tested.
    ...(run.target.embedded
      ? { implementation: `${EMBEDDED_SUBJECT}${manifest?.implementation ? ` (declared as "${manifest.implementation}": a label, not what was tested)` : ''}` }
      : manifest?.implementation
        ? { implementation: manifest.implementation }
        : {}),
    ...(manifest?.implementationDigest ? { implementationDigest: `sha256:${manifest.implementationDigest}` } : {}),
    embedded: run.target.embedded === true,
    target: run.target.embedded ? `${run.target.url} (the suite's own embedded reference, not the implementation declared)` : run.target.url,
    ...(plan ? { plan } : {}),
    profile: run.profile,
    suiteIdentity: run.suiteIdentity ?? 'none recorded',
    interfaceVersion: run.specVersion,
    date: run.endedAt,
    mustTested: verdict.scope.mustTested,
    mustInScope: verdict.scope.mustInScope,
    verdict: verdict.overall,
    // Every declared deviation, with what became of it (applied, not needed, expired): a certifier sees them all.
    deviations: report.deviations.map((d) => `${d.id} (${d.status}): ${d.reason}`),
    ...(run.merged ? { shards: shardsText(run.merged) } : {}),
    ...(fingerprint ? { signer: { fingerprint } } : {}),
  };
}

const VERDICT_WORDS: Record<string, string> = { conformant: 'CONFORMANT', 'not-conformant': 'NOT CONFORMANT', partial: 'PARTIAL', incomplete: 'INCOMPLETE' };

/**
 * The summary as lines of plain text, the verdict and the signer in words nobody can misread. Every value
 * comes from the bundle, so each is shown on one line, escaped (shownText): a name cannot add a line.
 */
export function summaryLines(summary: CertifiedSummary, options: { signed?: boolean } = {}): string[] {
  const one = (value: string) => shownText(value, 400);
  const unsigned = options.signed === false || !summary.signer;
  return [
    `implementation:  ${summary.implementation ? one(summary.implementation) : 'not declared'} (${unsigned ? 'as written in an unsigned bundle: anyone can write it' : summary.embedded ? "the suite's own code, named by the suite" : 'as declared by the signer; not checked by the suite'})${summary.implementationDigest ? `, ${one(summary.implementationDigest)}` : ''}`,
    `target:          ${one(summary.target)}`,
    `plan:            ${summary.plan ? one(summary.plan) : 'not given'}`,
    `profile:         ${one(summary.profile)}`,
    `suite identity:  ${one(summary.suiteIdentity)}`,
    `interface:       v${one(summary.interfaceVersion)}`,
    `date:            ${one(summary.date)}`,
    `MUSTs tested:    ${summary.mustTested} of ${summary.mustInScope} in scope`,
    `verdict:         ${VERDICT_WORDS[summary.verdict] ?? one(summary.verdict)}`,
    ...(summary.shards ? [`shards:          ${one(summary.shards)}`] : []),
    `deviations:      ${summary.deviations.length === 0 ? 'none declared' : summary.deviations.map(one).join('; ')}`,
    `signer:          ${summary.signer ? `key sha256:${summary.signer.fingerprint}` : 'nobody whose signature verified: not a certificate'}`,
  ];
}
