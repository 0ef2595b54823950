import { operationOf, quoted, schemaMismatch, schemaName } from './response-reading.ts';
import { mediaType } from '../text/header-values.ts';
import type { Check } from './check-types.ts';

/**
 * SCH-004: a body is JSON served as application/json. Parameters (charset) are fine; a structured
 * suffix such as application/problem+json is not, because the interface names application/json.
 * A 429 is no exception: the interface does not show its shape (an Error body there is ERR-004, a
 * SHOULD), but "all requests and responses use JSON", so a client parses its body as JSON too.
 */
export const jsonContentType: Check = {
  name: 'json-content-type',
  requirementId: 'SCH-004',
  run(ctx) {
    if (!operationOf(ctx) || (ctx.text.length === 0 && ctx.jsonError === undefined)) return undefined;
    const raw = ctx.headers['content-type'];
    const type = mediaType(raw);
    const expected = 'a body served as Content-Type: application/json';
    if (type !== 'application/json') {
      return { expected, actual: raw === undefined ? 'no Content-Type header' : `Content-Type ${quoted(ctx, raw)}` };
    }
    if (!ctx.isJson) {
      const why = ctx.jsonError === undefined ? '' : `${ctx.jsonError}; `;
      return { expected: 'a body that is valid JSON', actual: `application/json that does not parse: ${why}${quoted(ctx, ctx.text, 60)}` };
    }
    return undefined;
  },
};

/**
 * SCH-001..003: a success body validates against the schema the spec gives for that operation and
 * status. One entry per operation so each finding names its own requirement.
 */
export function responseSchema(operationId: string, status: number, requirementId: string): Check {
  return {
    name: 'response-schema',
    requirementId,
    run(ctx) {
      if (ctx.operationId !== operationId || ctx.status !== status) return undefined;
      const schemaRef = ctx.contract.response(operationId, status)?.schemaRef;
      if (schemaRef === undefined) return undefined;
      const mismatch = schemaMismatch(ctx, schemaRef);
      if (mismatch === undefined) return undefined;
      return { expected: `a ${status} body that is ${schemaName(schemaRef)}`, actual: mismatch };
    },
  };
}
