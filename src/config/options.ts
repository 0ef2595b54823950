/**
 * The main command's options, each stated once: its flag, environment name, type, default, help text,
 * whether a replay keeps it and the GitHub Action input that sets it. The parser (args.ts), the flag
 * types of the configuration (config.ts), the usage text, the replay line, the CLI reference page
 * (docs/cli.md) and the test of action.yml are all derived from this table.
 */

export type OptionType = 'string' | 'boolean' | 'list';

export type OptionGroup = 'Target' | 'Network' | 'Run' | 'Reports' | 'Certification' | 'Settings' | 'Testing the suite itself' | 'Information';

export interface OptionSpec {
  /** The flag without its dashes: --<name>. */
  readonly name: string;
  readonly short?: string;
  /** A list option may be given more than once; its environment value holds one item per line. */
  readonly type: OptionType;
  /** What the value looks like in the usage, e.g. <url>. */
  readonly value?: string;
  /** The environment variable, always ASC_-prefixed; absent: a flag only. */
  readonly env?: string;
  /** Further environment names read when the prefixed one is not set: the documented credential names. */
  readonly aliases?: readonly string[];
  readonly group: OptionGroup;
  readonly help: string;
  /** The default in words, as the usage and docs show it; absent: none. */
  readonly default?: string;
  /** A boolean whose --no-<name> form turns it off. */
  readonly negatable?: boolean;
  /** The replay line (run.command) repeats it when given. */
  readonly replay: boolean;
  /** The input of action.yml that sets it. */
  readonly action?: string;
  /** A secret: never in a --config file, never echoed in an error. */
  readonly secret?: boolean;
  /** May be set in a --config file (default: every option but secrets and the file options themselves). */
  readonly inConfigFile?: boolean;
}

export const ENV_PREFIX = 'ASC_';

