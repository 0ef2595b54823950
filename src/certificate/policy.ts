import { HarnessError } from '../errors.ts';
import { parseImplementationDigest } from '../config/values.ts';
import { type BundleManifest, implementationClaim, planText } from './bundle-writer.ts';
import type { BundleCheck } from './report-checks.ts';
import type { Verification } from './verify-bundle.ts';

/**
 * What a certifier pins, as cosign and slsa-verifier take it: a bundle is a certificate of *this*
 * implementation, plan and suite, made recently enough, or it is not the one asked for. Each value is
 * read from the signed bundle (the manifest and report are subjects of the signed statement).
 */
export interface VerifyPolicy {
  /** name@version, exactly as declared with --implementation. */
  implementation?: string;
  /** sha256 hex of the artefact: the signed statement's subject digest. */
  implementationDigest?: string;
  /** The key's plan, as the summary says it (pro, or enterprise:<perMinute>:<perDay>). */
  plan?: string;
  /** The run ended at or after this instant. */
  notBefore?: Date;
  /** The run ended at most this many days before the check. */
  maxAgeDays?: number;
  /** The suite identity (sha256 hex) that made the bundle. */
  suiteIdentity?: string;
}

/** The policy flags, read and checked: a value that cannot mean anything is a usage error (ERR_CONFIG). */
export function parsePolicy(
  values: Partial<Record<'implementation' | 'implementation-digest' | 'plan' | 'not-before' | 'max-age' | 'suite-identity', string>>,
): VerifyPolicy {
  const policy: VerifyPolicy = {};
  if (values.implementation !== undefined) policy.implementation = values.implementation;
  const digest = parseImplementationDigest(values['implementation-digest'], '--implementation-digest');
  if (digest) policy.implementationDigest = digest;
  if (values.plan !== undefined) policy.plan = values.plan;
  if (values['not-before'] !== undefined) {
    const at = new Date(values['not-before']);
    if (!/^\d{4}-\d{2}-\d{2}/.test(values['not-before']) || Number.isNaN(at.getTime()))
      throw new HarnessError('ERR_CONFIG', `--not-before must be a date (2026-01-31, or an ISO 8601 instant); got "${values['not-before']}"`);
    policy.notBefore = at;
  }
  if (values['max-age'] !== undefined) {
    const days = Number(values['max-age']);
    if (!/^\d+(\.\d+)?$/.test(values['max-age']) || !(days > 0))
      throw new HarnessError('ERR_CONFIG', `--max-age must be a number of days above 0; got "${values['max-age']}"`);
    policy.maxAgeDays = days;
  }
  if (values['suite-identity'] !== undefined) {
    const match = /^(?:sha256:)?([0-9a-f]{64})$/i.exec(values['suite-identity']);
    if (!match?.[1]) throw new HarnessError('ERR_CONFIG', `--suite-identity must be 64 hex digits (sha256); got "${values['suite-identity']}"`);
    policy.suiteIdentity = match[1].toLowerCase();
  }
  return policy;
}

export const hasPolicy = (policy: VerifyPolicy): boolean => Object.keys(policy).length > 0;

/** One check per value pinned, each naming what the bundle says instead; none when nothing is pinned. */
export function policyChecks(verification: Verification, policy: VerifyPolicy, now: Date): BundleCheck[] {
  const { report, manifest } = verification;
  if (!report || !manifest)
    return hasPolicy(policy) ? [{ ok: false, name: 'policy', detail: 'the bundle cannot be read: nothing to compare the policy with' }] : [];
  const checks: BundleCheck[] = [];
  const pin = (name: string, wanted: string, actual: string | undefined, ok = wanted === actual) =>
    checks.push({ ok, name: `policy ${name}`, detail: ok ? `${wanted}, as pinned` : `the bundle says ${actual ?? 'nothing'}, you pinned ${wanted}` });
  // The embedded reference is named by the suite, whatever was declared: a label never pins it as a product.
  if (policy.implementation !== undefined) pin('implementation', policy.implementation, namedImplementation(manifest));
  if (policy.implementationDigest !== undefined) {
    const subject = implementationClaim(manifest).digest;
    pin('implementation digest', `sha256:${policy.implementationDigest}`, subject === undefined ? undefined : `sha256:${subject}`);
  }
  if (policy.plan !== undefined) pin('plan', policy.plan, planText(report.run));
  if (policy.suiteIdentity !== undefined) pin('suite identity', policy.suiteIdentity, report.run.suiteIdentity);
  const ended = new Date(report.run.endedAt);
  if (policy.notBefore !== undefined)
    pin('not before', `ended at or after ${policy.notBefore.toISOString()}`, `ended ${report.run.endedAt}`, ended.getTime() >= policy.notBefore.getTime());
  if (policy.maxAgeDays !== undefined) {
    const age = (now.getTime() - ended.getTime()) / 86_400_000;
    pin('max age', `at most ${policy.maxAgeDays} days old`, `ended ${report.run.endedAt}, ${age.toFixed(1)} days ago`, age >= 0 && age <= policy.maxAgeDays);
  }
  return checks;
}

/** What a certifier should pin for this bundle, as verify's own flags. */
export function pinFlags(verification: Verification): string[] {
  const { report, manifest, summary } = verification;
  if (!report || !manifest || !verification.authentic) return [];
  const digest = implementationClaim(manifest).digest;
  const plan = planText(report.run);
  return [
    ...(summary?.signer ? [`--signer ${summary.signer.fingerprint}`] : []),
    ...(manifest.implementation && !manifest.target?.embedded ? [`--implementation ${manifest.implementation}`] : []),
    ...(digest ? [`--implementation-digest sha256:${digest}`] : []),
    ...(plan ? [`--plan ${plan}`] : []),
    ...(report.run.suiteIdentity ? [`--suite-identity ${report.run.suiteIdentity}`] : []),
    `--not-before ${report.run.endedAt.slice(0, 10)}`,
  ];
}

/** What a bundle names as the implementation tested: the declared name, or the embedded reference's own. */
export function namedImplementation(
  manifest: Pick<BundleManifest, 'implementation' | 'implementationDigest' | 'target' | 'suiteIdentity'>,
): string | undefined {
  return manifest.target?.embedded ? implementationClaim(manifest).name : manifest.implementation;
}
