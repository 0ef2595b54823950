import { describe, expect, it } from 'vitest';
import { errorBodyOn429, errorEnvelope, errorFieldsNonEmpty, errorStatusMatches } from '../../src/checks/error-checks.ts';
import { ctx, ERROR_BODY } from './context.ts';

describe('error-envelope (ERR-001)', () => {
  it.each([400, 401, 404, 413, 415])('passes an Error body on %i', (status) => {
    expect(errorEnvelope.run(ctx({ status, json: ERROR_BODY(status) }))).toBeUndefined();
  });

  it('passes extra fields', () => {
    expect(errorEnvelope.run(ctx({ status: 400, json: { ...ERROR_BODY(400), details: [] } }))).toBeUndefined();
  });

  it.each([
    [{ message: 'm', status: 400 }, "body must have required property 'code'"],
    [{ code: 1, message: 'm', status: 400 }, '/code must be string'],
    [{ code: 'c', message: 'm', status: '400' }, '/status must be integer'],
    [[], 'body must be object'],
  ])('fails %j', (json, actual) => {
    expect(errorEnvelope.run(ctx({ status: 400, json }))).toEqual({ expected: 'a 400 body that is Error {code, message, status}', actual });
  });

  it('fails an empty or non-JSON error body', () => {
    expect(errorEnvelope.run(ctx({ status: 401, text: '', body: undefined, isJson: false }))?.actual).toBe('an empty body');
    expect(errorEnvelope.run(ctx({ status: 404, text: 'Not Found', body: undefined, isJson: false }))?.actual).toMatch(/not JSON/);
  });

  it('leaves 2xx, 429, 5xx and paths outside the interface alone', () => {
    for (const status of [200, 429, 500]) expect(errorEnvelope.run(ctx({ status, json: 'x' }))).toBeUndefined();
    expect(errorEnvelope.run(ctx({ operationId: undefined, status: 404, json: 'x' }))).toBeUndefined();
  });
});

describe('error-body-on-429 (ERR-004)', () => {
  it('passes an Error body on 429', () => {
    expect(errorBodyOn429.run(ctx({ status: 429, json: ERROR_BODY(429) }))).toBeUndefined();
  });
  it('fails another body on 429', () => {
    expect(errorBodyOn429.run(ctx({ status: 429, text: 'Too Many Requests', body: undefined, isJson: false }))?.expected).toBe(
      'a 429 body that is Error {code, message, status}',
    );
  });
  it('applies only to 429', () => {
    expect(errorBodyOn429.run(ctx({ status: 400, json: 'x' }))).toBeUndefined();
  });
});

describe('error-status-matches (ERR-002)', () => {
  it('passes a matching status, as number or bigint', () => {
    expect(errorStatusMatches.run(ctx({ status: 404, json: ERROR_BODY(404) }))).toBeUndefined();
    expect(errorStatusMatches.run(ctx({ status: 404, body: { status: 404n }, text: '{"status":404}' }))).toBeUndefined();
  });
  it('fails a different status', () => {
    expect(errorStatusMatches.run(ctx({ status: 404, json: ERROR_BODY(400) }))).toEqual({
      expected: 'Error.status 404, the HTTP status',
      actual: 'Error.status 400 on a 404 response',
    });
    expect(errorStatusMatches.run(ctx({ status: 429, json: ERROR_BODY(400) }))).toBeDefined();
  });
  it('fails a status written as a string', () => {
    expect(errorStatusMatches.run(ctx({ status: 400, json: { status: '400' } }))?.actual).toBe('Error.status "400" (a string) on a 400 response');
  });
  it('ignores success bodies (a Pet has a status too) and bodies without status', () => {
    expect(errorStatusMatches.run(ctx({ status: 200, json: { id: 1, status: 'sold' } }))).toBeUndefined();
    expect(errorStatusMatches.run(ctx({ status: 400, json: { code: 'x' } }))).toBeUndefined();
    expect(errorStatusMatches.run(ctx({ status: 400, json: [{ status: 1 }] }))).toBeUndefined();
  });
});

describe('error-fields-non-empty (ERR-003)', () => {
  it('passes non-empty code and message', () => {
    expect(errorFieldsNonEmpty.run(ctx({ status: 400, json: ERROR_BODY(400) }))).toBeUndefined();
  });
  it('fails blank fields', () => {
    expect(errorFieldsNonEmpty.run(ctx({ status: 400, json: { code: '', message: '  ', status: 400 } }))?.actual).toBe('Error.code and Error.message blank');
    expect(errorFieldsNonEmpty.run(ctx({ status: 401, json: { ...ERROR_BODY(401), message: '' } }))?.actual).toBe('Error.message blank');
  });
  it('leaves missing or mistyped fields to ERR-001, and success bodies alone', () => {
    expect(errorFieldsNonEmpty.run(ctx({ status: 400, json: { code: 3 } }))).toBeUndefined();
    expect(errorFieldsNonEmpty.run(ctx({ status: 200, json: { code: '' } }))).toBeUndefined();
  });
});
