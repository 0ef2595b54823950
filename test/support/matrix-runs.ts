import type { KeyObject } from 'node:crypto';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { suiteVersion } from '../../src/cli/paths.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { createContract } from '../../src/contract/index.ts';
import type { ConformanceMeta } from '../../src/report/test-meta.ts';
import { buildReport } from '../../src/report/build-report.ts';
import { suiteIdentity, writeCertificationBundle } from '../../src/certificate/index.ts';
import type { ConformanceReport, Deviation, TestOutcome } from '../../src/report/report-types.ts';
import type { MatrixInput, Trust } from '../../src/matrix/matrix-types.ts';
import { BASE_TIME, runInfo } from './report-builders.ts';
import { asLogged } from '../certificate/logged-run.ts';

/** Text a hostile bundle could carry: it must render inert in every output. */
export const HOSTILE = `<script>window.__xss = 1</script><img src=x onerror="window.__xss=2">[x](javascript:alert(1))|"'&`;

const CATALOG = loadCatalog();
const CONTRACT = createContract();

export interface Run {
  /** Requirement ids whose test fails (a MUST: fail; a SHOULD: warn). */
  failing?: readonly string[];
  /** Requirement ids whose test is skipped (untested). */
  skipped?: readonly string[];
  deviations?: readonly Deviation[];
  /** Put into the failures' message, expected and actual. */
  failureText?: string;
  /** Minutes after the base time the run ended. */
  minute?: number;
}

/**
 * A thorough run over the real catalog, made by this suite against this interface (so `verify` can
 * hold), every test passing but the ones named: each failure carries an exchange and a curl line.
 */
export function makeRun(run: Run = {}): { report: ConformanceReport; exchanges: Exchange[] } {
  let seq = 0;
  const tests: TestOutcome[] = [];
  const exchanges: Exchange[] = [];
  for (const requirement of CATALOG.requirements) {
    if (requirement.coverage === 'not-covered') continue;
    const id = requirement.id;
    const meta: ConformanceMeta = { requirementId: id, level: requirement.level, area: requirement.area, findings: [], exchanges: [] };
    let state: TestOutcome['state'] = 'passed';
    if (run.failing?.includes(id)) {
      seq += 1;
      const exchange: Exchange = {
        seq,
        startedAt: BASE_TIME + seq,
        durationMs: 5,
        operationId: 'listPets',
        request: { method: 'GET', url: `https://impl.example/v1/pets?limit=${seq}`, headers: { authorization: 'Bearer ***' } },
        // A response every always-on check accepts: the failure is the test's own judgment, as the report says.
        response: {
          status: 200,
          headers: {
            'content-type': 'application/json',
            'x-ratelimit-limit': '1000',
            'x-ratelimit-remaining': '900',
            'x-ratelimit-reset': String(Math.floor((BASE_TIME + seq) / 1000) + 60),
          },
          body: `[{"id":${seq},"name":${JSON.stringify(run.failureText ?? 'boom')},"categoryId":1}]`,
        },
        curl: `curl -sS 'https://impl.example/v1/pets?limit=${seq}' -H 'Authorization: Bearer $API_KEY' # ${run.failureText ?? ''}`,
      };
      meta.exchanges.push(exchange);
      exchanges.push(exchange);
      const text = run.failureText ?? '';
      meta.failure = {
        kind: 'conformance',
        code: 'ERR_CONFORMANCE',
        message: `${id} broken ${text}`,
        expected: `a valid answer ${text}`,
        actual: `status 500 ${text}`,
        exchangeSeqs: [seq],
      };
      state = 'failed';
    } else if (run.skipped?.includes(id)) {
      meta.skipReason = 'not in this run';
      meta.skipCode = 'not-selected';
      state = 'skipped';
    }
    tests.push({ id: `${id}-t`, name: `${id} ${requirement.text}`, file: `suites/${requirement.area}.test.ts`, state, durationMs: 3, errors: [], meta });
  }
  // What a real run records: the findings the checks give on each exchange, a judgment per pass.
  const logged = asLogged(tests, CONTRACT, BASE_TIME);
  exchanges.splice(0, exchanges.length, ...logged.flatMap((t) => (t.meta?.exchanges ?? []).filter((e) => !e.sharedFrom)));
  const report = buildReport({
    runInfo: runInfo({
      suiteVersion: suiteVersion(),
      specVersion: CONTRACT.version,
      specSha256: CONTRACT.sha256,
      profile: 'thorough',
      plan: 'pro',
      suiteIdentity: suiteIdentity(),
      requireComplete: true,
      endedAt: new Date(BASE_TIME + (run.minute ?? 2) * 60_000).toISOString(),
    }),
    catalog: CATALOG,
    tests: logged,
    harnessErrors: [],
    strict: false,
    expectedDeviations: run.deviations ?? [],
  });
  return { report, exchanges };
}

/** A certification bundle of that run in `dir`, signed when a key is given. */
export function makeBundle(
  dir: string,
  run: Run,
  options: { implementation?: string; implementationDigest?: string; signKey?: KeyObject } = {},
): ConformanceReport {
  const { report, exchanges } = makeRun(run);
  writeCertificationBundle(report, exchanges, dir, options);
  return report;
}

/** An input as the adapter would give it, without the files: for the pure modules' tests. */
export function input(source: string, run: Run, extra: Partial<MatrixInput> & { trust?: Trust } = {}): MatrixInput {
  return { source, trust: 'verified', problems: [], suiteIdentity: `animal-store-conformance@${suiteVersion()}`, report: makeRun(run).report, ...extra };
}
