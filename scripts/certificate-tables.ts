// Derives the certificate tables keyed by requirement from authentic runs (npm run certificate:tables):
// embedded runs of the reference at the thorough profile over a few seeds, one standard run of each
// valid variant (--no-variants: none), plus any report directories given (a remote run's, a read-only
// one's), then prints what every table would hold, the checked-in
// entries an authentic pass contradicts (exit 1: they would refuse a genuine run), and the requirements
// each table leaves out with the reason the runs give. --write writes those reasons to
// src/certificate/table-absences.ts, which test/certificate/table-absences.test.ts holds every tested
// requirement to.
//
//   npm run certificate:tables -- [--seeds 1,2] [--no-variants] [--reports <dir>]… [--write]
// About five minutes on two cores (the variants' runs, two at a time).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCatalog } from '../src/catalog/catalog.ts';
import { VARIANT_NAMES } from '../src/reference/variants.ts';
import { JUDGED_BY_EVERY_PASS } from '../src/certificate/coverage.ts';
import { EVERY_EXCHANGE_NAMED } from '../src/certificate/named-exchanges.ts';
import { REQUESTS_OF_EVERY_PASS } from '../src/certificate/request-counts.ts';
import { PARAMS_OF_EVERY_JUDGMENT, STATUSES_ALLOWED } from '../src/certificate/stated-params.ts';
import { type DerivedRequirement, deriveTables, passesOf, tableContradictions } from '../src/certificate/table-derivation.ts';
import type { TableName } from '../src/certificate/table-absences.ts';
import type { ConformanceReport } from '../src/report/report-types.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1,2' },
    variants: { type: 'boolean', default: true },
    reports: { type: 'string', multiple: true, default: [] },
    write: { type: 'boolean', default: false },
  },
  allowNegative: true,
});

const work = mkdtempSync(join(tmpdir(), 'certificate-tables-'));
const dirs = [...values.reports];

/** One embedded run into its own report directory; resolves when it ends (a failing run still reports). */
function embeddedRun(label: string, args: readonly string[]): Promise<void> {
  const dir = join(work, label);
  dirs.push(dir);
  console.error(`${label}…`);
  return new Promise((resolve) => {
    spawn(process.execPath, [join(ROOT, 'src/bin/animal-store-conformance.js'), ...args, '--quiet', '--report-dir', dir], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'ignore'],
    }).on('close', () => resolve());
  });
}

const runs: Array<[string, string[]]> = [
  ...values.seeds
    .split(',')
    .filter(Boolean)
    .map((seed): [string, string[]] => [`reference-thorough-${seed}`, ['--profile', 'thorough', '--seed', seed]]),
  ...(values.variants
    ? VARIANT_NAMES.map((v): [string, string[]] => [`variant-${v}`, ['--reference-variants', v, '--profile', 'standard', '--seed', '1']])
    : []),
];
// Two at a time: a run is one process and its workers, and the machine has few cores.
for (let i = 0; i < runs.length; i += 2) await Promise.all(runs.slice(i, i + 2).map(([label, args]) => embeddedRun(label, args)));
const reports = dirs
  .filter((dir) => existsSync(join(dir, 'conformance.json')))
  .map((dir) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport);
if (reports.length < dirs.length) console.error(`${dirs.length - reports.length} runs wrote no report`);
rmSync(work, { recursive: true, force: true });
const derived = deriveTables(reports.map(passesOf));

const listed: Record<TableName, readonly string[]> = {
  JUDGED_BY_EVERY_PASS: Object.keys(JUDGED_BY_EVERY_PASS),
  PARAMS_OF_EVERY_JUDGMENT: Object.keys(PARAMS_OF_EVERY_JUDGMENT),
  STATUSES_ALLOWED: Object.keys(STATUSES_ALLOWED),
  EVERY_EXCHANGE_NAMED,
  REQUESTS_OF_EVERY_PASS: Object.keys(REQUESTS_OF_EVERY_PASS),
};

