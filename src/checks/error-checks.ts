import { bodyObject, operationOf, schemaMismatch, shownJson } from './response-reading.ts';
import type { Check, CheckContext } from './check-types.ts';

const ERROR_REF = '#/components/schemas/Error';

function isClientError(ctx: CheckContext): boolean {
  return ctx.status >= 400 && ctx.status < 500 && ctx.status !== 429;
}

/** ERR-001: 4xx answers carry the Error body. 429 is ERR-004's, a SHOULD, since its body is not shown. */
export const errorEnvelope: Check = {
  name: 'error-envelope',
  requirementId: 'ERR-001',
  run(ctx) {
    if (!operationOf(ctx) || !isClientError(ctx)) return undefined;
    const mismatch = schemaMismatch(ctx, ERROR_REF);
    if (mismatch === undefined) return undefined;
    return { expected: `a ${ctx.status} body that is Error {code, message, status}`, actual: mismatch };
  },
};

/** ERR-004 (SHOULD): a 429 carries the Error body like every other error. */
export const errorBodyOn429: Check = {
  name: 'error-body-on-429',
  requirementId: 'ERR-004',
  run(ctx) {
    if (!operationOf(ctx) || ctx.status !== 429) return undefined;
    const mismatch = schemaMismatch(ctx, ERROR_REF);
    if (mismatch === undefined) return undefined;
    return { expected: 'a 429 body that is Error {code, message, status}', actual: mismatch };
  },
};

/**
 * ERR-002: Error.status equals the HTTP status. Only error responses are read: a Pet also has a
 * `status` field, which holds a PetStatus and has nothing to do with HTTP.
 */
export const errorStatusMatches: Check = {
  name: 'error-status-matches',
  requirementId: 'ERR-002',
  run(ctx) {
    const body = bodyObject(ctx);
    if (!operationOf(ctx) || ctx.status < 400 || !body || !('status' in body)) return undefined;
    const field = body.status;
    if ((typeof field === 'number' || typeof field === 'bigint') && String(field) === String(ctx.status)) return undefined;
    const shown = typeof field === 'string' ? `${shownJson(ctx, field, 60)} (a string)` : shownJson(ctx, field, 60);
    return { expected: `Error.status ${ctx.status}, the HTTP status`, actual: `Error.status ${shown} on a ${ctx.status} response` };
  },
};

/** ERR-003 (SHOULD): code and message say something; a blank string is as good as none. */
export const errorFieldsNonEmpty: Check = {
  name: 'error-fields-non-empty',
  requirementId: 'ERR-003',
  run(ctx) {
    const body = bodyObject(ctx);
    if (!operationOf(ctx) || ctx.status < 400 || !body) return undefined;
    // Missing or mistyped fields are ERR-001's finding; this one only judges strings that are there.
    const blank = (['code', 'message'] as const).filter((f) => typeof body[f] === 'string' && (body[f] as string).trim() === '');
    if (blank.length === 0) return undefined;
    return { expected: 'Error.code and Error.message non-empty', actual: `${blank.map((f) => `Error.${f}`).join(' and ')} blank` };
  },
};
