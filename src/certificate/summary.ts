import type { ConformanceReport } from '../report/model.ts';
import type { BundleManifest } from './bundle-writer.ts';
import { planText } from './bundle-writer.ts';

/** What a bundle certifies, in the words a certifier reads first. */
export interface CertifiedSummary {
  /** As declared by the signer (--implementation): a claim bound by the signature, not checked by the suite. */
  implementation?: string;
  implementationDigest?: string;
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
  signer?: { fingerprint: string };
}

export function summaryOf(report: ConformanceReport, manifest: BundleManifest | undefined, fingerprint: string | undefined): CertifiedSummary {
  const { run, verdict } = report;
  const plan = planText(run);
  return {
    ...(manifest?.implementation ? { implementation: manifest.implementation } : {}),
    ...(manifest?.implementationDigest ? { implementationDigest: `sha256:${manifest.implementationDigest}` } : {}),
    target: run.target.embedded ? `${run.target.url} (embedded reference)` : run.target.url,
    ...(plan ? { plan } : {}),
    profile: run.profile,
    suiteIdentity: run.suiteIdentity ?? 'none recorded',
    interfaceVersion: run.specVersion,
    date: run.endedAt,
    mustTested: verdict.scope.mustTested,
    mustInScope: verdict.scope.mustInScope,
    verdict: verdict.overall,
    deviations: report.deviations.filter((d) => d.status === 'applied').map((d) => `${d.id}: ${d.reason}`),
    ...(fingerprint ? { signer: { fingerprint } } : {}),
  };
}

const VERDICT_WORDS: Record<string, string> = { conformant: 'CONFORMANT', 'not-conformant': 'NOT CONFORMANT', partial: 'PARTIAL', incomplete: 'INCOMPLETE' };

/** The summary as lines of plain text, the verdict and the signer in words nobody can misread. */
export function summaryLines(summary: CertifiedSummary): string[] {
  return [
    `implementation:  ${summary.implementation ?? 'not declared'} (as declared by the signer; not checked by the suite)${summary.implementationDigest ? `, ${summary.implementationDigest}` : ''}`,
    `target:          ${summary.target}`,
    `plan:            ${summary.plan ?? 'not given'}`,
    `profile:         ${summary.profile}`,
    `suite identity:  ${summary.suiteIdentity}`,
    `interface:       v${summary.interfaceVersion}`,
    `date:            ${summary.date}`,
    `MUSTs tested:    ${summary.mustTested} of ${summary.mustInScope} in scope`,
    `verdict:         ${VERDICT_WORDS[summary.verdict] ?? summary.verdict}`,
    `deviations:      ${summary.deviations.length === 0 ? 'none' : summary.deviations.join('; ')}`,
    `signer:          ${summary.signer ? `key sha256:${summary.signer.fingerprint}` : 'nobody: the bundle is not signed'}`,
  ];
}
