import { describe, expect, it } from 'vitest';
import { documentedStatus, noServerError } from '../../src/checks/status-checks.ts';
import { AFTER_SUNSET, ctx } from './context.ts';

describe('no-server-error (STA-008)', () => {
  it.each([200, 201, 400, 404, 429, 499])('passes %i', (status) => {
    expect(noServerError.run(ctx({ status }))).toBeUndefined();
  });
  it.each([500, 502, 503, 599])('fails %i', (status) => {
    expect(noServerError.run(ctx({ status }))).toEqual({ expected: expect.stringContaining('below 500'), actual: `status ${status}` });
  });
  it('applies outside the interface too', () => {
    expect(noServerError.run(ctx({ operationId: undefined, status: 500 }))).toBeDefined();
  });
});

describe('documented-status (STA-009)', () => {
  it.each([
    ['listPets', 200],
    ['listPets', 400],
    ['listPets', 429],
    ['createPet', 201],
    ['createPet', 413],
    ['createPet', 415],
    ['getPet', 200],
    ['getPet', 404],
    ['getPet', 400],
  ])('passes %s %i (documented, or admitted as x-not-stated)', (operationId, status) => {
    expect(documentedStatus.run(ctx({ operationId, status }))).toBeUndefined();
  });

  it.each([
    ['listPets', 201],
    ['listPets', 404],
    ['getPet', 201],
    ['getPet', 410],
    ['createPet', 200],
  ])('fails %s %i', (operationId, status) => {
    const violation = documentedStatus.run(ctx({ operationId, status }));
    expect(violation?.expected).toContain(operationId);
    expect(violation?.actual).toBe(`status ${status}`);
  });

  it('names a redirect as one', () => {
    expect(documentedStatus.run(ctx({ status: 301 }))?.actual).toBe('status 301 (a redirect, not followed)');
  });

  it('accepts 404 and 410 for getPet only after its removal date', () => {
    expect(documentedStatus.run(ctx({ operationId: 'getPet', status: 410, now: AFTER_SUNSET }))).toBeUndefined();
    expect(documentedStatus.run(ctx({ operationId: 'getPet', status: 404, now: AFTER_SUNSET }))).toBeUndefined();
    expect(documentedStatus.run(ctx({ operationId: 'listPets', status: 410, now: AFTER_SUNSET }))).toBeDefined();
    expect(documentedStatus.run(ctx({ operationId: 'getPet', status: 418, now: AFTER_SUNSET }))?.expected).toContain('410');
  });

  it('skips paths outside the interface', () => {
    expect(documentedStatus.run(ctx({ operationId: undefined, status: 302 }))).toBeUndefined();
    expect(documentedStatus.run(ctx({ operationId: 'unknownOp', status: 302 }))).toBeUndefined();
  });
});
