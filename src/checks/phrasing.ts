import type { OperationInfo, ValidationIssue } from '../contract/index.ts';
import { mediaType, quoteValue } from '../header-values.ts';
import type { CheckContext } from './types.ts';

const MAX_ISSUES = 3;

/** "/0/id must be within the int64 range; body must have required property 'code'" — ajv data, read aloud. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES).map((i) => `${i.instancePath || 'body'} ${i.message}`);
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : '';
  return shown.join('; ') + more;
}

/** Why a body could not be validated at all: empty, or not JSON (with its media type and first bytes). */
export function describeUnparsedBody(ctx: CheckContext): string {
  if (ctx.text.length === 0 && ctx.jsonError === undefined) return 'an empty body';
  const type = mediaType(ctx.headers['content-type']) ?? 'no Content-Type';
  const why = ctx.jsonError === undefined ? '' : `${ctx.jsonError}; `;
  return `a body that is not JSON (${type}): ${why}${quoteValue(ctx.text, 60)}`;
}

/**
 * Validates the body against a component schema; undefined when it is valid, else what was seen.
 * Shared by every check that holds a body to a schema, so they all word their findings alike.
 */
export function schemaMismatch(ctx: CheckContext, schemaRef: string): string | undefined {
  if (!ctx.isJson) return describeUnparsedBody(ctx);
  const issues = ctx.contract.validate(schemaRef, ctx.body);
  return issues.length === 0 ? undefined : formatIssues(issues);
}

/** The short name of a component schema: `#/components/schemas/Pet` → `Pet`. */
export function schemaName(schemaRef: string): string {
  return schemaRef.slice(schemaRef.lastIndexOf('/') + 1);
}

/** The spec's operation for this response, or undefined for a path outside the interface. */
export function operationOf(ctx: CheckContext): OperationInfo | undefined {
  if (ctx.operationId === undefined) return undefined;
  return ctx.contract.operations.find((op) => op.operationId === ctx.operationId);
}

/** The body as a plain object (not an array, not null), for checks that read Error fields. */
export function bodyObject(ctx: CheckContext): Record<string, unknown> | undefined {
  const { body } = ctx;
  if (!ctx.isJson || body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  return body as Record<string, unknown>;
}
