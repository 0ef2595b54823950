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
