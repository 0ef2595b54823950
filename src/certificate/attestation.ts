import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { ConformanceReport } from '../report/report-types.ts';

/**
 * The bundle's signed attestation: an in-toto Statement v1 with the test-result predicate, in a DSSE
 * envelope signed with Ed25519 (node:crypto). Standard in-toto and DSSE tooling verifies it: the
 * signature covers PAE(payloadType, payload) as DSSE v1 defines it.
 *
 * The statement's first subject is the implementation tested (its declared name, and the digest of the
 * artifact when --implementation-digest is given); the others are the bundle's files with their sha256,
 * so nothing can be added to the bundle, removed or swapped without breaking the signature.
 */

export const ATTESTATION_FILE = 'attestation.intoto.jsonl';
export const PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PREDICATE_TYPE = 'https://in-toto.io/attestation/test-result/v0.1';
/** The configuration entry that names the suite: its digest is the suite identity. */
export const SUITE_NAME = 'animal-store-conformance';
export const INTERFACE_NAME = 'spec/openapi.yaml';
/** The configuration entry of a merged run: how many shards, and whether the merge authenticated them. */
export const SHARDS_NAME = 'shards';

export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: Array<{ keyid: string; sig: string }>;
}

export interface ResourceDescriptor {
  name: string;
  digest: { sha256: string };
  uri?: string;
  annotations?: Record<string, string>;
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: ResourceDescriptor[];
  predicateType: typeof PREDICATE_TYPE;
  predicate: {
    result: 'PASSED' | 'WARNED' | 'FAILED';
    configuration: ResourceDescriptor[];
    passedTests: string[];
    warnedTests: string[];
    failedTests: string[];
  };
}

/** What the statement says of the implementation, as the bundle's manifest records it. */
export interface ImplementationClaim {
  /** As declared (--implementation name@version); the target when none was declared. */
  name: string;
  /** sha256 hex of what was tested (--implementation-digest, or the suite identity); absent: the digest is that of the name. */
  digest?: string;
  /** What the digest is of: the artefact declared, or the suite's own code (the embedded reference). */
  digestOf?: 'artifact' | 'suite-identity';
}

/** DSSE v1 pre-authentication encoding. */
export function pae(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

/** The key's fingerprint (and DSSE keyid): sha256 of its public key (SPKI, DER), as hex. */
export function keyId(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

export const sha256Hex = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** The in-toto result for a run: PASSED only for a conformant run; a partial or incomplete run never passes. */
export function resultOf(report: ConformanceReport): Statement['predicate']['result'] {
  const ids = testIds(report);
  if (ids.failedTests.length > 0 || report.verdict.overall !== 'conformant') return 'FAILED';
  return ids.warnedTests.length > 0 ? 'WARNED' : 'PASSED';
}

function testIds(report: ConformanceReport): Pick<Statement['predicate'], 'passedTests' | 'warnedTests' | 'failedTests'> {
  const ids = (verdicts: string[]) => report.requirements.filter((r) => verdicts.includes(r.verdict)).map((r) => r.id);
  return { passedTests: ids(['pass']), warnedTests: ids(['warn', 'deviation']), failedTests: ids(['fail']) };
}

/** The implementation's subject: the artifact's digest when given, else the digest of its declared name. */
export function implementationSubject(claim: ImplementationClaim): ResourceDescriptor {
  return {
    name: claim.name,
    digest: { sha256: claim.digest ?? sha256Hex(claim.name) },
    annotations: { role: 'implementation', digestOf: claim.digest ? (claim.digestOf ?? 'artifact') : 'declared-name' },
  };
}

/**
 * The statement a bundle of `report` carries: the writer signs it, the verifier rebuilds it from the
 * bundle's files and requires the signed one to be exactly this.
 */
export function statementFor(
  report: ConformanceReport,
  implementation: ImplementationClaim,
  files: ReadonlyArray<{ name: string; sha256: string }>,
): Statement {
  const { run } = report;
  return {
    _type: STATEMENT_TYPE,
    subject: [
      implementationSubject(implementation),
      ...[...files].sort((a, b) => (a.name < b.name ? -1 : 1)).map((f) => ({ name: f.name, digest: { sha256: f.sha256 } })),
    ],
    predicateType: PREDICATE_TYPE,
    predicate: {
      result: resultOf(report),
      configuration: [
        { name: SUITE_NAME, digest: { sha256: run.suiteIdentity ?? '' }, annotations: { version: run.suiteVersion } },
        { name: INTERFACE_NAME, digest: { sha256: run.specSha256 }, annotations: { version: run.specVersion } },
        // A merge says how far its shards were vouched for: authenticated by the merge's key, or taken on trust.
        ...(run.merged
          ? [
              {
                name: SHARDS_NAME,
                digest: { sha256: sha256Hex(run.runNonce ?? '') },
                annotations: { shards: String(run.merged.shards), authenticated: String(run.merged.authenticated), digestOf: 'run-nonce' },
              },
            ]
          : []),
      ],
      ...testIds(report),
    },
  };
}

export function signStatement(statement: Statement, privateKey: KeyObject): DsseEnvelope {
  const payload = Buffer.from(JSON.stringify(statement), 'utf8');
  const sig = sign(null, pae(PAYLOAD_TYPE, payload), privateKey);
  return { payloadType: PAYLOAD_TYPE, payload: payload.toString('base64'), signatures: [{ keyid: keyId(privateKey), sig: sig.toString('base64') }] };
}

/** The payload's bytes when a signature over it verifies with `publicKey`; undefined otherwise. */
export function verifiedPayload(envelope: DsseEnvelope, publicKey: KeyObject): Buffer | undefined {
  if (envelope.payloadType !== PAYLOAD_TYPE || typeof envelope.payload !== 'string' || !Array.isArray(envelope.signatures)) return undefined;
  const payload = Buffer.from(envelope.payload, 'base64');
  // Base64 that does not round-trip (stray characters, other padding) could hide a second reading of the bytes.
  if (payload.toString('base64') !== envelope.payload) return undefined;
  const good = envelope.signatures.some((s) => {
    try {
      return typeof s?.sig === 'string' && verify(null, pae(envelope.payloadType, payload), publicKey, Buffer.from(s.sig, 'base64'));
    } catch {
      return false;
    }
  });
  return good ? payload : undefined;
}
