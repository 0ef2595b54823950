import { loadCatalog } from '../../src/catalog/catalog.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { createContract } from '../../src/contract/index.ts';
import type { ConformanceMeta } from '../../src/report/test-meta.ts';
import { buildReport } from '../../src/report/build-report.ts';
import type { ConformanceReport, Deviation, TestOutcome } from '../../src/report/report-types.ts';
import { BASE_TIME, runInfo } from './report-builders.ts';

/** Text a hostile target could send: it must render inert everywhere. */
export const HOSTILE = `<script>window.__xss = 1</script><img src=x onerror="window.__xss=2">"'&\u0001\u001b`;

export interface Sample {
  report: ConformanceReport;
  exchanges: Exchange[];
  tests: TestOutcome[];
}

const BASE = 'https://staging.animal-store.example/v1';
const CATALOG = loadCatalog();
const SPEC_OPERATIONS = createContract().operations;
const OPS = ['listPets', 'createPet', 'getPet'] as const;

/**
 * A run over the real catalog (~70 requirements) with `exchangesPerTest` summarised exchanges per
 * passing test, and a few failures of every kind: a MUST broken by a test, one broken by an always-on
 * finding, a property counterexample, a SHOULD warning, a declared deviation, skips and not-covered.
 */
export function sampleReport(options: { exchangesPerTest?: number; harnessErrors?: boolean } = {}): Sample {
  const catalog = CATALOG;
  const perTest = options.exchangesPerTest ?? 40;
  let seq = 0;
  const next = (full: boolean, given?: number, op: (typeof OPS)[number] = OPS[seq % 3]!, body?: string): Exchange => {
    seq += 1;
    const status = given ?? (op === 'createPet' ? 201 : 200);
    const remaining = 999 - (seq % 1000);
    const limitHeaders = {
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(Math.floor(BASE_TIME / 1000) + 60),
    };
    const method = op === 'createPet' ? 'POST' : 'GET';
    const url = op === 'getPet' ? `${BASE}/pets/9007199254740993` : `${BASE}/pets${op === 'listPets' ? '?limit=20' : ''}`;
    const requestBody = op === 'createPet' ? `{"name":"conformance-1a2b ${HOSTILE}","categoryId":9223372036854775807}` : undefined;
    return {
      seq,
      startedAt: BASE_TIME + seq * 25,
      durationMs: 6 + (seq % 11),
      operationId: op,
      request: full
        ? {
            method,
            url,
            headers: { authorization: 'Bearer ***', accept: 'application/json', ...(requestBody ? { 'content-type': 'application/json' } : {}) },
            body: requestBody,
          }
        : { method, url, headers: {} },
      response: full
        ? {
            status,
            headers: { 'content-type': 'application/json', ...limitHeaders, 'x-hostile': HOSTILE },
            body: body ?? `[{"id":9007199254740993,"name":${JSON.stringify(HOSTILE)},"categoryId":1}]`,
          }
        : { status, headers: {} },
      curl: `curl -sS -X ${method} '${url}' -H 'Authorization: Bearer $API_KEY'${requestBody ? ` -H 'Content-Type: application/json' --data-raw '${requestBody}'` : ''}`,
      rateLimit: { limit: 1000, remaining, reset: Math.floor(BASE_TIME / 1000) + 60 },
    };
  };
  /** The exhaustion key of the embedded reference: 12 a window, spent to 0, then a 429. */
  const exhaust = (): Exchange[] =>
    Array.from({ length: 13 }, (_, i) => {
      const e = next(false, i === 12 ? 429 : 200, 'listPets');
      e.rateLimit = { limit: 12, remaining: Math.max(0, 11 - i), reset: 0 };
      return e;
    });
  const tests: TestOutcome[] = [];
  const add = (requirementId: string, state: TestOutcome['state'], extra: Partial<ConformanceMeta> = {}, errors: string[] = []) => {
    const requirement = catalog.get(requirementId);
    const meta: ConformanceMeta = { requirementId, level: requirement.level, area: requirement.area, findings: [], exchanges: [], ...extra };
    tests.push({
      id: `${requirementId}-${tests.length}`,
      name: `${requirementId} ${requirement.text}`,
      file: `suites/${requirement.area}.test.ts`,
      state,
      durationMs: 40 + tests.length,
      errors,
      meta,
    });
    return meta;
  };

  for (const requirement of catalog.requirements) {
    if (requirement.coverage === 'not-covered') continue;
    const id = requirement.id;
    if (id === 'AUTH-002') {
      const exchanges = [next(true, 401, 'listPets', '{"code":"unauthorized","message":"missing key","status":401}'), next(true, 200, 'getPet')];
      add(id, 'failed', {
        exchanges,
        failure: {
          kind: 'conformance',
          code: 'ERR_CONFORMANCE',
          message: 'AUTH-002: expected 401',
          expected: 'getPet with an invalid key: status 401',
          actual: `status 200 with body [{"name":"${HOSTILE}"}]`,
        },
      });
    } else if (id === 'SCH-002') {
      const exchanges = [next(true, 201, 'createPet', `{"id":-9223372036854775808,"name":${JSON.stringify(HOSTILE)},"categoryId":9223372036854775806}`)];
      add(id, 'failed', {
        exchanges,
        property: {
          seed: 424242,
          numRuns: 100,
          path: '17:3:0',
          counterexample: `{ name: ${JSON.stringify(HOSTILE)}, categoryId: 9223372036854775807n }`,
          shrinks: 4,
        },
        failure: {
          kind: 'conformance',
          code: 'ERR_CONFORMANCE',
          message: 'categoryId not echoed',
          expected: 'categoryId 9223372036854775807',
          actual: 'categoryId 9223372036854775806',
        },
      });
    } else if (id === 'AUTH-009') {
      add(id, 'failed', {
        exchanges: [next(true, 401)],
        failure: {
          kind: 'conformance',
          code: 'ERR_CONFORMANCE',
          message: 'no challenge',
          expected: 'WWW-Authenticate: Bearer',
          actual: 'no WWW-Authenticate header',
        },
      });
    } else if (id === 'STA-010') {
      add(id, 'failed', {
        exchanges: [next(true, 201, 'createPet')],
        failure: { kind: 'conformance', code: 'ERR_CONFORMANCE', message: 'no Location', expected: 'a Location header', actual: 'none' },
      });
    } else if (id === 'RATE-004') {
      add(id, 'passed', { exchanges: exhaust() });
    } else if (id === 'RATE-007') {
      add(id, 'skipped', { skipReason: 'not in the standard profile (needs thorough)' });
    } else if (id === 'AUTH-001') {
      const exchanges = [...Array.from({ length: perTest - 1 }, () => next(false, 401)), next(true, 401)];
      const findings = exchanges.slice(-3).map((e) => ({
        requirementId: 'RATE-001',
        check: 'rate-limit-headers',
        expected: 'X-RateLimit-Reset on every response',
        actual: 'X-RateLimit-Reset missing',
        exchangeSeq: e.seq,
      }));
      add(id, 'passed', { exchanges, findings });
    } else {
      add(id, 'passed', { exchanges: Array.from({ length: perTest }, () => next(false)) });
    }
  }
  const deviations: Deviation[] = [{ id: 'STA-010', reason: 'Clients read the id from the body; Location was never sent.' }];
  const report = buildReport({
    runInfo: runInfo({ endedAt: new Date(BASE_TIME + seq * 25 + 500).toISOString() }),
    catalog,
    tests,
    harnessErrors: options.harnessErrors ? [{ code: 'ERR_TARGET_TIMEOUT', message: `no answer in time ${HOSTILE}` }] : [],
    strict: false,
    expectedDeviations: deviations,
    operations: SPEC_OPERATIONS,
  });
  return { report, exchanges: tests.flatMap((t) => t.meta?.exchanges ?? []), tests };
}
