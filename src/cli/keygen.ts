import { writeKeyPair } from '../certificate/index.ts';

export const KEYGEN_USAGE = `Usage: animal-store-conformance keygen <dir>

Writes an Ed25519 key pair into <dir>: sign-key.pem (keep it secret; --sign-key) and sign-key.pub.pem
(publish it; verify --public-key). Never replaces an existing key.`;

/** `keygen <dir>`: writes an Ed25519 key pair for --sign-key and verify --public-key; never replaces a key. */
export function runKeygen(argv: readonly string[], log: (line: string) => void): number {
  if (argv.includes('--help') || argv.includes('-h')) {
    log(KEYGEN_USAGE);
    return 0;
  }
  if (argv.length !== 1 || (argv[0] ?? '').startsWith('-')) {
    log(argv.length === 1 ? `animal-store-conformance keygen: unknown option ${argv[0] ?? ''}` : 'animal-store-conformance keygen: needs one directory');
    log(KEYGEN_USAGE);
    return 2;
  }
  try {
    const { privatePath, publicPath, keyid } = writeKeyPair(argv[0] as string);
    log(`private key: ${privatePath} (keep it secret; --sign-key)`);
    log(`public key:  ${publicPath} (publish it; verify --public-key)`);
    log(`fingerprint: ${keyid} (verify --signer)`);
    return 0;
  } catch (error) {
    log(`animal-store-conformance keygen: ${(error as Error).message}`);
    return 2;
  }
}
