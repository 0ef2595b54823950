import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { keyId } from './attestation.ts';

export const PRIVATE_KEY_FILE = 'sign-key.pem';
export const PUBLIC_KEY_FILE = 'sign-key.pub.pem';

export function loadPrivateKey(path: string): KeyObject {
  try {
    const key = createPrivateKey(readFileSync(path));
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
    return key;
  } catch (error) {
    throw new HarnessError('ERR_CONFIG', `--sign-key ${path}: not an Ed25519 private key in PEM (${(error as Error).message})`);
  }
}

/** One PEM public key block and nothing else: text around it, or a second block, would be bytes nobody signed. */
const ONE_PUBLIC_KEY_PEM = /^-----BEGIN PUBLIC KEY-----\r?\n(?:[A-Za-z0-9+/=]{1,76}\r?\n)+-----END PUBLIC KEY-----\r?\n?$/;

/** An Ed25519 public key from PEM text (a bundle's signer key) or a PEM file: one PEM block and nothing else. */
export function parsePublicKey(pem: string | Buffer, origin: string): KeyObject {
  try {
    if (!ONE_PUBLIC_KEY_PEM.test(pem.toString('latin1'))) throw new Error('the file must hold one PUBLIC KEY block and nothing else');
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
    return key;
  } catch (error) {
    throw new HarnessError('ERR_CONFIG', `${origin}: not an Ed25519 public key in PEM (${(error as Error).message})`);
  }
}

export function loadPublicKey(path: string): KeyObject {
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch (error) {
    throw new HarnessError('ERR_CONFIG', `--public-key ${path}: ${(error as Error).message}`);
  }
  return parsePublicKey(pem, `--public-key ${path}`);
}

/**
 * `keygen <dir>`: an Ed25519 pair, sign-key.pem (keep it secret) and sign-key.pub.pem (publish it). Never
 * replaces a key: a private key overwritten is a signer lost, and every bundle it signed orphaned.
 */
export function writeKeyPair(dir: string): { privatePath: string; publicPath: string; keyid: string } {
  const privatePath = join(dir, PRIVATE_KEY_FILE);
  const publicPath = join(dir, PUBLIC_KEY_FILE);
  const existing = [privatePath, publicPath].filter((p) => existsSync(p));
  if (existing.length > 0)
    throw new HarnessError('ERR_CONFIG', `${existing.join(' and ')} already exist: keygen never replaces a key (choose another directory)`);
  mkdirSync(dir, { recursive: true });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  // wx: fails if the file appeared meanwhile, rather than replacing it.
  writeFileSync(privatePath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  writeFileSync(publicPath, publicKey.export({ type: 'spki', format: 'pem' }), { flag: 'wx' });
  return { privatePath, publicPath, keyid: keyId(publicKey) };
}

/** The key as this suite writes it (SPKI PEM): a bundle's signer.pub.pem must be exactly these bytes. */
export function publicKeyPem(key: KeyObject): string {
  return (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'pem' }).toString();
}
