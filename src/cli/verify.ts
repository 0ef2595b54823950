import { parseArgs } from 'node:util';
import {
  type BundleCheck,
  type RejudgeOptions,
  type Verification,
  type VerifyPolicy,
  hasPolicy,
  parsePolicy,
  pinFlags,
  policyChecks,
  summaryLines,
  verifyBundle,
} from '../certificate/index.ts';
import { shownText } from '../text/console-text.ts';
import { HarnessError } from '../errors.ts';

export const VERIFY_USAGE = `Usage: animal-store-conformance verify <bundle-dir> [options]

Checks a certification bundle: exit 0 only when it authentically proves a CONFORMANT run of this suite.
First it says what was certified, then one line per check.

  --public-key <pem>       the signer's public key you trust (from keygen: sign-key.pub.pem)
  --signer <fingerprint>   or the trusted signer's key fingerprint (sha256 of its public key, hex)
  --allow-unsigned         check an unsigned bundle's integrity only: anyone can produce one (exit 3, never 0)
  --any-verdict            exit 0 for an authentic bundle of any verdict (not only CONFORMANT)
  --format text|json       json: the verification as one JSON object (ASCII only), for machines

Policy: what the certificate must be of (each mismatch exits 1, naming it). Without one, verify prints
what to pin.
  --implementation <name@version>       as declared when the bundle was made
  --implementation-digest sha256:<hex>  the signed statement's subject digest
  --plan <plan>                         the key's plan, as the summary says it
  --suite-identity <sha256>             the suite that made the bundle
  --not-before <date>                   the run ended on or after this date (ISO 8601)
  --max-age <days>                      the run ended at most this many days ago
  --help, -h               this text

Exit: 0 an authentic, signed certificate (CONFORMANT, unless --any-verdict) meeting the policy; 1 not;
2 bad arguments; 3 an unsigned bundle whose integrity holds (--allow-unsigned): never a certificate.`;

const INTEGRITY_ONLY = 'integrity only: anyone can produce an unsigned bundle';

/** The exit code of an unsigned bundle whose integrity holds: distinct, so no script takes it for a certificate. */
export const UNSIGNED_EXIT = 3;

/**
 * The exit code of a verification: 0 only for an authentic, signed bundle of a CONFORMANT run (or any,
 * when asked) that meets the policy; 3 for an unsigned one whose integrity holds; 1 otherwise.
 */
export function verifyExitCode(verification: Verification, anyVerdict: boolean, policy: readonly BundleCheck[] = []): 0 | 1 | 3 {
  if (!verification.authentic || !policy.every((c) => c.ok)) return 1;
  if (!verification.signed) return UNSIGNED_EXIT;
  return anyVerdict || verification.verdict === 'conformant' ? 0 : 1;
}

/**
 * JSON a machine can read whatever the bundle holds: every character outside printable ASCII written as
 * a \u escape, so the console's escaping of control and bidi characters never touches it.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[^\x20-\x7e\n]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `verify <bundle>`: what was certified, one line per check, and a conclusion; exit 0, 1, or 2 for usage.
 * `rejudge`: what the re-judging holds the tests to (RejudgeOptions), for runs the project's tests make up.
 */
export function runVerify(argv: readonly string[], log: (line: string) => void, rejudge: RejudgeOptions = {}): number {
  let values;
  let positionals;
  let policy: VerifyPolicy;
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
        implementation: { type: 'string' },
        'implementation-digest': { type: 'string' },
        plan: { type: 'string' },
        'suite-identity': { type: 'string' },
        'not-before': { type: 'string' },
        'max-age': { type: 'string' },
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
    policy = parsePolicy(values);
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
      rejudge,
    });
  } catch (error) {
    log(`animal-store-conformance verify: ${(error as Error).message}`);
    return 2;
  }
  const anyVerdict = values['any-verdict'] === true;
  const pinned = policyChecks(verification, policy, new Date());
  const code = verifyExitCode(verification, anyVerdict, pinned);
  const pin = hasPolicy(policy) ? [] : pinFlags(verification);
  if (values.format === 'json') {
    const { report: _report, manifest: _manifest, ...rest } = verification;
    // certificate: the one field a machine may read as "certified" (authentic, signed by the trusted key, CONFORMANT, the policy met).
    const certificate = isCertificate(verification) && pinned.every((c) => c.ok);
    log(asciiJson({ ...rest, policy: pinned, ...(pin.length > 0 ? { pin } : {}), certificate, exitCode: code }));
    return code;
  }
  // Unsigned: every line says what the check is worth, so no line can be quoted as a certificate.
  const mark = !verification.signed && values['allow-unsigned'] === true ? ` (${INTEGRITY_ONLY})` : '';
  if (verification.summary) {
    log(`What this bundle certifies:${mark}`);
    for (const line of summaryLines(verification.summary, { signed: verification.signed })) log(`  ${line}${mark}`);
  }
  // A detail may quote the bundle (a name, a path): one line each, escaped.
  for (const check of [...verification.checks, ...pinned]) log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${shownText(check.detail, 2000)}${mark}`);
  // Without a policy, any signed conformant bundle of anything passes: say what a certifier should pin.
  if (pin.length > 0 && verification.authentic && verification.signed)
    log(`No policy given: pin what you certify, e.g. verify <bundle> ${pin.map((p) => shownText(p, 300)).join(' ')}`);
  const unmet = pinned.filter((c) => !c.ok);
  log(
    (unmet.length > 0
      ? `NOT the certificate asked for: ${unmet.map((c) => c.name.replace(/^policy /, '')).join(', ')} ${unmet.length === 1 ? 'does' : 'do'} not match`
      : conclusion(verification, anyVerdict)) + mark,
  );
  return code;
}

function conclusion(verification: Verification, anyVerdict: boolean): string {
  const failed = verification.checks.filter((c) => !c.ok);
  if (!verification.authentic) return `NOT verified: ${failed.length} of ${verification.checks.length} checks fail`;
  const label = verification.report?.verdict.label ?? verification.verdict;
  if (!verification.signed) return `integrity holds (${verification.checks.length} checks): an unsigned bundle of a ${label} run, not a certificate`;
  // A merge signed on trust is still a certificate of its signer's, but the line says whom it trusted.
  const trusted = verification.report?.run.merged?.authenticated === false ? '; its shards were taken on trust (--trust-shards), not authenticated' : '';
  if (verification.verdict === 'conformant')
    return `verified: an authentic certificate of a CONFORMANT run (${verification.checks.length} checks hold)${trusted}`;
  return anyVerdict
    ? `verified: an authentic bundle of a ${label} run (--any-verdict)`
    : `authentic, but NOT a certificate of conformance: the run is ${label} (--any-verdict accepts any verdict)`;
}

/** Authentic, signed by the signer the certifier trusts, and CONFORMANT: what "certified" means. */
function isCertificate(verification: Verification): boolean {
  return verification.authentic && verification.signed && verification.verdict === 'conformant';
}
