import { defineFault } from './hooks.ts';
import { rewriteErrorBody } from './reply-edits.ts';

/** What a rate limiter in front of a framework (a proxy's or a middleware's default) often answers. */
const TEXT_429 = 'Too Many Requests';

/** Error bodies that break the envelope {code, message, status}. */
export const ERROR_FAULTS = [
  defineFault({
    name: 'error-missing-code',
    group: 'errors',
    description: 'Error bodies have no code field.',
    detectedBy: ['ERR-001', 'STA-004', 'STA-005', 'STA-006', 'STA-007'],
    hooks: () => ({ reply: (reply) => rewriteErrorBody(reply, (e, status) => JSON.stringify({ message: e.message, status })) }),
  }),
  defineFault({
    name: 'error-missing-message',
    group: 'errors',
    description: 'Error bodies have no message field.',
    detectedBy: ['ERR-001', 'STA-004', 'STA-005', 'STA-006', 'STA-007'],
    hooks: () => ({ reply: (reply) => rewriteErrorBody(reply, (e, status) => JSON.stringify({ code: e.code, status })) }),
  }),
  defineFault({
    name: 'error-status-mismatch',
    group: 'errors',
    description: "The Error body's status is always 400, whatever the HTTP status.",
    detectedBy: ['ERR-002'],
    hooks: () => ({
      reply: (reply) => rewriteErrorBody(reply, (e) => JSON.stringify({ code: e.code, message: e.message, status: 400 })),
    }),
  }),
  defineFault({
    name: 'error-empty-code',
    group: 'errors',
    description: "The Error body's code is an empty string.",
    detectedBy: ['ERR-003'],
    strictOnly: true,
    hooks: () => ({
      reply: (reply) => rewriteErrorBody(reply, (e, status) => JSON.stringify({ code: '', message: e.message, status })),
    }),
  }),
  defineFault({
    name: 'error-not-json',
    group: 'errors',
    description: 'Errors are answered with a plain-text line instead of the JSON Error body.',
    detectedBy: ['ERR-001', 'SCH-004', 'STA-004', 'STA-005', 'STA-006', 'STA-007'],
    hooks: () => ({
      reply: (reply) => rewriteErrorBody(reply, (e, status) => `${status} ${e.message}\n`, 'text/plain; charset=utf-8'),
    }),
  }),
  defineFault({
    name: 'rate-limited-text-plain',
    group: 'errors',
    description: 'Every 429 is text/plain "Too Many Requests" (a limiter\'s default answer), not JSON; its headers stay right.',
    detectedBy: ['SCH-004', 'ERR-004'],
    hooks: () => ({
      reply: (reply) => (reply.status === 429 ? { ...reply, body: TEXT_429, contentType: 'text/plain; charset=utf-8' } : reply),
    }),
  }),
] as const;

/**
 * The Error body (code, message, status) as real servers get it wrong: a framework's own error shape,
 * a status written as text or copied from a template, fields dropped on some errors.
 */

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 429: 'Too Many Requests' };

export const INDEPENDENT_ERROR_FAULTS = [
  defineFault({
    name: 'ind-err-status-as-string',
    group: 'errors',
    description: 'The Error body\'s status is a string ("404"), as String(res.statusCode) writes it.',
    detectedBy: ['ERR-001', 'ERR-002'],
    hooks: () => ({
      reply: (reply) => rewriteErrorBody(reply, (error, status) => JSON.stringify({ code: error.code, message: error.message, status: String(status) })),
    }),
  }),
  defineFault({
    name: 'ind-err-status-template-400',
    group: 'errors',
    description: 'Every Error body says status 400: the error helper was copied from the validation handler.',
    detectedBy: ['ERR-002'],
    hooks: () => ({ reply: (reply) => rewriteErrorBody(reply, (error) => JSON.stringify({ code: error.code, message: error.message, status: 400 })) }),
  }),
  defineFault({
    name: 'ind-err-framework-400-shape',
    group: 'errors',
    description: 'Every 400 is the framework\'s validation error, {"statusCode":400,"error":"Bad Request","message":…}: no code, no status.',
    detectedBy: ['ERR-001', 'STA-005', 'STA-006', 'STA-007', 'LIM-004', 'LIM-007'],
    hooks: () => ({
      reply: (reply) =>
        reply.status === 400 ? rewriteErrorBody(reply, (error) => JSON.stringify({ statusCode: 400, error: REASONS[400], message: error.message })) : reply,
    }),
  }),
  defineFault({
    name: 'ind-err-message-list',
    group: 'errors',
    description: "400 bodies carry the validator's messages as an array of strings, not a message string.",
    detectedBy: ['ERR-001', 'STA-005', 'STA-006', 'STA-007'],
    hooks: () => ({
      reply: (reply) =>
        reply.status === 400
          ? rewriteErrorBody(reply, (error, status) => JSON.stringify({ code: error.code, message: error.message.split('; '), status }))
          : reply,
    }),
  }),
  defineFault({
    name: 'ind-err-404-no-message',
    group: 'errors',
    description: 'The not-found handler answers {"code":"not_found","status":404} without a message.',
    detectedBy: ['ERR-001', 'STA-004'],
    hooks: () => ({
      reply: (reply) => (reply.status === 404 ? rewriteErrorBody(reply, (error, status) => JSON.stringify({ code: error.code, status })) : reply),
    }),
  }),
  defineFault({
    name: 'ind-err-empty-code',
    group: 'errors',
    description: 'code is taken from an optional field and falls back to the empty string.',
    detectedBy: ['ERR-003'],
    strictOnly: true,
    hooks: () => ({ reply: (reply) => rewriteErrorBody(reply, (error, status) => JSON.stringify({ code: '', message: error.message, status })) }),
  }),
] as const;
