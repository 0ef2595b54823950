import { describe, expect, test } from 'vitest';
import { parseCatalog } from '../../src/catalog/catalog.ts';
import { buildReport } from '../../src/report/build-report.ts';
import type { TestOutcome } from '../../src/report/report-types.ts';
import { noAnswerReason } from '../../src/client/breaker.ts';
import { expectedStatuses, rootCauses, schemaViolation } from '../../src/report/root-causes.ts';
import { OPERATIONS, exchange, failed, passed, runInfo, skipped } from '../support/report-builders.ts';

/** Five MUSTs whose texts are alike on purpose: the grouping must not read them. */
const CATALOG = parseCatalog(`
version: 1
areas:
  core: Core behaviour
requirements:
  - { id: CRE-001, area: core, level: MUST, source: interface §A, text: The same words. }
  - { id: CRE-002, area: core, level: MUST, source: interface §B, text: Other words. }
  - { id: LST-001, area: core, level: MUST, source: interface §C, text: The same words. }
  - { id: LST-002, area: core, level: MUST, source: interface §D, text: The same words. }
  - { id: BLK-001, area: core, level: MUST, source: interface §E, text: Needs a pet. }
open: []
`);

function createAnswered200(id: string, expected: string): TestOutcome {
  return failed(id, 'conformance', {
    failure: { kind: 'conformance', code: 'ERR_CONFORMANCE', message: `${id}: ${expected}`, expected, actual: 'status 200 with body {"id":1}' },
    exchanges: [exchange(1), exchange(2, { operationId: 'createPet', response: { status: 200, headers: {}, body: '{"id":1}' } })],
  });
}

function report(tests: TestOutcome[]) {
  return buildReport({ runInfo: runInfo(), catalog: CATALOG, tests, harnessErrors: [], strict: false, operations: OPERATIONS });
}

