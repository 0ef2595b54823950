import { parseArgs } from 'node:util';
import { CONFIG_DEFAULTS, type Config, type ConfigFlags } from '../config.ts';
import { HarnessError } from '../errors.ts';
import { PROFILES, PROFILE_RULES, describeProfiles } from '../profiles.ts';

export const USAGE = `Usage: animal-store-conformance [options]
       animal-store-conformance compare <before.json> <after.json> [--format text|markdown|json]
       animal-store-conformance verify <bundle-dir> [--public-key <pem>]
       animal-store-conformance keygen <dir>
       animal-store-conformance matrix <bundle-or-report>… --out <dir> [--public-key <pem|dir>]… [--allow-unsigned] [--include-unverified]
       animal-store-conformance help [compare|verify|keygen|matrix|faults|variants]
       npm run conformance -- [options]

Runs the Animal Store conformance suite against a target and writes reports/conformance.{html,json}
and reports/junit.xml. With no --target, an embedded reference server is started and tested.

Target
  --target <url>            base URL ending in /v1                      (TARGET_BASE_URL)
  --api-key <key>           API key; required for a remote target       (API_KEY)
  --exhaust-key <key>       a second, low-limit key (e.g. a Free key for testing) that the
                            rate-limit exhaustion tests spend instead   (EXHAUST_API_KEY)
  --plan <name>             your key's plan: free | pro | business | enterprise, or
                            enterprise:<perMinute>:<perDay> for custom limits; X-RateLimit-Limit is
                            checked against it (RATE-008, untested without it) and the report
                            shows the daily quota used                        (PLAN)
  --category-ids <ids>      comma list of category ids valid on the target (CATEGORY_IDS)
  --timeout <ms>            per-request timeout, send to last byte, default ${CONFIG_DEFAULTS.timeoutMs} (TIMEOUT_MS)
  --max-duration <s>        the whole run's time limit, waits included  (MAX_DURATION)
                            default: ${PROFILES.map((p) => `${p} ${PROFILE_RULES[p].maxDurationMs / 1000}`).join(', ')}

Run
  --profile <name>          ${describeProfiles()}
                            default: ${CONFIG_DEFAULTS.embeddedProfile} on the embedded reference, ${CONFIG_DEFAULTS.remoteProfile} remote (PROFILE)
  --read-only               never call createPet (for production)       (READ_ONLY=true)
  --no-exhaust              skip the rate-limit exhaustion test         (EXHAUST=false)
  --seed <n>                replay a run: same cases, same order        (SEED)
  --only <areas|ids>        comma list, e.g. auth,RATE-001              (ONLY)
  --strict                  SHOULD failures make the target not conformant (STRICT=true)
  --fail-fast               stop at the first failure that makes the target not conformant;
                            the rest is reported as not run                    (FAIL_FAST=true)
  --require-complete        a PARTIAL run exits 1 (REQUIRE_COMPLETE=true; implied by --certify)
  --replay <report.json>    run again only the failing tests of that report (with --only <ids>,
                            of those requirements): its target, profile, seed and options, each
                            property on its counterexample; give the key again (--api-key)
  --shard <i/n>             run one shard of n (needs --seed); merge with --merge-reports
  --merge-reports <dir>     merge the shards' blob/ files into one report; target, profile,
                            seed and options come from the shards, which must agree

Reports
  --report-dir <dir>        default reports/                            (REPORT_DIR)
  --certify <dir>           also write a certification bundle (reports, HAR, manifest) (CERTIFY_DIR);
                            needs --profile thorough, no --only, no --shard, --plan when remote;
                            refuses a non-empty directory
  --force                   with --certify: empty the bundle directory first
  --sign-key <pem>          Ed25519 key that signs the bundle's attestation    (SIGN_KEY_FILE)
  --implementation <n@v>    the implementation certified, as its implementer names it
  --implementation-digest <sha256:hex>  the digest of what was tested (an image, a release archive):
                            the subject of the signed statement
  --expected-deviations <file>  known deviations (YAML/JSON [{id, reason}]) (EXPECTED_DEVIATIONS)
  --baseline <file>         known failures the gate accepts until they expire: the same format,
                            with optional expires (YYYY-MM-DD) and fingerprint       (BASELINE)
  --update-baseline         write --baseline from this run's failures, keeping reasons and expiries
  --quiet, -q               no progress on stderr but its first line (areas, waits)  (QUIET=true)

Testing the suite itself (embedded reference only)
  --reference-faults <names>    inject named faults and watch the suite fail (help faults lists them)
  --reference-variants <names>  take liberties the interface allows (help variants lists them)

  --help, -h                this text; <command> --help or help <command> for compare, verify, keygen
  --version, -V             the suite's version

Flags win over environment variables, which win over a .env file in the current directory.
Verdicts and exit codes:
  CONFORMANT      0  every MUST requirement in scope was tested and passed (SHOULDs too with --strict)
  NOT CONFORMANT  1  a MUST requirement failed (a failure found always wins)
  PARTIAL         0  nothing failed, but some MUST in scope was not tested (profile, budget, --only,
                     --read-only, --no-exhaust, a precondition…); 1 with --require-complete
  INCOMPLETE      2  the run could not be completed: bad configuration, target unreachable, key
                     refused, not an Animal Store API, interrupted, or a harness error
In scope: every requirement of the catalog except those the interface does not show.`;

export interface CliArgs {
  help: boolean;
  mergeReports: string | undefined;
  flags: ConfigFlags;
}

