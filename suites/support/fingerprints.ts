import type { ApiResponse } from '../../src/client/index.ts';
import { ConformanceFailure } from '../../src/errors.ts';
import { type ConformanceContext, type PetRecord, toPetRecord } from '../../src/harness/index.ts';
import { missingRateHeaders } from './rate-readings.ts';

/** Another client, as the request headers show it. */
export interface Fingerprint {
  label: string;
  headers: Record<string, string>;
}

/** Clients a server meets every day; an empty User-Agent makes the client send none. */
export const FINGERPRINTS: readonly Fingerprint[] = Object.freeze<Fingerprint[]>([
  { label: 'with no User-Agent', headers: { 'user-agent': '' } },
  { label: 'as curl sends it', headers: { 'user-agent': 'curl/8.5.0', accept: '*/*' } },
  {
    label: 'as a browser sends it',
    headers: {
      'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
      accept: 'application/json, text/plain, */*',
      'accept-language': 'en-US,en;q=0.9',
    },
  },
]);

/**
 * What two answers to the same request must share whoever asked: the status, the media type, the kind of
 * body (and an object's field names), the rate-limit headers' presence, and for a pet what was sent
 * coming back as sent. Ids, list contents and order, timestamps and rate-limit counts are left out:
 * a server chooses those, or they move between two requests.
 */
export function shapeOf(response: ApiResponse, sent?: Omit<PetRecord, 'id'>): string {
  const media = response.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  const parts = [String(response.status), media ?? 'no Content-Type', bodyKind(response)];
  const pet = sent && response.status < 300 ? toPetRecord(response.body) : undefined;
  if (sent && pet) {
    const kept = (['name', 'categoryId', 'status'] as const).filter((field) => sent[field] === undefined || pet[field] === sent[field]);
    parts.push(`${kept.join(', ') || 'nothing'} as sent`);
  }
  const missing = missingRateHeaders(response);
  parts.push(missing.length === 0 ? 'rate-limit headers' : `without ${missing.join(', ')}`);
  return parts.join(', ');
}

function bodyKind(response: ApiResponse): string {
  if (response.text === '') return 'empty body';
  if (!response.isJson) return 'a body that is not JSON';
  const body = response.body;
  if (Array.isArray(body)) return 'a JSON array';
  if (body !== null && typeof body === 'object') return `a JSON object {${Object.keys(body).sort().join(', ')}}`;
  return `JSON ${body === null ? 'null' : typeof body}`;
}

/** One way of sending a request, and how its answer is read. */
export interface Asker {
  label: string;
  send(): Promise<ApiResponse>;
  shape(response: ApiResponse): string;
  /** The exchange whose request sent the pet `shape` compares with (a createPet: the response's own). */
  sentFrom?(response: ApiResponse): number;
}

/**
 * The same request as the suite sends it and as `other` sends it must be answered alike. A difference is
 * sent again once (a blip under load is not a server that tells clients apart); a difference that
 * repeats fails, with all four exchanges as evidence. `first` reuses an answer the suite already has.
 */
export async function expectAlike(ctx: ConformanceContext, what: string, suite: Asker, other: Asker, first?: ApiResponse): Promise<void> {
  const a = first ?? (await suite.send());
  const b = await other.send();
  const expected = `${what} answered ${other.label} as it is answered ${suite.label} (only ids, list contents and order, timestamps and rate-limit counts may differ)`;
  // Each comparison is recorded as a rule, the same one on what the log keeps, what was sent read from the
  // request: rejudge decides it again, so a difference edited into a pass is refused.
  const alike = (x: ApiResponse, y: ApiResponse) =>
    ctx.judge('answered-alike', [x, y], suite.sentFrom && other.sentFrom ? { sentFrom: [suite.sentFrom(x), other.sentFrom(y)] } : {}, expected);
  if (suite.shape(a) === other.shape(b)) {
    alike(a, b);
    return;
  }
  const a2 = await suite.send();
  const b2 = await other.send();
  const shown = (x: ApiResponse, y: ApiResponse) => `${suite.label}: ${suite.shape(x)}; ${other.label}: ${other.shape(y)}`;
  if (suite.shape(a2) === other.shape(b2)) {
    ctx.note(`${what} was answered differently once (${shown(a, b)}), alike when sent again`);
    alike(a2, b2);
    return;
  }
  // The rule fails too and is recorded; the failure shown is the one with all four exchanges.
  try {
    alike(a2, b2);
  } catch (error) {
    if (!(error instanceof ConformanceFailure)) throw error;
  }
  ctx.fail(expected, `${shown(a, b)}; sent again, ${shown(a2, b2)}`, [a, b, a2, b2]);
}
