import { operationOf, quoted } from './response-reading.ts';
import { RATE_LIMIT_FIELDS, RATE_LIMIT_HEADERS, strictInteger } from '../text/header-values.ts';
import { type BareItem, type Item, isInnerList, parseDictionary, parseList } from '../text/structured-fields.ts';
import type { Check, CheckContext } from './check-types.ts';

/** Seconds of difference tolerated between `t` and X-RateLimit-Reset − now: clock skew plus rounding. */
const SKEW_S = 6;

/** What one reading of the IETF fields says: quotas, and (remaining, seconds to reset) pairs. */
interface IetfReading {
  quotas: number[];
  windows: { remaining: number; resetIn: number | undefined }[];
}

const integer = (value: BareItem | undefined): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

/**
 * RateLimit-Policy: the current draft's List of named policies with q (quota) and w (window), or an
 * earlier draft's List of quotas (`100;w=60`). Undefined when it is neither.
 */
function readPolicy(raw: string): Policy[] | undefined {
  const list = parseList(raw);
  if (!list) return undefined;
  const policies: Policy[] = [];
  for (const member of list) {
    if (isInnerList(member)) return undefined;
    const quota = integer(member.params.get('q')) ?? integer(member.value);
    if (quota === undefined || quota < 0) return undefined;
    policies.push({ quota, window: integer(member.params.get('w')) });
  }
  return policies;
}

interface Policy {
  quota: number;
  /** w: the window's length in seconds, when given. */
  window: number | undefined;
}

/** The longest window the interface knows: requests per day. */
const LONGEST_WINDOW_S = 86_400;

/**
 * RateLimit: the current draft's List of named policies with r (remaining) and t (seconds to reset), or
 * an earlier draft's Dictionary `limit=…, remaining=…, reset=…`. Undefined when it is neither.
 */
function readRateLimit(raw: string): IetfReading | undefined {
  const list = parseList(raw);
  const items = list?.filter((member): member is Item => !isInnerList(member)) ?? [];
  if (list && items.length === list.length && items.every((item) => integer(item.params.get('r')) !== undefined)) {
    return { quotas: [], windows: items.map((item) => ({ remaining: integer(item.params.get('r')) as number, resetIn: integer(item.params.get('t')) })) };
  }
  const dictionary = parseDictionary(raw);
  const field = (key: string): number | undefined => {
    const member = dictionary?.get(key);
    return member && !isInnerList(member) ? integer(member.value) : undefined;
  };
  const remaining = field('remaining');
  if (remaining === undefined) return undefined;
  const limit = field('limit');
  return { quotas: limit === undefined ? [] : [limit], windows: [{ remaining, resetIn: field('reset') }] };
}

function xRateLimit(ctx: CheckContext): { limit: number; remaining: number; resetIn: number } | undefined {
  const [limit, remaining, reset] = RATE_LIMIT_FIELDS.map((field) => strictInteger(ctx.headers[RATE_LIMIT_HEADERS[field].wire]));
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined; // RATE-001/002
  return { limit, remaining, resetIn: reset - Math.floor(ctx.now / 1000) };
}

/**
 * RATE-009: where a server also sends the IETF RateLimit / RateLimit-Policy fields
 * (draft-ietf-httpapi-ratelimit-headers), they parse as Structured Fields and tell the same story as
 * X-RateLimit-*: a quota equal to the Limit, a remaining count equal to Remaining, and seconds to reset
 * that agree with Reset. Servers that do not send them are not judged.
 */
export const ietfRateLimitAgrees: Check = {
  name: 'ietf-ratelimit-agrees',
  requirementId: 'RATE-009',
  run(ctx) {
    const policyRaw = ctx.headers['ratelimit-policy'];
    const rateRaw = ctx.headers.ratelimit;
    if (!operationOf(ctx) || (policyRaw === undefined && rateRaw === undefined)) return undefined;
    const problems: string[] = [];
    const policy = policyRaw === undefined ? undefined : readPolicy(policyRaw);
    if (policyRaw !== undefined && policy === undefined) problems.push(`RateLimit-Policy ${quoted(ctx, policyRaw)} is not a Structured Field list of quotas`);
    // An empty List reads as no policy (RFC 9651 §3.1 has it left out, not sent empty): alone it is the
    // same as no field, but beside a RateLimit it leaves the quota that RateLimit counts unannounced.
    if (policy?.length === 0 && rateRaw !== undefined)
      problems.push('RateLimit-Policy is sent empty while RateLimit reports a window: no quota is announced for it');
    const reading = rateRaw === undefined ? undefined : readRateLimit(rateRaw);
    if (rateRaw !== undefined && reading === undefined) problems.push(`RateLimit ${quoted(ctx, rateRaw)} is not a Structured Field with remaining counts`);
    const x = xRateLimit(ctx);
    if (x && problems.length === 0) {
      const quotas = [...(policy ?? []).map((p) => p.quota), ...(reading?.quotas ?? [])];
      if (quotas.length > 0 && !quotas.includes(x.limit)) {
        problems.push(`the quotas ${quotas.join(', ')} do not include X-RateLimit-Limit ${x.limit}`);
      }
      // The policy of X-RateLimit-Limit's quota is the window X-RateLimit-* counts in: a minute or a day
      // by the interface, never longer than a day, never shorter than the time left until it resets.
      const windows = (policy ?? []).filter((p) => p.quota === x.limit && p.window !== undefined).map((p) => p.window as number);
      if (windows.length > 0 && !windows.some((w) => w <= LONGEST_WINDOW_S && w + SKEW_S >= x.resetIn)) {
        problems.push(
          `RateLimit-Policy gives the quota ${x.limit} a window of ${windows.join(', ')} s; X-RateLimit-Reset is ${x.resetIn} s away and the longest window is a day`,
        );
      }
      if (reading) {
        const agreeing = reading.windows.filter((window) => window.remaining === x.remaining);
        if (agreeing.length === 0) {
          problems.push(`RateLimit remaining ${reading.windows.map((w) => w.remaining).join(', ')} disagrees with X-RateLimit-Remaining ${x.remaining}`);
        } else if (!agreeing.some((window) => window.resetIn === undefined || Math.abs(window.resetIn - x.resetIn) <= SKEW_S)) {
          problems.push(`RateLimit says the window resets in ${agreeing.map((w) => w.resetIn).join(', ')} s; X-RateLimit-Reset says ${x.resetIn} s`);
        }
      }
    }
    if (problems.length === 0) return undefined;
    return { expected: 'RateLimit and RateLimit-Policy, when sent, as Structured Fields agreeing with X-RateLimit-*', actual: problems.join('; ') };
  },
};
