import { operationOf, quoted } from './response-reading.ts';
import type { Check } from './check-types.ts';

// A challenge starts the value or follows a comma; the scheme is a token matched case-insensitively
// (RFC 9110 §11.1), followed by a space (its parameters), a comma (the next challenge) or the end.
const BEARER_CHALLENGE = /(?:^|,)\s*bearer(?:\s|,|$)/i;

/** AUTH-009 (SHOULD): a 401 tells the client which scheme to use (RFC 9110 §11.6.1, RFC 6750 §3). */
export const wwwAuthenticateOn401: Check = {
  name: 'www-authenticate-on-401',
  requirementId: 'AUTH-009',
  run(ctx) {
    if (!operationOf(ctx) || ctx.status !== 401) return undefined;
    const raw = ctx.headers['www-authenticate'];
    const expected = 'a WWW-Authenticate header with a Bearer challenge';
    if (raw === undefined) return { expected, actual: 'no WWW-Authenticate header' };
    if (BEARER_CHALLENGE.test(raw)) return undefined;
    return { expected, actual: `WWW-Authenticate ${quoted(ctx, raw)}` };
  },
};
