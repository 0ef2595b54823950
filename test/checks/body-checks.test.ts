import { describe, expect, it } from 'vitest';
import { jsonContentType, responseSchema } from '../../src/checks/body-checks.ts';
import { ctx, headers } from './context.ts';

const PET = { id: 1, name: 'Rex', categoryId: 2, status: 'available' };

describe('json-content-type (SCH-004)', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8', ' application/json '])('passes %j', (type) => {
    expect(jsonContentType.run(ctx({ headers: headers({ 'content-type': type }) }))).toBeUndefined();
  });

  it.each(['application/problem+json', 'text/plain', 'text/json', 'application/jsonx'])('fails %j', (type) => {
    expect(jsonContentType.run(ctx({ headers: headers({ 'content-type': type }) }))?.actual).toBe(`Content-Type ${JSON.stringify(type)}`);
  });

  it('fails a body without Content-Type', () => {
    expect(jsonContentType.run(ctx({ headers: headers({ 'content-type': undefined }) }))?.actual).toBe('no Content-Type header');
  });

  it('fails application/json that does not parse', () => {
    expect(jsonContentType.run(ctx({ text: '{"id":', body: undefined, isJson: false }))?.expected).toBe('a body that is valid JSON');
  });

  it('skips empty bodies and paths outside the interface', () => {
    const textPlain = headers({ 'content-type': 'text/plain' });
    expect(jsonContentType.run(ctx({ status: 204, text: '', body: undefined, isJson: false, headers: textPlain }))).toBeUndefined();
    expect(jsonContentType.run(ctx({ status: 429, text: '', body: undefined, isJson: false, headers: textPlain }))).toBeUndefined();
    expect(jsonContentType.run(ctx({ operationId: undefined, text: '<html>', isJson: false, headers: textPlain }))).toBeUndefined();
  });

  it('fails a 429 that is not JSON: its shape is open, its media type is not', () => {
    const textPlain = headers({ 'content-type': 'text/plain; charset=utf-8' });
    expect(jsonContentType.run(ctx({ status: 429, text: 'Too Many Requests', body: undefined, isJson: false, headers: textPlain }))?.actual).toBe(
      'Content-Type "text/plain; charset=utf-8"',
    );
    expect(jsonContentType.run(ctx({ status: 429, text: '{"message":"Too Many Requests"}', json: { message: 'Too Many Requests' } }))).toBeUndefined();
  });
});

describe('response-schema (SCH-001, SCH-002, SCH-003)', () => {
  const list = responseSchema('listPets', 200, 'SCH-001');
  const create = responseSchema('createPet', 201, 'SCH-002');
  const get = responseSchema('getPet', 200, 'SCH-003');

  it('passes valid bodies, extra fields and ids across the whole int64 range included', () => {
    expect(list.run(ctx({ json: [PET, { ...PET, id: 2n ** 63n - 1n, extra: true }, { id: -(2n ** 63n), name: '', categoryId: 0 }] }))).toBeUndefined();
    expect(list.run(ctx({ json: [] }))).toBeUndefined();
    expect(create.run(ctx({ operationId: 'createPet', status: 201, json: PET }))).toBeUndefined();
    expect(get.run(ctx({ operationId: 'getPet', status: 200, json: { id: 5, name: 'x', categoryId: 1 } }))).toBeUndefined();
  });

  it('names the path and keyword of what is wrong', () => {
    expect(list.run(ctx({ body: [{ ...PET, id: 2n ** 63n }], text: '[…]' }))).toEqual({
      expected: 'a 200 body that is Pets',
      actual: '/0/id must be within the int64 range',
    });
    expect(list.run(ctx({ json: { pets: [] } }))?.actual).toBe('body must be array');
    expect(create.run(ctx({ operationId: 'createPet', status: 201, json: { name: 'Rex', categoryId: 1 } }))?.actual).toBe(
      "body must have required property 'id'",
    );
    expect(get.run(ctx({ operationId: 'getPet', json: { ...PET, status: 'lost', categoryId: 1.5 } }))?.actual).toMatch(
      /\/categoryId must be integer.*\/status must be equal to one of the allowed values/,
    );
  });

  it('fails a body that is not JSON, saying what it was', () => {
    expect(list.run(ctx({ text: '<html>', body: undefined, isJson: false, headers: headers({ 'content-type': 'text/html' }) }))?.actual).toBe(
      'a body that is not JSON (text/html): "<html>"',
    );
    expect(list.run(ctx({ text: '', body: undefined, isJson: false }))?.actual).toBe('an empty body');
  });

  it('applies only to its own operation and status', () => {
    expect(list.run(ctx({ status: 400, json: { code: 'x' } }))).toBeUndefined();
    expect(create.run(ctx({ json: 'not a pet' }))).toBeUndefined();
    expect(get.run(ctx({ operationId: 'getPet', status: 404, json: 'x' }))).toBeUndefined();
  });
});
