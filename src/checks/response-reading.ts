import type { OperationInfo, ValidationIssue } from '../contract/index.ts';
import { mediaType } from '../text/header-values.ts';
import { showValue } from '../text/json.ts';
import type { CheckContext } from './check-types.ts';

/*
 * How a check reads a response (its operation, its body as an object, its body against a schema) and
 * words what it saw in a finding: every quote of target text redacted first, then cut.
 */

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
  return `a body that is not JSON (${type}): ${why}${quoted(ctx, ctx.text, 60)}`;
}

/**
 * How much more than it shows a quote redacts: longer than any key, so a key the window's end splits
 * lies wholly past the cut. A 2 MiB body is not scanned whole for a 60-character quote.
 */
const REDACTED_BEYOND_CUT = 2048;

/** Target text, redacted whole (as far as the cut can reach), then cut at `max`. */
function redactedCut(ctx: CheckContext, text: string, max: number): { text: string; cut: boolean } {
  const window = text.length > max + REDACTED_BEYOND_CUT ? text.slice(0, max + REDACTED_BEYOND_CUT) : text;
  const clean = ctx.redact ? ctx.redact(window) : window;
  return clean.length > max ? { text: clean.slice(0, max), cut: true } : { text: clean, cut: window.length < text.length };
}

/** A header value or body text for a finding: redacted first, then quoted and cut, as quoteValue does. */
export function quoted(ctx: CheckContext, text: string, max = 80): string {
  const shown = redactedCut(ctx, text, max);
  return JSON.stringify(shown.cut ? `${shown.text}…` : shown.text);
}

/** A JSON value from a body for a finding: its text redacted first, then cut, as showValue does. */
export function shownJson(ctx: CheckContext, value: unknown, max = 120): string {
  const shown = redactedCut(ctx, showValue(value, Number.MAX_SAFE_INTEGER), max);
  return shown.cut ? `${shown.text}…` : shown.text;
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
