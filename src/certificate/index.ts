// The certificate: writing a bundle (--certify) and verifying one (verify) live here together, on the
// verdict functions the run itself uses, so the writer and the checker cannot drift apart.
export {
  ATTESTATION_FILE,
  PAYLOAD_TYPE,
  PREDICATE_TYPE,
  STATEMENT_TYPE,
  type DsseEnvelope,
  type ImplementationClaim,
  type ResourceDescriptor,
  type Statement,
  keyId,
  pae,
  signStatement,
  statementFor,
  verifiedPayload,
} from './attestation.ts';
export { BADGE_FILE, badgeMarkdown, renderBadge } from './badge.ts';
export {
  type BundleManifest,
  type BundleOptions,
  EMBEDDED_SUBJECT,
  HAR_FILE,
  MANIFEST_FILE,
  SIGNER_KEY_FILE,
  checkBundleDir,
  prepareBundleDir,
  writeCertificationBundle,
} from './bundle-writer.ts';
export { PRIVATE_KEY_FILE, PUBLIC_KEY_FILE, loadPrivateKey, loadPublicKey, writeKeyPair } from './keys.ts';
export { type BundleCheck, reportChecks } from './report-checks.ts';
export { type VerifyPolicy, hasPolicy, parsePolicy, pinFlags, policyChecks } from './policy.ts';
export { rederive, type Rederived } from './rederive.ts';
export { type RejudgeOptions, type Rejudgement, rejudge, rejudgeCheck } from './rejudge.ts';
export { suiteIdentity } from './suite-identity.ts';
export { type CertifiedSummary, summaryLines } from './summary.ts';
export { type Verification, type VerifyOptions, verifyBundle } from './verify-bundle.ts';