/** Why a table leaves the requirement out, as the runs give it; "not listed yet" marks an entry the runs would allow. */
const REASONS: Record<TableName, (d: DerivedRequirement) => string> = {
  JUDGED_BY_EVERY_PASS: (d) =>
    d.judgedByEveryPass.length === 0
      ? 'its passes share no judgment: its tests judge by different rules'
      : `every pass of these runs judges by ${d.judgedByEveryPass.join(', ')}: not listed yet`,
  PARAMS_OF_EVERY_JUDGMENT: (d) => {
    // status-in's allowed statuses are STATUSES_ALLOWED's.
    const stated = Object.entries(d.params)
      .map(([rule, params]): [string, Record<string, string[]>] => [rule, rule === 'status-in' ? {} : params])
      .filter(([, params]) => Object.keys(params).length > 0);
    if (stated.length === 0) return 'its judgments state no param the log does not give (statuses, rules without params)';
    const shown = stated.map(([rule, params]) => `${rule} (${Object.keys(params).join(', ')})`).join('; ');
    return `its rules state params no table holds: ${shown.length > 160 ? `${shown.slice(0, 157)}...` : shown}`;
  },
  STATUSES_ALLOWED: (d) =>
    d.statusesAllowed.length === 0
      ? 'no pass judges a status (no status judgment, no status-in)'
      : `its passes in these runs allow ${d.statusesAllowed.join(', ')}: not listed yet`,
  EVERY_EXCHANGE_NAMED: (d) =>
    d.mostUnnamed > 0
      ? `a pass sends up to ${d.mostUnnamed} exchanges no judgment names (a set-up request, a source, a retry)`
      : 'every pass named every exchange in these runs: not listed yet',
  REQUESTS_OF_EVERY_PASS: (d) => {
    if (!d.requests) return 'no pass on a whole-catalog run';
    const { min, max } = d.requests;
    if (min !== max) return `its passes send ${min} to ${max} requests: the count follows the seed, plan or store`;
    if (min <= 1) return `a pass sends ${min} request: a pass with none is refused already`;
    return `every pass of these runs sends ${min}: not listed yet`;
  },
};

/**
 * Why a table leaves out a requirement its runs would allow, read from its tests' code: these runs
 * cannot show the cases that break the entry (another order, --only, a remote plan, a removed getPet).
 */
const SHARED =
  'its tests judge the answers of requests their file shares (once): whichever test runs first sends them all (with --only, this one), and a test judges only some of them';
const PROVOKED =
  "its errors come from provokeErrors (suites/support/errors-provoke.ts), which keeps only the answers of the status the interface documents: another (getPet's 410 after its sunset) is sent and judged by none";
const FROM_THE_CODE: Partial<Record<TableName, Readonly<Record<string, string>>>> = {
  EVERY_EXCHANGE_NAMED: {
    ...Object.fromEntries(
      [
        'STA-015',
        'ERR-004',
        'ERR-005',
        'RATE-001',
        'RATE-002',
        'RATE-003',
        'RATE-005',
        'RATE-006',
        'RATE-009',
        'RATE-010',
        'RATE-012',
        'DEP-002',
        'DEP-003',
        'DEP-004',
        'DEP-005',
        'DEP-007',
      ].map((id) => [id, SHARED]),
    ),
    ...Object.fromEntries(['STA-009', 'ERR-001', 'ERR-002', 'ERR-003'].map((id) => [id, PROVOKED])),
  },
  REQUESTS_OF_EVERY_PASS: {
    'RATE-004':
      "its exhaustion follows the plan: after its first reading it sends Remaining and one more on a key the suite alone spends (4 on the embedded reference), fewer where others spend the key; its rules on the sequence and the file's numbers hold it",
  },
};

const tested = loadCatalog()
  .requirements.filter((r) => r.coverage === 'tested')
  .map((r) => r.id);
const absences: Record<string, Record<string, string>> = {};
for (const [table, ids] of Object.entries(listed) as Array<[TableName, readonly string[]]>) {
  absences[table] = {};
  for (const id of tested.filter((i) => !ids.includes(i))) {
    const d = derived.get(id);
    const derivedReason = d ? REASONS[table](d) : 'no pass in the runs derived from';
    const known = FROM_THE_CODE[table]?.[id];
    (absences[table] as Record<string, string>)[id] = known !== undefined && derivedReason.endsWith('not listed yet') ? known : derivedReason;
  }
  const gaps = Object.entries(absences[table] ?? {}).filter(([, why]) => why.endsWith('not listed yet'));
  console.log(
    `${table}: ${ids.length} listed, ${Object.keys(absences[table] ?? {}).length} left out${gaps.length ? `, of which the runs would allow ${gaps.map(([id]) => id).join(', ')}` : ''}`,
  );
}

const contradictions = tableContradictions(derived, {
  judgedByEveryPass: JUDGED_BY_EVERY_PASS,
  statusesAllowed: STATUSES_ALLOWED,
  requestsOfEveryPass: REQUESTS_OF_EVERY_PASS,
});
for (const line of contradictions) console.log(`CONTRADICTED ${line}`);
console.log(`${reports.length} runs, ${[...derived.values()].reduce((n, d) => n + d.passes, 0)} passes; ${contradictions.length} entries contradicted`);

if (values.write) {
  const path = join(ROOT, 'src/certificate/table-absences.ts');
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('export const TABLE_ABSENCES');
  writeFileSync(
    path,
    `${text.slice(0, start)}export const TABLE_ABSENCES: Readonly<Record<TableName, Readonly<Record<string, string>>>> = ${JSON.stringify(absences, null, 2)};\n`,
  );
  spawnSync(join(ROOT, 'node_modules/.bin/prettier'), ['--write', path], { stdio: 'inherit' });
  console.log(`wrote ${path}`);
}
process.exitCode = contradictions.length > 0 ? 1 : 0;