/** The options of the main command; those of type string take a value. */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  target: { type: 'string' },
  'api-key': { type: 'string' },
  'exhaust-key': { type: 'string' },
  plan: { type: 'string' },
  'report-dir': { type: 'string' },
  profile: { type: 'string' },
  'category-ids': { type: 'string' },
  'read-only': { type: 'boolean' },
  exhaust: { type: 'boolean' },
  'no-exhaust': { type: 'boolean' },
  seed: { type: 'string' },
  strict: { type: 'boolean' },
  'fail-fast': { type: 'boolean' },
  'require-complete': { type: 'boolean' },
  only: { type: 'string' },
  timeout: { type: 'string' },
  'max-duration': { type: 'string' },
  shard: { type: 'string' },
  'merge-reports': { type: 'string' },
  certify: { type: 'string' },
  'expected-deviations': { type: 'string' },
  baseline: { type: 'string' },
  'update-baseline': { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  'sign-key': { type: 'string' },
  implementation: { type: 'string' },
  'implementation-digest': { type: 'string' },
  force: { type: 'boolean' },
  'reference-faults': { type: 'string' },
  'reference-variants': { type: 'string' },
} as const;

/**
 * `--timeout -1` as `--timeout=-1`: node's parser takes a value that starts with "-" for an option and
 * calls it ambiguous; the value's own check then says what is wrong with it.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const option = OPTIONS[arg.slice(2) as keyof typeof OPTIONS] as { type: string } | undefined;
    const next = argv[i + 1];
    if (arg.startsWith('--') && option?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** `--help`/`-h` or `--version`/`-V` anywhere: answered before anything else is parsed or written. */
export function infoRequest(argv: readonly string[]): 'help' | 'version' | undefined {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return 'help';
  if (argv.some((arg) => arg === '--version' || arg === '-V')) return 'version';
  return undefined;
}

export function parseCliArgs(argv: readonly string[]): CliArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: joinNegativeValues(argv),
      allowPositionals: false,
      strict: true,
      options: OPTIONS,
    }));
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new HarnessError('ERR_CONFIG', `${message} (see --help)`);
  }
  const str = (name: string) => values[name] as string | undefined;
  const bool = (name: string) => values[name] as boolean | undefined;
  return {
    help: bool('help') === true,
    mergeReports: str('merge-reports'),
    flags: {
      target: str('target'),
      apiKey: str('api-key'),
      exhaustKey: str('exhaust-key'),
      plan: str('plan'),
      reportDir: str('report-dir'),
      profile: str('profile'),
      categoryIds: str('category-ids'),
      readOnly: bool('read-only'),
      exhaust: bool('no-exhaust') ? false : bool('exhaust'),
      seed: str('seed'),
      strict: bool('strict'),
      failFast: bool('fail-fast'),
      requireComplete: bool('require-complete'),
      only: str('only'),
      timeout: str('timeout'),
      maxDuration: str('max-duration'),
      certify: str('certify'),
      expectedDeviations: str('expected-deviations'),
      baseline: str('baseline'),
      updateBaseline: bool('update-baseline'),
      quiet: bool('quiet'),
      signKey: str('sign-key'),
      implementation: str('implementation'),
      implementationDigest: str('implementation-digest'),
      force: bool('force'),
      shard: str('shard'),
      referenceFaults: str('reference-faults'),
      referenceVariants: str('reference-variants'),
    },
  };
}

/**
 * The report directory the user asked for, read from raw arguments that may not parse (an unknown flag):
 * --report-dir, then REPORT_DIR, then reports/.
 */
export function reportDirOf(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): string {
  for (let i = argv.length - 1; i >= 0; i -= 1) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--report-dir=')) return arg.slice('--report-dir='.length);
    if (arg === '--report-dir' && argv[i + 1] !== undefined) return argv[i + 1] as string;
  }
  return env.REPORT_DIR || CONFIG_DEFAULTS.reportDir;
}

/**
 * The command that reproduces a run: same target, profile, seed and every option that changes the verdict.
 * The key stays in $API_KEY: an empty "$API_KEY" counts as not given, so a key from .env still applies.
 */
export function reproduceCommand(config: Config): string {
  const parts = ['npx animal-store-conformance'];
  if (config.target) parts.push(`--target ${shellQuote(config.target)}`, '--api-key "$API_KEY"');
  if (config.exhaustApiKey) parts.push('--exhaust-key "$EXHAUST_API_KEY"');
  if (config.plan) parts.push(`--plan ${config.plan}${config.planLimits ? `:${config.planLimits.perMinute}:${config.planLimits.perDay}` : ''}`);
  // --seed=-5, not --seed -5: the parser would take "-5" for an option.
  parts.push(`--profile ${config.profile}`, `--seed=${config.seed}`);
  if (config.categoryIds) parts.push(`--category-ids ${config.categoryIds.join(',')}`);
  if (config.readOnly) parts.push('--read-only');
  if (!config.exhaust) parts.push('--no-exhaust');
  if (config.strict) parts.push('--strict');
  if (config.failFast) parts.push('--fail-fast');
  if (config.requireComplete) parts.push('--require-complete');
  if (config.expectedDeviations) parts.push(`--expected-deviations ${shellQuote(config.expectedDeviations)}`);
  if (config.baseline) parts.push(`--baseline ${shellQuote(config.baseline)}`);
  if (config.only.length > 0) parts.push(`--only ${shellQuote(config.only.join(','))}`);
  if (config.timeoutMs !== CONFIG_DEFAULTS.timeoutMs) parts.push(`--timeout ${config.timeoutMs}`);
  if (config.maxDurationGiven) parts.push(`--max-duration ${Math.round(config.maxDurationMs / 1000)}`);
  if (config.shard) parts.push(`--shard ${config.shard}`);
  if (config.referenceFaults.length > 0) parts.push(`--reference-faults ${config.referenceFaults.join(',')}`);
  if (config.referenceVariants.length > 0) parts.push(`--reference-variants ${config.referenceVariants.join(',')}`);
  return parts.join(' ');
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