/** The table. The order is the usage's order within each group. */
export const OPTIONS = [
  // Target
  {
    name: 'target',
    type: 'string',
    value: '<url>',
    env: 'ASC_TARGET',
    aliases: ['TARGET_BASE_URL'],
    group: 'Target',
    help: 'base URL ending in /v1; none runs the embedded reference',
    replay: true,
    action: 'target',
  },
  {
    name: 'api-key',
    type: 'string',
    value: '<key>',
    env: 'ASC_API_KEY',
    aliases: ['API_KEY'],
    group: 'Target',
    help: 'API key; required for a remote target',
    replay: true,
    action: 'api-key',
    secret: true,
  },
  {
    name: 'exhaust-key',
    type: 'string',
    value: '<key>',
    env: 'ASC_EXHAUST_KEY',
    aliases: ['EXHAUST_API_KEY'],
    group: 'Target',
    help: 'a second, low-limit key (e.g. a Free key) that the rate-limit exhaustion tests spend instead',
    replay: true,
    action: 'exhaust-key',
    secret: true,
  },
  {
    name: 'plan',
    type: 'string',
    value: '<name>',
    env: 'ASC_PLAN',
    group: 'Target',
    help: "your key's plan: free | pro | business | enterprise, or enterprise:<perMinute>:<perDay>; X-RateLimit-Limit is checked against it (RATE-008, untested without it)",
    replay: true,
    action: 'plan',
  },
  {
    name: 'category-ids',
    type: 'string',
    value: '<ids>',
    env: 'ASC_CATEGORY_IDS',
    group: 'Target',
    help: 'comma list of category ids valid on the target',
    replay: true,
    action: 'category-ids',
  },
  {
    name: 'timeout',
    type: 'string',
    value: '<ms>',
    env: 'ASC_TIMEOUT',
    group: 'Target',
    help: 'per-request timeout, send to last byte',
    default: '10000',
    replay: true,
  },
  {
    name: 'max-duration',
    type: 'string',
    value: '<s>',
    env: 'ASC_MAX_DURATION',
    group: 'Target',
    help: "the whole run's time limit, waits included",
    default: 'per profile',
    replay: true,
    action: 'max-duration',
  },
  // Network
  {
    name: 'header',
    type: 'list',
    value: "'Name: value'",
    env: 'ASC_HEADER',
    group: 'Network',
    help: 'a header sent with every request (a gateway or access token, basic auth in front of staging); repeatable; its value is redacted like the key',
    replay: false,
    secret: true,
  },
  {
    name: 'proxy',
    type: 'string',
    value: '<url>',
    env: 'ASC_PROXY',
    group: 'Network',
    help: 'an HTTP proxy for every request; default HTTPS_PROXY / HTTP_PROXY, except hosts in NO_PROXY and loopback',
    replay: false,
    secret: true,
  },
  {
    name: 'ca-cert',
    type: 'string',
    value: '<pem>',
    env: 'ASC_CA_CERT',
    group: 'Network',
    help: 'trust this CA (PEM file) for the target, as well as the system ones (NODE_EXTRA_CA_CERTS works too)',
    replay: true,
  },
  {
    name: 'insecure',
    type: 'boolean',
    env: 'ASC_INSECURE',
    group: 'Network',
    help: "do not verify the target's TLS certificate; every report says so, and --certify refuses it",
    replay: true,
  },
  {
    name: 'user-agent',
    type: 'string',
    value: '<text>',
    env: 'ASC_USER_AGENT',
    group: 'Network',
    help: 'the User-Agent sent',
    default: 'animal-store-conformance/<version>',
    replay: true,
  },
  // Run
  {
    name: 'profile',
    type: 'string',
    value: '<name>',
    env: 'ASC_PROFILE',
    group: 'Run',
    help: 'quick, standard or thorough',
    default: 'thorough on the embedded reference, standard remote',
    replay: true,
    action: 'profile',
  },
  { name: 'read-only', type: 'boolean', env: 'ASC_READ_ONLY', group: 'Run', help: 'never call createPet (for production)', replay: true, action: 'read-only' },
  {
    name: 'exhaust',
    type: 'boolean',
    negatable: true,
    env: 'ASC_EXHAUST',
    group: 'Run',
    help: 'with --no-exhaust: skip the rate-limit exhaustion tests',
    default: 'true',
    replay: true,
  },
  {
    name: 'seed',
    type: 'string',
    value: '<n>',
    env: 'ASC_SEED',
    group: 'Run',
    help: 'replay a run: same cases, same order',
    default: 'random',
    replay: true,
    action: 'seed',
  },
  { name: 'only', type: 'string', value: '<areas|ids>', env: 'ASC_ONLY', group: 'Run', help: 'comma list, e.g. auth,RATE-001', replay: true },
  { name: 'strict', type: 'boolean', env: 'ASC_STRICT', group: 'Run', help: 'SHOULD failures make the target not conformant', replay: true, action: 'strict' },
  {
    name: 'fail-fast',
    type: 'boolean',
    env: 'ASC_FAIL_FAST',
    group: 'Run',
    help: 'stop at the first failure that makes the target not conformant; the rest is reported as not run',
    replay: true,
  },
  {
    name: 'require-complete',
    type: 'boolean',
    env: 'ASC_REQUIRE_COMPLETE',
    group: 'Run',
    help: 'a PARTIAL run exits 1 (implied by --certify)',
    replay: true,
    action: 'require-complete',
  },
  {
    name: 'replay',
    type: 'string',
    value: '<report.json>',
    group: 'Run',
    help: 'run again only the failing tests of that report (with --only <ids>, of those requirements): its target, profile, seed and options; give the key again',
    replay: false,
    inConfigFile: false,
  },
  {
    name: 'shard',
    type: 'string',
    value: '<i/n>',
    env: 'ASC_SHARD',
    group: 'Run',
    help: 'run one shard of n (needs --seed); merge with --merge-reports',
    replay: true,
    action: 'shard',
    inConfigFile: false,
  },
  {
    name: 'run-nonce',
    type: 'string',
    value: '<string>',
    env: 'ASC_RUN_NONCE',
    group: 'Run',
    help: "one value for every shard of a run (a CI run's id and attempt): recorded in each shard, and --merge-reports refuses shards of different runs",
    replay: true,
    action: 'run-nonce',
    inConfigFile: false,
  },
  {
    name: 'merge-reports',
    type: 'string',
    value: '<dir>',
    group: 'Run',
    help: "merge the shards' blob/ files into one report; target, profile, seed and options come from the shards",
    replay: false,
    action: 'merge-reports',
    inConfigFile: false,
  },
  {
    name: 'quiet',
    short: 'q',
    type: 'boolean',
    env: 'ASC_QUIET',
    group: 'Run',
    help: 'no progress on stderr but its first line (no line per area, no live line, no rate-limit wait lines)',
    replay: false,
  },
  // Reports
  {
    name: 'report-dir',
    type: 'string',
    value: '<dir>',
    env: 'ASC_REPORT_DIR',
    group: 'Reports',
    help: 'where conformance.html, conformance.json and junit.xml go',
    default: 'reports',
    replay: false,
    action: 'report-dir',
  },
  { name: 'html', type: 'string', value: '<path>', env: 'ASC_HTML', group: 'Reports', help: 'also write the HTML report here', replay: false },
  { name: 'json', type: 'string', value: '<path>', env: 'ASC_JSON', group: 'Reports', help: 'also write the JSON report here', replay: false },
  { name: 'junit', type: 'string', value: '<path>', env: 'ASC_JUNIT', group: 'Reports', help: 'also write the JUnit XML here', replay: false },
  {
    name: 'summary-md',
    type: 'string',
    value: '<path>',
    env: 'ASC_SUMMARY_MD',
    group: 'Reports',
    help: 'write a Markdown summary here (a pull-request comment, a job summary)',
    replay: false,
  },
  {
    name: 'expected-deviations',
    type: 'string',
    value: '<file>',
    env: 'ASC_EXPECTED_DEVIATIONS',
    group: 'Reports',
    help: 'known deviations (YAML/JSON [{id, reason}])',
    replay: true,
    action: 'expected-deviations',
  },
  {
    name: 'baseline',
    type: 'string',
    value: '<file>',
    env: 'ASC_BASELINE',
    group: 'Reports',
    help: 'known failures the gate accepts until they expire: the same format, with optional expires (YYYY-MM-DD) and fingerprint',
    replay: true,
    action: 'baseline',
  },
  {
    name: 'update-baseline',
    type: 'boolean',
    group: 'Reports',
    help: "write --baseline from this run's failures, keeping reasons and expiries",
    replay: false,
    inConfigFile: false,
  },
  // Certification
  {
    name: 'certify',
    type: 'string',
    value: '<dir>',
    env: 'ASC_CERTIFY',
    group: 'Certification',
    help: 'also write a certification bundle (reports, HAR, manifest); needs --profile thorough, no --only, no --shard, --plan when remote',
    replay: false,
    action: 'certify',
  },
  { name: 'force', type: 'boolean', group: 'Certification', help: 'with --certify: empty the bundle directory first', replay: false, inConfigFile: false },
  {
    name: 'sign-key',
    type: 'string',
    value: '<pem>',
    env: 'ASC_SIGN_KEY',
    aliases: ['SIGN_KEY_FILE'],
    group: 'Certification',
    help: "Ed25519 key that signs the bundle's attestation",
    replay: false,
    action: 'sign-key',
    secret: true,
  },
  {
    name: 'implementation',
    type: 'string',
    value: '<name@version>',
    env: 'ASC_IMPLEMENTATION',
    group: 'Certification',
    help: 'the implementation certified, as its implementer names it',
    replay: false,
  },
  {
    name: 'implementation-digest',
    type: 'string',
    value: '<sha256:hex>',
    env: 'ASC_IMPLEMENTATION_DIGEST',
    group: 'Certification',
    help: 'the digest of what was tested (an image, a release archive): the subject of the signed statement',
    replay: false,
  },
  // Settings
  {
    name: 'config',
    type: 'string',
    value: '<file>',
    env: 'ASC_CONFIG',
    group: 'Settings',
    help: 'settings kept in the repository (YAML or JSON, keys named as the flags); flags and ASC_ variables win over it',
    replay: false,
    inConfigFile: false,
  },
  {
    name: 'env-file',
    type: 'string',
    value: '<file>',
    env: 'ASC_ENV_FILE',
    group: 'Settings',
    help: 'read ASC_ variables and the key from this dotenv file; no .env is read without it',
    replay: false,
    inConfigFile: false,
  },
  // Testing the suite itself
  {
    name: 'reference-faults',
    type: 'string',
    value: '<names>',
    group: 'Testing the suite itself',
    help: 'embedded reference only: inject named faults and watch the suite fail (help faults lists them)',
    replay: true,
  },
  {
    name: 'reference-variants',
    type: 'string',
    value: '<names>',
    group: 'Testing the suite itself',
    help: 'embedded reference only: take liberties the interface allows (help variants lists them)',
    replay: true,
  },
  // Information
  {
    name: 'help',
    short: 'h',
    type: 'boolean',
    group: 'Information',
    help: 'this text; help <command> for compare, verify, keygen, matrix, reference, faults, variants',
    replay: false,
    inConfigFile: false,
  },
  { name: 'version', short: 'V', type: 'boolean', group: 'Information', help: "the suite's version", replay: false, inConfigFile: false },
] as const satisfies readonly OptionSpec[];

export type OptionName = (typeof OPTIONS)[number]['name'];

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type ValueOf<T extends OptionType> = T extends 'boolean' ? boolean : T extends 'list' ? readonly string[] : string;

/** The options as parsed (undefined = not given), keyed by the flag's name in camelCase. */
export type OptionValues = { -readonly [O in (typeof OPTIONS)[number] as Camel<O['name']>]?: ValueOf<O['type']> };

/** The key of an option in OptionValues: --exhaust-key → exhaustKey. */
export function keyOf(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

export function optionNamed(name: string): OptionSpec | undefined {
  return (OPTIONS as readonly OptionSpec[]).find((option) => option.name === name);
}

/** Every flag the parser accepts, with the --no- forms of negatable booleans. */
export function flagNames(): string[] {
  return (OPTIONS as readonly OptionSpec[]).flatMap((option) => (option.negatable ? [option.name, `no-${option.name}`] : [option.name]));
}

/** Options a --config file may set. */
export function configFileOptions(): OptionSpec[] {
  return (OPTIONS as readonly OptionSpec[]).filter((option) => (option.inConfigFile ?? !option.secret) && option.group !== 'Information');
}
