import { RATE_LIMIT_FIELDS, RATE_LIMIT_HEADERS } from '../../text/header-values.ts';
import { readJson, toBigInt } from '../../text/json.ts';
import { type ExchangeLookup, type JudgmentRule, type RuleExchange, fails, holds, isObject, isPetShaped } from './rule-kit.ts';

const ALIKE = 'answered alike whoever asked (only ids, list contents and order, timestamps and rate-limit counts may differ)';

/** The pet a request sent (name, categoryId, status), read from the recorded request body. */
function sentPet(e: RuleExchange | undefined): Record<'name' | 'categoryId' | 'status', unknown> | undefined {
  if (e?.requestText === undefined) return undefined;
  const reading = readJson(e.requestText);
  if (!reading.ok || !isObject(reading.value)) return undefined;
  const { name, categoryId, status } = reading.value;
  return { name, categoryId: toBigInt(categoryId), status };
}

function bodyKind(e: RuleExchange): string {
  if (e.text === '') return 'empty body';
  if (!e.isJson) return 'a body that is not JSON';
  const body = e.body;
  if (Array.isArray(body)) return 'a JSON array';
  if (body !== null && typeof body === 'object') return `a JSON object {${Object.keys(body).sort().join(', ')}}`;
  return `JSON ${body === null ? 'null' : typeof body}`;
}

/**
 * What two answers to the same request must share whoever asked (suites/support/fingerprints.ts): the
 * status, the media type, the kind of body (and an object's field names), the rate-limit headers'
 * presence, and for a pet what was sent coming back as sent, what was sent read from the log.
 */
export function shapeOfExchange(e: RuleExchange, sent?: Record<'name' | 'categoryId' | 'status', unknown>): string {
  const media = e.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  const parts = [String(e.status), media ?? 'no Content-Type', bodyKind(e)];
  const pet = sent && e.status < 300 && isPetShaped(e.body) ? e.body : undefined;
  if (sent && pet) {
    const got = { name: pet.name, categoryId: toBigInt(pet.categoryId), status: typeof pet.status === 'string' ? pet.status : undefined };
    const kept = (['name', 'categoryId', 'status'] as const).filter((field) => sent[field] === undefined || got[field] === sent[field]);
    parts.push(`${kept.join(', ') || 'nothing'} as sent`);
  }
  const missing = RATE_LIMIT_FIELDS.filter((field) => e.headers[RATE_LIMIT_HEADERS[field].wire] === undefined).map((f) => RATE_LIMIT_HEADERS[f].display);
  parts.push(missing.length === 0 ? 'rate-limit headers' : `without ${missing.join(', ')}`);
  return parts.join(', ');
}

/** The exchanges `sentFrom` names, one per exchange judged, or undefined when the params give none. */
export function sentFromSeqs(params: Record<string, unknown>): number[] | undefined {
  const list = params.sentFrom;
  return Array.isArray(list) && list.every((n) => typeof n === 'number' && Number.isInteger(n)) ? (list as number[]) : undefined;
}

/** Rules that compare the exchanges a judgment names with each other. */
export const ALIKE_RULES: readonly JudgmentRule[] = [
  {
    name: 'answered-alike',
    readsBody: true,
    // CON-004's second HTTP stack records its answers as the client does (status, headers, body), marked raw.
    judgesRaw: true,
    judge: () => holds(ALIKE),
    judgeAll(exchanges, params, lookup: ExchangeLookup) {
      const sentFrom = sentFromSeqs(params);
      if (params.sentFrom !== undefined && (!sentFrom || sentFrom.length !== exchanges.length))
        return fails('valid params for answered-alike', 'params this rule cannot read');
      const shapes: string[] = [];
      for (const [i, e] of exchanges.entries()) {
        const seq = sentFrom?.[i];
        const sent = seq === undefined ? undefined : sentPet(lookup(seq));
        if (seq !== undefined && !sent) return { ...fails(`the pet #${seq} sent, as a JSON request body`, 'none recorded'), failedAt: i };
        shapes.push(shapeOfExchange(e, sent));
      }
      const differs = shapes.findIndex((shape) => shape !== shapes[0]);
      return differs < 0 ? holds(ALIKE) : { ...fails(ALIKE, shapes.join('; ')), failedAt: differs };
    },
  },
];
