import { parseArgs } from 'node:util';
import { type Verification, summaryLines, verifyBundle, writeKeyPair } from '../certificate/index.ts';
import { shownText } from '../console-text.ts';
import { HarnessError } from '../errors.ts';

export const VERIFY_USAGE = `Usage: animal-store-conformance verify <bundle-dir> [options]

Checks a certification bundle: exit 0 only when it authentically proves a CONFORMANT run of this suite.
First it says what was certified, then one line per check.

  --public-key <pem>       the signer's public key you trust (from keygen: sign-key.pub.pem)
  --signer <fingerprint>   or the trusted signer's key fingerprint (sha256 of its public key, hex)
  --allow-unsigned         check an unsigned bundle's integrity only: anyone can produce one
  --any-verdict            exit 0 for an authentic bundle of any verdict (not only CONFORMANT)
  --format text|json       json: the verification as one JSON object, for machines
  --help, -h               this text

Exit: 0 authentic (and CONFORMANT, unless --any-verdict), 1 not, 2 bad arguments.`;

export const KEYGEN_USAGE = `Usage: animal-store-conformance keygen <dir>

Writes an Ed25519 key pair into <dir>: sign-key.pem (keep it secret; --sign-key) and sign-key.pub.pem
(publish it; verify --public-key). Never replaces an existing key.`;

const INTEGRITY_ONLY = 'integrity only: anyone can produce an unsigned bundle';

/** The exit code of a verification: 0 only for an authentic bundle of a CONFORMANT run (or any, when asked). */
export function verifyExitCode(verification: Verification, anyVerdict: boolean): 0 | 1 {
  return verification.authentic && (anyVerdict || verification.verdict === 'conformant') ? 0 : 1;
}

/** `verify <bundle>`: what was certified, one line per check, and a conclusion; exit 0, 1, or 2 for usage. */
export function runVerify(argv: readonly string[], log: (line: string) => void): number {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        'public-key': { type: 'string', multiple: true },
        signer: { type: 'string', multiple: true },
        'allow-unsigned': { type: 'boolean' },
        'any-verdict': { type: 'boolean' },
        format: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
    if (values.help) {
      log(VERIFY_USAGE);
      return 0;
    }
    if (positionals.length !== 1) throw new HarnessError('ERR_CONFIG', 'verify needs one bundle directory');
    // One trusted signer a check: a second key would silently replace the first.
    if ((values['public-key']?.length ?? 0) > 1) throw new HarnessError('ERR_CONFIG', '--public-key is given once: one signer is checked at a time');
    if ((values.signer?.length ?? 0) > 1) throw new HarnessError('ERR_CONFIG', '--signer is given once: one signer is checked at a time');
    if (values.format !== undefined && values.format !== 'text' && values.format !== 'json') throw new HarnessError('ERR_CONFIG', '--format is text or json');
  } catch (error) {
    log(`animal-store-conformance verify: ${(error as Error).message.split('\n')[0] ?? ''}`);
    log(VERIFY_USAGE);
    return 2;
  }
  let verification: Verification;
  try {
    verification = verifyBundle(positionals[0] as string, {
      ...(values['public-key']?.[0] !== undefined ? { publicKey: values['public-key'][0] } : {}),
      ...(values.signer?.[0] !== undefined ? { signer: values.signer[0] } : {}),
      allowUnsigned: values['allow-unsigned'] === true,
    });
  } catch (error) {
    log(`animal-store-conformance verify: ${(error as Error).message}`);
    return 2;
  }
  const anyVerdict = values['any-verdict'] === true;
  const code = verifyExitCode(verification, anyVerdict);
  if (values.format === 'json') {
    const { report: _report, manifest: _manifest, ...rest } = verification;
    // certificate: the one field a machine may read as "certified" (authentic, signed by the trusted key, CONFORMANT).
    log(JSON.stringify({ ...rest, certificate: isCertificate(verification), exitCode: code }, null, 2));
    return code;
  }
  // Unsigned: every line says what the check is worth, so no line can be quoted as a certificate.
  const mark = !verification.signed && values['allow-unsigned'] === true ? ` (${INTEGRITY_ONLY})` : '';
  if (verification.summary) {
    log(`What this bundle certifies:${mark}`);
    for (const line of summaryLines(verification.summary, { signed: verification.signed })) log(`  ${line}${mark}`);
  }
  // A detail may quote the bundle (a name, a path): one line each, escaped.
  for (const check of verification.checks) log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${shownText(check.detail, 2000)}${mark}`);
  log(conclusion(verification, anyVerdict) + mark);
  return code;
}

function conclusion(verification: Verification, anyVerdict: boolean): string {
  const failed = verification.checks.filter((c) => !c.ok);
  if (!verification.authentic) return `NOT verified: ${failed.length} of ${verification.checks.length} checks fail`;
  const label = verification.report?.verdict.label ?? verification.verdict;
  if (!verification.signed) return `integrity holds (${verification.checks.length} checks): an unsigned bundle of a ${label} run, not a certificate`;
  if (verification.verdict === 'conformant') return `verified: an authentic certificate of a CONFORMANT run (${verification.checks.length} checks hold)`;
  return anyVerdict
    ? `verified: an authentic bundle of a ${label} run (--any-verdict)`
    : `authentic, but NOT a certificate of conformance: the run is ${label} (--any-verdict accepts any verdict)`;
}

/** Authentic, signed by the signer the certifier trusts, and CONFORMANT: what "certified" means. */
function isCertificate(verification: Verification): boolean {
  return verification.authentic && verification.signed && verification.verdict === 'conformant';
}

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
