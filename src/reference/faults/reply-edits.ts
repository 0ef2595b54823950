import type { ErrorInfo, ErrorKind, Reply } from '../replies.ts';
import type { ReplyContext } from './hooks.ts';

/** Small immutable edits of a reply, shared by the faults (replies may hold shared header objects). */

export function setHeaders(reply: Reply, changes: Readonly<Record<string, string | undefined>>): Reply {
  const headers: Record<string, string> = { ...reply.headers };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return { ...reply, headers };
}

/** Rewrites the body of an Error reply; other replies pass through. */
export function rewriteErrorBody(reply: Reply, body: (error: ErrorInfo, status: number) => string, contentType?: string): Reply {
  if (!reply.error) return reply;
  const next: Reply = { ...reply, body: body(reply.error, reply.status) };
  if (contentType) next.contentType = contentType;
  return next;
}

/** The same Error reply under another status, with a consistent body. */
export function withStatus(reply: Reply, status: number): Reply {
  return rewriteErrorBody({ ...reply, status }, (error) => JSON.stringify({ code: error.code, message: error.message, status }));
}

/** Another Error reply in place of this one; headers and rate-limit values stay, only the error changes. */
export function replaceWithError(reply: Reply, context: ReplyContext, status: number, kind: ErrorKind, message: string): Reply {
  const replacement = context.errorReply(status, kind, message, reply.headers);
  if (reply.rate) replacement.rate = reply.rate;
  return replacement;
}

/** The value of a bearer token in an Authorization header, whatever its validity. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization || authorization.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return authorization.slice(7).trim() || undefined;
}
