import { randomUUID } from 'node:crypto';
import { type Catalog, parseCatalog } from '../../src/catalog/catalog.ts';
import type { Finding } from '../../src/checks/check-types.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import type { OperationInfo } from '../../src/contract/index.ts';
import type { ConformanceMeta, SkipCode } from '../../src/report/test-meta.ts';
import type { TestOutcome } from '../../src/report/report-types.ts';
import type { RunInfo } from '../../src/report/run-info.ts';

/** A small catalog: two MUSTs, a SHOULD, a MAY and a not-covered MAY. */
export const TINY_CATALOG: Catalog = parseCatalog(`
version: 1
areas:
  core: Core behaviour
  extra: Good practice
requirements:
  - { id: MUS-001, area: core, level: MUST, source: interface §A, text: The first MUST. }
  - { id: MUS-002, area: core, level: MUST, source: interface §B, text: The second MUST. }
  - { id: SHD-001, area: extra, level: SHOULD, source: RFC 9110 §1, text: A SHOULD. }
  - { id: MAY-001, area: extra, level: MAY, source: interface §C, text: A MAY. }
  - { id: NCV-001, area: extra, level: MAY, source: interface §D, text: Not shown., coverage: not-covered, reason: The interface does not show it. }
open: []
`);

export const OPERATIONS: readonly OperationInfo[] = [
  {
    operationId: 'listPets',
    method: 'GET',
    path: '/pets',
    deprecated: false,
    sunset: undefined,
    responses: [
      { status: '200', schemaRef: '#/components/schemas/Pets', notStated: false, headers: [] },
      { status: '400', schemaRef: '#/components/schemas/Error', notStated: true, headers: [] },
      { status: '401', schemaRef: '#/components/schemas/Error', notStated: false, headers: [] },
    ],
  },
];

export const BASE_TIME = Date.UTC(2025, 5, 2, 9, 30, 0);

export function runInfo(overrides: Partial<RunInfo> = {}): RunInfo {
  return {
    suiteVersion: '0.1.0',
    specVersion: '1.0.0',
    specSha256: 'a'.repeat(64),
    target: { url: 'https://staging.animal-store.example/v1', embedded: false },
    profile: 'standard',
    seed: 424242,
    readOnly: false,
    exhaust: true,
    strict: false,
    startedAt: new Date(BASE_TIME).toISOString(),
    endedAt: new Date(BASE_TIME + 95_000).toISOString(),
    nodeVersion: 'v20.18.0',
    command: 'npx animal-store-conformance --target https://staging.animal-store.example/v1 --api-key "$API_KEY" --seed 424242',
    ...overrides,
  };
}

export function exchange(seq: number, overrides: Partial<Exchange> = {}): Exchange {
  const remaining = Math.max(0, 60 - (seq % 61));
  return {
    seq,
    startedAt: BASE_TIME + seq * 40,
    durationMs: 8 + (seq % 7),
    operationId: 'listPets',
    request: {
      method: 'GET',
      url: 'https://staging.animal-store.example/v1/pets?limit=1',
      headers: { authorization: 'Bearer ***', accept: 'application/json' },
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining) },
      body: '[{"id":9007199254740993,"name":"Rex","categoryId":1}]',
    },
    curl: "curl -sS 'https://staging.animal-store.example/v1/pets?limit=1' -H 'Authorization: Bearer $API_KEY'",
    rateLimit: { limit: 60, remaining, reset: Math.floor(BASE_TIME / 1000) + 60 },
    ...overrides,
  };
}

export function meta(requirementId: string, extra: Partial<ConformanceMeta> = {}): ConformanceMeta {
  return { requirementId, level: 'MUST', area: 'core', findings: [], exchanges: [], ...extra };
}

export function outcome(state: TestOutcome['state'], m: ConformanceMeta | undefined, extra: Partial<TestOutcome> = {}): TestOutcome {
  const id = m?.requirementId ?? 'XXX-000';
  const test: TestOutcome = { id: randomUUID(), name: `${id} a ${state} test`, file: 'suites/core.test.ts', state, durationMs: 12, errors: [], ...extra };
  if (m) test.meta = m;
  return test;
}

export const passed = (id: string, extra: Partial<ConformanceMeta> = {}) => outcome('passed', meta(id, extra));
export const skipped = (id: string, skipReason: string, skipCode?: SkipCode) =>
  outcome('skipped', meta(id, skipCode ? { skipReason, skipCode } : { skipReason }));

export function failed(id: string, kind: 'conformance' | 'harness', extra: Partial<ConformanceMeta> = {}): TestOutcome {
  const failure =
    kind === 'conformance'
      ? { kind, code: 'ERR_CONFORMANCE', message: `${id}: expected 401, got 200`, expected: 'status 401', actual: 'status 200' }
      : { kind, code: 'ERR_TARGET_TIMEOUT', message: 'no answer in time' };
  return outcome('failed', meta(id, { failure, exchanges: [exchange(1), exchange(2)], ...extra }), { errors: [failure.message] });
}

export function finding(requirementId: string, exchangeSeq: number, actual = 'header missing'): Finding {
  return { requirementId, check: 'rate-limit-headers', expected: 'X-RateLimit-Remaining on every response', actual, exchangeSeq };
}
