import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import type { ConformanceReport } from './model.ts';

/**
 * The bundle's signed attestation: an in-toto Statement v1 with the test-result predicate, in a DSSE
 * envelope signed with Ed25519 (node:crypto). Standard in-toto and DSSE tooling verifies it: the
 * signature covers PAE(payloadType, payload) as DSSE v1 defines it.
 */

export const ATTESTATION_FILE = 'attestation.intoto.jsonl';
export const PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PREDICATE_TYPE = 'https://in-toto.io/attestation/test-result/v0.1';

export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: Array<{ keyid: string; sig: string }>;
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: Array<{ name: string; digest: { sha256: string } }>;
  predicateType: typeof PREDICATE_TYPE;
  predicate: {
    result: 'PASSED' | 'WARNED' | 'FAILED';
    configuration: Array<{ name: string; digest: { sha256: string }; uri?: string }>;
    passedTests: string[];
    warnedTests: string[];
    failedTests: string[];
  };
}

/** DSSE v1 pre-authentication encoding. */
export function pae(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

/** The key's id: sha256 of its public key (SPKI, DER), as hex. */
export function keyId(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

export function statementFor(report: ConformanceReport, files: ReadonlyArray<{ name: string; sha256: string }>): Statement {
  const ids = (verdicts: string[]) => report.requirements.filter((r) => verdicts.includes(r.verdict)).map((r) => r.id);
  const failed = ids(['fail']);
  const warned = ids(['warn', 'deviation']);
  const complete = report.verdict.overall === 'conformant';
  return {
    _type: STATEMENT_TYPE,
    subject: files.map((f) => ({ name: f.name, digest: { sha256: f.sha256 } })),
    predicateType: PREDICATE_TYPE,
    predicate: {
      // PASSED only for a conformant run; a partial or incomplete run never passes.
      result: failed.length > 0 || !complete ? 'FAILED' : warned.length > 0 ? 'WARNED' : 'PASSED',
      configuration: [{ name: `animal-store-conformance@${report.run.suiteVersion}`, digest: { sha256: report.run.specSha256 }, uri: 'spec/openapi.yaml' }],
      passedTests: ids(['pass']),
      warnedTests: warned,
      failedTests: failed,
    },
  };
}

export function signStatement(statement: Statement, privateKey: KeyObject): DsseEnvelope {
  const payload = Buffer.from(JSON.stringify(statement), 'utf8');
  const sig = sign(null, pae(PAYLOAD_TYPE, payload), privateKey);
  return { payloadType: PAYLOAD_TYPE, payload: payload.toString('base64'), signatures: [{ keyid: keyId(privateKey), sig: sig.toString('base64') }] };
}

/** The statement, when one signature verifies with `publicKey`; undefined otherwise. */
export function verifyEnvelope(envelope: DsseEnvelope, publicKey: KeyObject): Statement | undefined {
  if (envelope.payloadType !== PAYLOAD_TYPE) return undefined;
  const payload = Buffer.from(envelope.payload, 'base64');
  const good = envelope.signatures.some((s) => {
    try {
      return verify(null, pae(envelope.payloadType, payload), publicKey, Buffer.from(s.sig, 'base64'));
    } catch {
      return false;
    }
  });
  return good ? (JSON.parse(payload.toString('utf8')) as Statement) : undefined;
}

export function loadPrivateKey(path: string): KeyObject {
  try {
    const key = createPrivateKey(readFileSync(path));
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
    return key;
  } catch (error) {
    throw new HarnessError('ERR_CONFIG', `--sign-key ${path}: not an Ed25519 private key in PEM (${(error as Error).message})`);
  }
}

export function loadPublicKey(path: string): KeyObject {
  try {
    return createPublicKey(readFileSync(path));
  } catch (error) {
    throw new HarnessError('ERR_CONFIG', `--public-key ${path}: not a public key in PEM (${(error as Error).message})`);
  }
}

/** `keygen <dir>`: an Ed25519 pair, sign-key.pem (keep it secret) and sign-key.pub.pem (publish it). */
export function writeKeyPair(dir: string): { privatePath: string; publicPath: string; keyid: string } {
  mkdirSync(dir, { recursive: true });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const privatePath = join(dir, 'sign-key.pem');
  const publicPath = join(dir, 'sign-key.pub.pem');
  writeFileSync(privatePath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(publicPath, publicKey.export({ type: 'spki', format: 'pem' }));
  return { privatePath, publicPath, keyid: keyId(publicKey) };
}