describe('failures grouped by probable root cause', () => {
  test('reads the statuses a check expected, never a number inside a sent value or a limit', () => {
    expect(expectedStatuses('createPet of a valid NewPet: status 201')).toEqual([201]);
    expect(expectedStatuses('createPet: one of 201, 400, 401, 413, 415, 429')).toEqual([201, 400, 401, 413, 415, 429]);
    expect(expectedStatuses('a status documented for createPet (201, 400)')).toEqual([201, 400]);
    expect(expectedStatuses('getPet of an unknown id: status 404 or 400')).toEqual([404, 400]);
    expect(expectedStatuses('createPet accepts categoryId 9007199254740993 with 201')).toEqual([201]);
    expect(expectedStatuses('createPet({"name":"with 500","categoryId":200}) stores it')).toEqual([]);
    expect(expectedStatuses('listPets limit=200: at most 200 animals')).toEqual([]);
    expect(expectedStatuses('createPet of a name with 400 digits: status 400')).toEqual([400]);
    expect(expectedStatuses('a name with 300 characters is refused')).toEqual([]);
    expect(expectedStatuses('getPet without a key answers 401, not 404')).toEqual([401]);
    expect(expectedStatuses('404 for at least one of three ids')).toEqual([404]);
    // The model's expectation names a pet by its id, a BigInt: "where 122 is expected" was a status that never was.
    expect(expectedStatuses('getPet(122n) answers the pet as created')).toEqual([]);
    expect(expectedStatuses('listPets({limit: 100, status: "sold"}), createPet(…) → id 201n, getPet(201n)')).toEqual([]);
  });

  test('one status defect is one group, however many requirements it fails; what it leaves untested goes with it', () => {
    const causes = rootCauses(
      report([
        createAnswered200('CRE-001', 'createPet of a valid NewPet: status 201'),
        createAnswered200('CRE-002', 'createPet: one of 201, 400, 401'),
        failed('LST-001', 'conformance', {
          failure: { kind: 'conformance', code: 'ERR_CONFORMANCE', message: 'x', expected: 'listPets limit=1: at most 1 animal', actual: '2 animals' },
        }),
        passed('LST-002'),
        skipped('BLK-001', 'precondition failed: createPet answered 200, not 201 with a Pet (see CRE-001, LST-002)', 'precondition'),
      ]),
    );
    expect(causes.map((c) => [c.summary, c.requirements.map((r) => r.id), c.untested])).toEqual([
      ['createPet answers 200 where 201 is expected', ['CRE-001', 'CRE-002'], ['BLK-001']],
      ['listPets (200): expected listPets limit=1: at most 1 animal, got 2 animals', ['LST-001'], []],
    ]);
    expect(causes[0]).toMatchObject({ kind: 'status', operation: 'createPet', status: 200, expected: '201' });
  });

  test('an operation the suite stopped sending is one cause, whichever answer each test had last', () => {
    const last = 'the target at http://127.0.0.1:8792 did not complete an exchange within 2000 ms';
    const reason = noAnswerReason('getPet', 3, last);
    const brokenAfter = (id: string, operationId: string, status: number, broken = reason): TestOutcome =>
      failed(id, 'conformance', {
        failure: { kind: 'conformance', code: 'ERR_OPERATION_BROKEN', message: `${id}: stopped`, expected: 'an answer within --timeout', actual: broken },
        exchanges: [exchange(1, { operationId, response: { status, headers: {}, body: '{}' } })],
      });
    const causes = rootCauses(
      report([
        brokenAfter('CRE-001', 'createPet', 201),
        brokenAfter('LST-001', 'listPets', 200),
        brokenAfter('LST-002', 'createPet', 400),
        // Another operation stopped is another cause.
        brokenAfter('CRE-002', 'listPets', 200, noAnswerReason('createPet', 3, last)),
      ]),
    );
    // The one-line cause cuts what was seen at 140 characters.
    const seen = `${reason.slice(0, 139)}…`;
    expect(causes.map((c) => [c.key, c.summary, c.requirements.map((r) => r.id)])).toEqual([
      ['broken:getPet', `getPet: expected an answer within --timeout, got ${seen}`, ['CRE-001', 'LST-001', 'LST-002']],
      ['broken:createPet', `createPet: expected an answer within --timeout, got ${noAnswerReason('createPet', 3, last).slice(0, 139)}…`, ['CRE-002']],
    ]);
    expect(causes[0]).toMatchObject({ kind: 'mismatch', operation: 'getPet' });
  });

  test('a rule failure says its subject once: the expectation has it, what was seen follows without it', () => {
    const subject = 'getPet 110, just created by createPet({"name":"a: b","categoryId":7})';
    const causes = rootCauses(
      report([
        failed('LST-001', 'conformance', {
          failure: { kind: 'conformance', code: 'ERR_CONFORMANCE', message: 'x', expected: `${subject}: the animal #1`, actual: `${subject}: {id=109}` },
        }),
      ]),
    );
    expect(causes.map((c) => c.summary)).toEqual([`listPets (200): expected ${subject}: the animal #1, got {id=109}`]);
  });

  test('a requirement left out by --only is not untested behind the failure its reason names', () => {
    const causes = rootCauses(
      report([
        createAnswered200('CRE-001', 'createPet of a valid NewPet: status 201'),
        skipped('BLK-001', 'not selected (--only CRE-001) — run without --only', 'not-selected'),
        skipped('LST-001', 'precondition failed: createPet answered 200 (see CRE-001)', 'precondition'),
      ]),
    );
    expect(causes.map((c) => [c.requirements.map((r) => r.id), c.untested])).toEqual([[['CRE-001'], ['LST-001']]]);
  });

  test('the same expectation with other numbers is one mismatch; alike requirement texts with other evidence are not', () => {
    const limit = (id: string, n: number) =>
      failed(id, 'conformance', {
        failure: {
          kind: 'conformance',
          code: 'ERR_CONFORMANCE',
          message: 'x',
          expected: `listPets limit=${n}: at most ${n} animal${n === 1 ? '' : 's'}`,
          actual: `${n + 1} animals`,
        },
      });
    const causes = rootCauses(
      report([
        limit('LST-001', 1),
        limit('LST-002', 2),
        // CRE-001 shares LST-001's requirement text, not its evidence.
        createAnswered200('CRE-001', 'createPet of a valid NewPet: status 201'),
      ]),
    );
    expect(causes.map((c) => c.requirements.map((r) => r.id))).toEqual([['LST-001', 'LST-002'], ['CRE-001']]);
  });

  test('bodies that break the schema the same way are one group, whatever the target wrote inside them', () => {
    expect(schemaViolation(`a 400 whose body (root) must have required property 'code': {"message":"categoryId must be integer"}`)).toBe(
      "body must have required property 'code'",
    );
    expect(schemaViolation('status 422 with body {"message":"body must have required property \'name\'"}')).toBeUndefined();
    expect(schemaViolation('listPets: /3/status must be equal to one of the allowed values')).toBe('/#/status must be equal to one of the allowed values');
    const errorBody = (id: string, status: number, actual: string) =>
      failed(id, 'conformance', {
        failure: { kind: 'conformance', code: 'ERR_CONFORMANCE', message: 'x', expected: `a ${status} with an Error body`, actual },
        exchanges: [exchange(1, { operationId: 'getPet', response: { status, headers: {}, body: '{}' } })],
      });
    const causes = rootCauses(
      report([
        errorBody('LST-001', 404, "a 404 whose body is not an Error: body must have required property 'code'"),
        errorBody('LST-002', 400, `a 400 whose body (root) must have required property 'code': {"message":"no"}`),
        errorBody('CRE-001', 404, 'a 404 whose body is not an Error: body must be object'),
      ]),
    );
    expect(causes.map((c) => [c.summary, c.requirements.map((r) => r.id)])).toEqual([
      ["Response bodies break the schema: body must have required property 'code' (getPet 404, getPet 400)", ['LST-001', 'LST-002']],
      ['Response bodies break the schema: body must be object (getPet 404)', ['CRE-001']],
    ]);
  });

  test('an always-on finding groups by its check; a requirement with several failures joins the group that explains most', () => {
    const finding = (requirementId: string, seq: number) => ({
      requirementId,
      check: 'rate-limit-headers',
      expected: 'X-RateLimit-Reset on every response',
      actual: 'missing',
      exchangeSeq: seq,
    });
    const causes = rootCauses(
      report([
        passed('LST-001', { exchanges: [exchange(7)], findings: [finding('LST-001', 7)] }),
        passed('LST-002', { exchanges: [exchange(8)], findings: [finding('LST-002', 8)] }),
        // CRE-002 fails on its own and by the check: it goes with the check's group, the larger one.
        failed('CRE-002', 'conformance', { exchanges: [exchange(9)], findings: [finding('CRE-002', 9)] }),
      ]),
    );
    expect(causes.map((c) => [c.key, c.requirements.map((r) => r.id)])).toEqual([['check:rate-limit-headers', ['CRE-002', 'LST-001', 'LST-002']]]);
    expect(causes[0]!.summary).toBe('The always-on check rate-limit-headers: expected X-RateLimit-Reset on every response, got missing');
  });

  test('a run without failures has no causes', () => {
    expect(rootCauses(report([passed('CRE-001'), passed('LST-001')]))).toEqual([]);
  });
});
