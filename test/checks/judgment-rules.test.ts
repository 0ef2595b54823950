import { describe, expect, it } from 'vitest';
import { type ExchangeLookup, JUDGMENT_RULES, type RuleExchange, type RuleName, evaluateRule, judgmentRule } from '../../src/checks/judgment-rules.ts';
import { parseJson } from '../../src/text/json.ts';
import { contract } from './context.ts';
import { cleanProbe, wired } from './wire-exchanges.ts';

/** A response as the log records it: `text` parsed as the client and rejudge parse it. */
function exchange(status: number, text: string, headers: Record<string, string> = {}, requestText?: string, sent: Partial<RuleExchange> = {}): RuleExchange {
  let body: unknown;
  let isJson = false;
  try {
    body = parseJson(text);
    isJson = true;
  } catch {
    body = undefined;
  }
  return { status, headers, text, body, isJson, requestText, url: 'http://store.test/v1/pets', operationId: 'listPets', startedAt: BEFORE_SUNSET, ...sent };
}

const BEFORE_SUNSET = Date.UTC(2026, 10, 25);
const AFTER_SUNSET = Date.UTC(2030, 11, 6);
const getPet = (id: string, at = BEFORE_SUNSET): Partial<RuleExchange> => ({ url: `http://store.test/v1/pets/${id}`, operationId: 'getPet', startedAt: at });

const PET = '{"id":7,"name":"Rex","categoryId":2,"status":"available"}';
const ERROR = '{"code":"not_found","message":"no such pet","status":404}';
const MODEL_PET = '{"id":7,"name":"T x","categoryId":2,"status":"sold"}';
const SENT = '{"name":"Rex","categoryId":2,"status":"available","id":9223372036854775000}';

/** Earlier exchanges a rule may read an id from (idFrom): #1 created Rex (id 7), #2 listed it first, #3 refused. */
const EARLIER: Record<number, RuleExchange> = {
  1: exchange(201, PET, {}, SENT, { operationId: 'createPet' }),
  2: exchange(200, `[{"id":"x"},${PET}]`),
  3: exchange(400, ERROR, {}, SENT, { operationId: 'createPet' }),
};
/** The pets the run added (CON-003): Rex (id 7, available), answered well before every list of these cases. */
const ADDED = [{ id: 7n, status: 'available', answeredAt: BEFORE_SUNSET - 1000 }];
const lookup: ExchangeLookup = Object.assign((seq: number) => EARLIER[seq], { addedPets: () => ({ pets: ADDED, unreadable: [] }) });
/** One response of a key being spent: its Limit and Remaining, in one window (429 when refused). */
const limited = (limit: string, remaining: string, status = 200) =>
  exchange(status, status === 429 ? ERROR : '[]', { ...RATE, 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': remaining });
const RATE = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99', 'x-ratelimit-reset': '1767225600' };
/** A Free key's answer `atS` seconds into 2026, by the target's Date too, its window ending `resetS` seconds in. */
const timed = (atS: number, remaining: string, resetS: number, status = 200) =>
  exchange(
    status,
    status === 429 ? ERROR : '[]',
    {
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': remaining,
      'x-ratelimit-reset': String(1767225600 + resetS),
      date: new Date(Date.UTC(2026, 0, 1) + atS * 1000).toUTCString(),
      ...(status === 429 ? { 'retry-after': String(Math.max(1, Math.ceil(resetS - atS))) } : {}),
    },
    undefined,
    { startedAt: Date.UTC(2026, 0, 1) + atS * 1000, durationMs: 5 },
  );

/** One holding and one failing exchange for every rule, with the params a test would record. */
/** A rule across exchanges fails on several: `failing` is then the list, and the last one breaks it. */
/** A rule on one key's sequence ending in its 429 (`sequence`) judges it whole: `holding` is then a sequence too. */
const CASES: Record<
  RuleName,
  { params: Record<string, unknown>; holding: RuleExchange | RuleExchange[]; failing: RuleExchange | RuleExchange[]; actual: RegExp; sequence?: true }
> = {
  'json-schema': { params: { schema: 'Error' }, holding: exchange(404, ERROR), failing: exchange(404, '{"code":"x"}'), actual: /message/ },
  'status-in': { params: { allowed: [400] }, holding: exchange(400, ERROR), failing: exchange(201, PET), actual: /status 201/ },
  'status-below': { params: { limit: 500 }, holding: exchange(400, ERROR), failing: exchange(500, ''), actual: /status 500: an empty body/ },
  'pet-is': {
    params: { idFrom: 1, name: 'Rex', categoryId: '2', status: 'available' },
    holding: exchange(200, PET),
    failing: exchange(200, PET.replace('"id":7', '"id":8')),
    actual: /^id 8$/,
  },
  'headers-present': {
    params: { names: ['WWW-Authenticate'] },
    holding: exchange(401, ERROR, { 'www-authenticate': 'Bearer' }),
    failing: exchange(401, ERROR),
    actual: /WWW-Authenticate missing on the 401/,
  },
  'media-type': {
    params: { name: 'Content-Type', value: 'application/json' },
    holding: exchange(200, PET, { 'content-type': 'application/json; charset=utf-8' }),
    failing: exchange(200, PET, { 'content-type': 'text/plain' }),
    actual: /Content-Type "text\/plain"/,
  },
  'list-length': { params: { max: 1 }, holding: exchange(200, `[${PET}]`), failing: exchange(200, `[${PET},${PET}]`), actual: /2 items/ },
  'list-count-of-id': {
    params: { idFrom: 1, min: 1 },
    holding: exchange(200, `[${PET}]`),
    failing: exchange(200, '[]'),
    actual: /id 7 listed 0 times/,
  },
  'added-pets-listed': {
    params: {},
    holding: exchange(200, `[${PET}]`, {}, undefined, { url: 'http://store.test/v1/pets?status=available&limit=100' }),
    failing: exchange(200, '[]', {}, undefined, { url: 'http://store.test/v1/pets?status=available&limit=100' }),
    actual: /1 of them missing \(createPet acknowledged each\): id 7/,
  },
  'list-only-status': {
    params: { status: 'available' },
    holding: exchange(200, `[${PET}]`, {}, undefined, { url: 'http://store.test/v1/pets?status=available' }),
    failing: exchange(200, `[${PET.replace('available', 'sold')}]`, {}, undefined, { url: 'http://store.test/v1/pets?status=available' }),
    actual: /"sold"/,
  },
  'field-non-empty': {
    params: { field: 'message' },
    holding: exchange(404, ERROR),
    failing: exchange(404, ERROR.replace('no such pet', ' ')),
    actual: /message " "/,
  },
  'error-status-is-http-status': { params: {}, holding: exchange(404, ERROR), failing: exchange(400, ERROR), actual: /HTTP 400 with Error.status 404/ },
  'pet-echoes-sent': {
    params: { fields: ['name', 'categoryId', 'status'] },
    holding: exchange(201, PET, {}, SENT),
    failing: exchange(201, PET.replace('"Rex"', '"rex"'), {}, SENT),
    actual: /name "rex" for "Rex"/,
  },
  'pet-id-not-sent': {
    params: {},
    holding: exchange(201, PET, {}, SENT),
    failing: exchange(201, '{"id":9223372036854775000,"name":"Rex","categoryId":2}', {}, SENT),
    actual: /id 9223372036854775000/,
  },
  'pet-id-int64': {
    params: {},
    holding: exchange(201, PET),
    failing: exchange(201, PET.replace('"id":7', '"id":9223372036854775808')),
    actual: /^id 9223372036854775808$/,
  },
  'pet-ids-distinct': { params: {}, holding: exchange(201, PET), failing: exchange(201, PET.replace('"id":7', '"id":"7"')), actual: /^id "7"$/ },
  'answered-alike': {
    params: {},
    holding: exchange(201, PET, RATE),
    failing: [exchange(201, PET, RATE), exchange(201, PET)],
    actual: /rate-limit headers; 201, no Content-Type, a JSON object \{categoryId, id, name, status\}, without X-RateLimit-Limit/,
  },
  'pet-is-requested': {
    params: {},
    holding: exchange(200, PET, {}, undefined, getPet('7')),
    failing: exchange(200, PET, {}, undefined, getPet('8')),
    actual: /getPet 8 returned \{id=7, name="Rex", categoryId=2, status=available\}/,
  },
  'pet-as-answered': {
    params: { idFrom: 1 },
    holding: exchange(200, PET, {}, undefined, getPet('7')),
    failing: exchange(200, PET.replace('available', 'sold'), {}, undefined, getPet('7')),
    actual: /differs in status sold/,
  },
  'store-model': {
    params: { tag: 'T' },
    holding: exchange(201, MODEL_PET, {}, '{"name":"T x","categoryId":2}', { operationId: 'createPet' }),
    // Replayed from the holding create on, a 400 to the next create is the first disagreement (test/model has sequences).
    failing: exchange(400, ERROR, {}, '{"name":"T y","categoryId":2}', { operationId: 'createPet' }),
    actual: /status 400/,
  },
  'rate-header-is': {
    params: { field: 'remaining', oneOf: [0] },
    holding: exchange(429, ERROR, { ...RATE, 'x-ratelimit-remaining': '0' }),
    failing: exchange(429, ERROR, RATE),
    actual: /X-RateLimit-Remaining: 99 on a 429/,
  },
  'rate-headers-integers': {
    params: {},
    holding: exchange(404, ERROR, RATE),
    failing: exchange(404, ERROR, { ...RATE, 'x-ratelimit-remaining': '101' }),
    actual: /X-RateLimit-Remaining "101"/,
  },
  'retry-after-syntax': {
    params: {},
    holding: exchange(404, ERROR, { 'retry-after': '120' }),
    failing: exchange(404, ERROR, { 'retry-after': '2 minutes' }),
    actual: /Retry-After "2 minutes"/,
  },
  'retry-after-agrees-reset': {
    params: {},
    holding: exchange(429, ERROR, { ...RATE, date: 'Thu, 01 Jan 2026 00:00:00 GMT', 'x-ratelimit-reset': '1767225630', 'retry-after': '30' }),
    failing: exchange(429, ERROR, { ...RATE, date: 'Thu, 01 Jan 2026 00:00:00 GMT', 'x-ratelimit-reset': '1767225630', 'retry-after': '3600' }),
    actual: /Retry-After 3600 \(3600\.0 s\) but Reset 1767225630 is 30\.0 s away/,
  },
  'rate-remaining-falls': {
    params: {},
    holding: exchange(200, '[]', { ...RATE, 'x-ratelimit-remaining': '100' }),
    failing: [exchange(200, '[]', RATE), exchange(200, '[]', RATE)],
    actual: /200 with Remaining 99, Reset 1767225600 → 200 with Remaining 99, Reset 1767225600/,
  },
  'rate-reset-never-back': {
    params: {},
    holding: exchange(200, '[]', RATE),
    failing: [exchange(200, '[]', RATE), exchange(200, '[]', { ...RATE, 'x-ratelimit-reset': '1767225540' })],
    actual: /Reset 1767225600 → 200 with Remaining 99, Reset 1767225540/,
  },
  'rate-429-after-zero': {
    params: {},
    holding: [limited('2', '1'), limited('2', '0'), limited('2', '0', 429)],
    failing: [limited('3', '2'), limited('3', '2', 429)],
    actual: /429 right after a response that said 200 with Remaining 2/,
    sequence: true,
  },
  'rate-none-served-past-zero': {
    params: {},
    holding: [limited('2', '1'), limited('2', '0'), limited('2', '0', 429)],
    failing: [limited('2', '0'), limited('2', '0')],
    actual: /Remaining 0, Reset 1767225600, then the next request was served/,
    sequence: true,
  },
  'rate-window-serves-limit': {
    params: {},
    holding: [limited('2', '1'), limited('2', '0'), limited('2', '0', 429)],
    failing: [limited('2', '1'), limited('2', '1', 429)],
    actual: /1 served, then 429/,
    sequence: true,
  },
  'rate-429-after-own-zero': {
    params: {},
    holding: [limited('3', '2'), limited('3', '1'), limited('3', '0'), limited('3', '0', 429)],
    failing: [limited('3', '3'), limited('3', '2'), limited('3', '1'), limited('3', '0', 429)],
    actual: /Remaining 1, Reset 1767225600, then the next request was refused/,
    sequence: true,
  },
  'rate-promise-kept': {
    params: {},
    holding: [limited('1000', '999'), limited('1000', '998'), limited('1000', '997')],
    failing: [limited('1000', '999'), limited('1000', '998'), limited('1000', '940', 429)],
    actual: /1 served, then 429 with Limit 1000, Remaining 940/,
    sequence: true,
  },
  'rate-window-length': {
    params: { windowS: 60 },
    // A minute window: whole again at its turn, spent, and its 429 promises the next turn a minute on.
    holding: [timed(0, '0', 60, 429), timed(60, '59', 120), timed(62, '0', 120, 429)],
    // A window that turns every second: whole again two seconds after the 429 before the last whole one.
    failing: [timed(0, '0', 1, 429), timed(1, '59', 2), timed(1.1, '0', 2, 429), timed(2, '59', 3)],
    actual: /whole again 2\.0 s after the 429 before it/,
    sequence: true,
  },
  'no-finding': {
    params: { requirement: 'RATE-001' },
    holding: exchange(200, '[]', { ...RATE, 'content-type': 'application/json' }),
    failing: exchange(200, '[]', { 'content-type': 'application/json' }),
    actual: /X-RateLimit/,
  },
  'status-omitted-or-enum': { params: {}, holding: exchange(201, PET), failing: exchange(201, PET.replace('available', 'lost')), actual: /status "lost"/ },
  'deprecation-header': {
    params: {},
    holding: exchange(200, PET, { deprecation: '@1767225600' }),
    failing: exchange(200, PET, { deprecation: 'yes' }),
    actual: /Deprecation: "yes"/,
  },
  'sunset-names-day': {
    params: {},
    holding: exchange(200, PET, { sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, undefined, getPet('7')),
    failing: exchange(200, PET, { sunset: 'Fri, 06 Dec 2030 00:00:00 GMT' }, undefined, getPet('7')),
    actual: /Sunset: "Fri, 06 Dec 2030/,
  },
  'deprecation-link': {
    params: {},
    holding: exchange(200, PET, { link: '</v2/pets/7>; rel="successor-version"' }),
    failing: exchange(200, PET, { link: '</help>; rel=help' }),
    actual: /Link: "<\/help>; rel=help"/,
  },
  'status-documented': {
    params: {},
    holding: exchange(404, ERROR, {}, undefined, getPet('8')),
    failing: exchange(410, ERROR, {}, undefined, getPet('8')),
    actual: /^getPet: 410$/,
  },
  'allow-lists-path-methods': {
    params: {},
    holding: exchange(405, ERROR, { allow: 'GET, POST' }),
    failing: exchange(405, ERROR, { allow: 'GET' }),
    actual: /Allow "GET" without POST/,
  },
  'retry-after-within-reset': {
    params: {},
    holding: exchange(429, ERROR, { ...RATE, date: 'Thu, 01 Jan 2026 00:00:00 GMT', 'x-ratelimit-reset': '1767225630', 'retry-after': '89' }),
    // Retry-After in milliseconds: 16.7 hours when the window resets in 30 seconds.
    failing: exchange(429, ERROR, { ...RATE, date: 'Thu, 01 Jan 2026 00:00:00 GMT', 'x-ratelimit-reset': '1767225630', 'retry-after': '60000' }),
    actual: /Retry-After 60000 asks for 16\.7 h, but X-RateLimit-Reset 1767225630 is 30\.0 s away/,
  },
  'rate-key-unmoved': {
    params: { burst: 3 },
    holding: [exchange(200, '[]', RATE), exchange(200, '[]', { ...RATE, 'x-ratelimit-remaining': '98' })],
    // The other key's three requests and its own: the counter is shared.
    failing: [exchange(200, '[]', RATE), exchange(200, '[]', { ...RATE, 'x-ratelimit-remaining': '95' })],
    actual: /Remaining 99, Reset 1767225600 → 200 with Remaining 95, Reset 1767225600 \(shared\)/,
    sequence: true,
  },
  'rate-plan-window': {
    // A minute of 3: the first request opened the window (Remaining 2), the burst of 3 ends in its 429.
    params: { perMinute: 3, bursts: [3], preflighted: false },
    holding: [limited('3', '2'), limited('3', '1'), limited('3', '0'), limited('3', '0', 429)],
    failing: [limited('3', '2'), limited('3', '1'), limited('3', '0'), limited('3', '0')],
    actual: /4 requests of the window served/,
    sequence: true,
  },
  'status-other-than': { params: { status: 429 }, holding: exchange(200, '[]'), failing: exchange(429, ERROR), actual: /status 429/ },
  'location-names-pet': {
    params: {},
    holding: exchange(201, PET, { location: '/v1/pets/7' }),
    failing: exchange(201, PET, { location: 'pets/8' }),
    actual: /Location "pets\/8"/,
  },
  'nothing-heard-after': {
    params: {},
    holding: exchange(200, '[]', {}, undefined, { heardAfter: { bytes: 0, closed: false } }),
    failing: exchange(200, '[]', {}, undefined, { heardAfter: { bytes: 38, closed: false } }),
    actual: /38 more bytes/,
  },
  'framing-probe-kept': {
    params: {},
    holding: cleanProbe(),
    failing: [...cleanProbe().slice(0, 2), wired('second', 401, { heard: { bytes: 38, closed: false } })],
    actual: /38 more bytes after the second answer/,
    sequence: true,
  },
  'answered-400': { params: {}, holding: wired('odd', 400), failing: wired('odd', 500), actual: /^500$/ },
  'answered-below-500': { params: {}, holding: wired('odd', 417), failing: wired('odd', 0, { ended: 'timeout' }), actual: /no answer \(timeout\)/ },
  'tunnel-refused': { params: {}, holding: wired('odd', 0, { ended: 'closed' }), failing: wired('odd', 200), actual: /^200$/ },
  'refused-4xx-or-closed': { params: {}, holding: wired('odd-next', 400), failing: wired('odd-next', 0, { ended: 'malformed' }), actual: /malformed/ },
  'own-answer-first': { params: {}, holding: wired('odd', 429), failing: wired('odd', 400), actual: /^400$/ },
  'error-body-whole': {
    params: {},
    holding: wired('odd', 400, { body: '{"code":"bad_request","message":"no Host"}' }),
    failing: wired('odd', 400, { body: '{"code":" ","message":"no Host"}' }),
    actual: /no non-empty code/,
  },
};

describe('judgment rules: pure functions of what the log records', () => {
  it('every rule of the registry has a case here', () => {
    expect(JUDGMENT_RULES.map((r) => r.name).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))('%s holds on one exchange and fails on another', (name, { params, holding, failing, actual, sequence }) => {
    const holdingList = Array.isArray(holding) ? holding : [holding];
    expect(evaluateRule(name, holdingList, params, contract, lookup).holds).toBe(true);
    const failingList = Array.isArray(failing) ? failing : [failing];
    const failed = evaluateRule(name, failingList, params, contract, lookup);
    expect(failed.holds).toBe(false);
    expect(failed.actual).toMatch(actual);
    // A sequence is judged whole: its exchanges are not independent cases to put one after another.
    if (sequence) return;
    // Several exchanges: the rule must hold on each, and the failure names the first that fails.
    expect(evaluateRule(name, [...holdingList, ...failingList], params, contract, lookup)).toMatchObject({ holds: false, failedAt: failingList.length });
  });

  it('a rule on an exhaustion judges nothing but a sequence ending in its 429: cut short, it fails', () => {
    const served = [limited('2', '1'), limited('2', '0')];
    for (const rule of ['rate-429-after-zero', 'rate-window-serves-limit']) {
      expect(evaluateRule(rule, served, {}, contract, lookup).holds, rule).toBe(false);
      expect(evaluateRule(rule, [limited('2', '0', 429)], {}, contract, lookup).holds, rule).toBe(false);
    }
  });

  it('params a forger wrote that a rule cannot read fail, never throw', () => {
    for (const rule of JUDGMENT_RULES) {
      for (const params of [{ schema: 'Nope', allowed: 'x', names: 3, min: 'a', id: {}, fields: [1] }, {}]) {
        const { holding } = CASES[rule.name];
        const result = evaluateRule(rule.name, Array.isArray(holding) ? holding : [holding], params as Record<string, unknown>, contract, lookup);
        // Rules without params hold on their holding case; the others refuse what they cannot read.
        if (Object.keys(CASES[rule.name].params).length > 0) expect(result.holds, rule.name).toBe(false);
      }
    }
  });

  it('an unknown rule does not hold, and is not in the registry', () => {
    expect(judgmentRule('always-true')).toBeUndefined();
    expect(evaluateRule('always-true', [exchange(200, '[]')], {}, contract)).toMatchObject({ holds: false, actual: 'the unknown rule "always-true"' });
  });

  it('an id is read from the exchange idFrom names, never from a number the params state', () => {
    const list = exchange(200, `[${PET}]`);
    // A list of 100 where the created pet is #2's first Pet (an existing pet in read-only mode).
    expect(evaluateRule('list-count-of-id', [list], { idFrom: 2, min: 1 }, contract, lookup).holds).toBe(true);
    // A stated id is not read at all; an exchange not logged, or one that answered no Pet, gives no id.
    expect(evaluateRule('list-count-of-id', [list], { id: '7', min: 1 }, contract, lookup).holds).toBe(false);
    expect(evaluateRule('pet-is', [exchange(200, PET)], { id: '7' }, contract, lookup).holds).toBe(false);
    expect(evaluateRule('list-count-of-id', [list], { idFrom: 9, min: 1 }, contract, lookup)).toMatchObject({
      holds: false,
      actual: '#9 is not an exchange of the log',
    });
    expect(evaluateRule('pet-is', [exchange(200, PET)], { idFrom: 3 }, contract, lookup)).toMatchObject({
      holds: false,
      actual: expect.stringMatching(/^#3 answered 400/),
    });
  });

  it('added-pets-listed judges a complete list by its filter, against the pets answered before it was asked for', () => {
    const list = (text: string, query: string, at = BEFORE_SUNSET) =>
      exchange(200, text, {}, undefined, { url: `http://store.test/v1/pets?${query}`, startedAt: at });
    const judged = (e: RuleExchange, added = lookup) => evaluateRule('added-pets-listed', [e], {}, contract, added);
    // Another status, or no filter: Rex is not due there; a list as long as its limit is not complete.
    expect(judged(list('[]', 'status=sold&limit=100')).holds).toBe(true);
    expect(judged(list('[]', 'limit=100')).holds).toBe(true);
    expect(judged(list(`[${PET}]`, 'status=available&limit=1'))).toMatchObject({ holds: false, expected: expect.stringMatching(/complete list/) });
    // A pet answered within a clock step of the list (or after it) is not held to it.
    expect(judged(list('[]', 'status=available&limit=100', BEFORE_SUNSET - 1000)).holds).toBe(true);
    // A create the log does not keep whole, answered before the list: the list cannot be judged complete.
    const unreadable: ExchangeLookup = Object.assign((seq: number) => EARLIER[seq], {
      addedPets: () => ({ pets: [], unreadable: [{ seq: 4, answeredAt: BEFORE_SUNSET - 5 }] }),
    });
    expect(judged(list(`[${PET}]`, 'status=available&limit=100'), unreadable)).toMatchObject({ holds: false, actual: 'the log does not keep #4 whole' });
    // A pet sent to another store (a shard of a merged run against its own embedded reference) is not held to this one's lists.
    const elsewhere: ExchangeLookup = Object.assign((seq: number) => EARLIER[seq], {
      addedPets: () => ({ pets: [{ ...ADDED[0]!, origin: 'http://other.test:8080' }], unreadable: [] }),
    });
    expect(judged(list('[]', 'status=available&limit=100'), elsewhere).holds).toBe(true);
    const here: ExchangeLookup = Object.assign((seq: number) => EARLIER[seq], {
      addedPets: () => ({ pets: [{ ...ADDED[0]!, origin: 'http://store.test' }], unreadable: [] }),
    });
    expect(judged(list('[]', 'status=available&limit=100'), here).holds).toBe(false);
    // Without the run's creates to read (a lookup that has none), the rule never holds.
    expect(judged(list(`[${PET}]`, 'status=available&limit=100'), (seq: number) => EARLIER[seq]).holds).toBe(false);
  });

  it('ids are distinct across the exchanges judged together: the second of one id fails', () => {
    const other = exchange(201, PET.replace('"id":7', '"id":8'));
    expect(evaluateRule('pet-ids-distinct', [exchange(201, PET), other], {}, contract).holds).toBe(true);
    expect(evaluateRule('pet-ids-distinct', [exchange(201, PET), other, exchange(201, PET)], {}, contract)).toMatchObject({
      holds: false,
      failedAt: 2,
      actual: expect.stringMatching(/^id 7 assigned twice: to \{"id":7,/),
    });
  });

  it('answered alike compares what each request sent, read from the log (sentFrom), never a stated pet', () => {
    // #1 sent Rex and got Rex back; a second create whose answer renames the pet is not alike.
    const renamed = exchange(201, PET.replace('"Rex"', '"Max"'), RATE, SENT, { operationId: 'createPet' });
    const echoed = exchange(201, PET, RATE, SENT, { operationId: 'createPet' });
    expect(evaluateRule('answered-alike', [echoed, echoed], { sentFrom: [1, 1] }, contract, lookup).holds).toBe(true);
    expect(evaluateRule('answered-alike', [echoed, renamed], { sentFrom: [1, 1] }, contract, lookup)).toMatchObject({
      holds: false,
      failedAt: 1,
      actual: expect.stringContaining(
        'name, categoryId, status as sent, rate-limit headers; 201, no Content-Type, a JSON object {categoryId, id, name, status}, categoryId, status as sent',
      ),
    });
    // Without sentFrom the two look alike; a source the log does not hold, or params of another length, fail.
    expect(evaluateRule('answered-alike', [echoed, renamed], {}, contract, lookup).holds).toBe(true);
    expect(evaluateRule('answered-alike', [echoed, renamed], { sentFrom: [1, 9] }, contract, lookup)).toMatchObject({ holds: false, actual: 'none recorded' });
    expect(evaluateRule('answered-alike', [echoed, renamed], { sentFrom: [1] }, contract, lookup).holds).toBe(false);
  });

  it('a status is compared only when the body has one with statusIfAnswered; a removed getPet is documented after its sunset only', () => {
    const without = exchange(200, '{"id":7,"name":"Rex","categoryId":2}');
    expect(evaluateRule('pet-is', [without], { idFrom: 1, status: 'available', statusIfAnswered: true }, contract, lookup).holds).toBe(true);
    expect(evaluateRule('pet-is', [without], { idFrom: 1, status: 'available' }, contract, lookup).holds).toBe(false);
    expect(
      evaluateRule('pet-is', [exchange(200, PET.replace('available', 'sold'))], { idFrom: 1, status: 'available', statusIfAnswered: true }, contract, lookup)
        .holds,
    ).toBe(false);
    expect(evaluateRule('status-documented', [exchange(410, ERROR, {}, undefined, getPet('8', AFTER_SUNSET))], {}, contract).holds).toBe(true);
    expect(evaluateRule('status-documented', [exchange(200, PET, {}, undefined, { operationId: undefined })], {}, contract).holds).toBe(false);
  });

  it('params restate what the log holds: the animal a getPet asked for, the fields it was added with', () => {
    const rex = { idFrom: 1, name: 'Rex', categoryId: '2', status: 'available' };
    expect(evaluateRule('pet-is', [exchange(200, PET, {}, undefined, getPet('7'))], rex, contract, lookup).holds).toBe(true);
    // Percent-encoded digits name the same animal (STA-016).
    expect(evaluateRule('pet-is', [exchange(200, PET, {}, undefined, getPet('%37'))], rex, contract, lookup).holds).toBe(true);
    // A report edited to compare getPet 8's answer with the animal #1 added (id 7): another animal was asked for.
    expect(evaluateRule('pet-is', [exchange(200, PET, {}, undefined, getPet('8'))], rex, contract, lookup)).toMatchObject({
      holds: false,
      actual: 'the request asked for id 8',
    });
    expect(evaluateRule('pet-as-answered', [exchange(200, PET, {}, undefined, getPet('8'))], { idFrom: 1 }, contract, lookup).holds).toBe(false);
    // Fields other than those #1 sent, or than the animal #2 listed: the judgment is not the log's.
    const renamed = exchange(200, PET.replace('"Rex"', '"Max"'), {}, undefined, getPet('7'));
    expect(evaluateRule('pet-is', [renamed], { ...rex, name: 'Max' }, contract, lookup)).toMatchObject({
      holds: false,
      actual: 'the judgment compares with name Max, where #1 has Rex',
    });
    expect(evaluateRule('pet-is', [exchange(200, PET)], { idFrom: 2, categoryId: '3' }, contract, lookup).holds).toBe(false);
    expect(evaluateRule('pet-is', [exchange(200, PET)], { idFrom: 2, name: 'Rex', categoryId: '2' }, contract, lookup).holds).toBe(true);
  });

  it("pet-is on a createPet's answer compares with the categoryId its request wrote, exactly", () => {
    const created = (written: string, answered: string) =>
      exchange(201, `{"id":7,"name":"Rex","categoryId":${answered}}`, {}, `{"name":"Rex","categoryId":${written}}`, {
        operationId: 'createPet',
        method: 'POST',
      });
    expect(evaluateRule('pet-is', [created('1e3', '1000')], { categoryId: '1000' }, contract).holds).toBe(true);
    expect(evaluateRule('pet-is', [created('9007199254740993.0', '9007199254740993')], { categoryId: '9007199254740993' }, contract).holds).toBe(true);
    // A server that rounds through a double, and a report edited to expect the rounded value.
    expect(evaluateRule('pet-is', [created('9007199254740993.0', '9007199254740992')], { categoryId: '9007199254740992' }, contract)).toMatchObject({
      holds: false,
      actual: 'the judgment compares with categoryId 9007199254740992, where the request has 9007199254740993',
    });
  });

  it("a list's filter and limit are the request's: params cannot ask for another status or allow more", () => {
    const list = (query: string) => exchange(200, `[${PET}]`, {}, undefined, { url: `http://store.test/v1/pets?${query}` });
    expect(evaluateRule('list-only-status', [list('status=sold')], { status: 'available' }, contract)).toMatchObject({
      holds: false,
      actual: 'the request asked for status=sold',
    });
    expect(evaluateRule('list-length', [list('limit=1')], { max: 1 }, contract).holds).toBe(true);
    expect(evaluateRule('list-length', [list('limit=1')], { max: 5 }, contract).holds).toBe(false);
    expect(evaluateRule('list-length', [list('limit=1')], { min: 1 }, contract).holds).toBe(false);
    // Outside 1..100 the interface lets a server clamp instead: LIM-004 allows up to 100 for limit=0.
    expect(evaluateRule('list-length', [list('limit=0')], { max: 100 }, contract).holds).toBe(true);
  });

  it('a count of the store is read from the list of limit=100 countFrom names, whole or as far as the log kept it', () => {
    const pets = (n: number) => `[${Array.from({ length: n }, (_, i) => PET.replace('"id":7', `"id":${i + 1}`)).join(',')}]`;
    const page = (text: string, query = 'limit=100', extra: Partial<RuleExchange> = {}) =>
      exchange(200, text, {}, undefined, { url: `http://store.test/v1/pets?${query}`, ...extra });
    const counts: Record<number, RuleExchange> = {
      1: page(pets(12)),
      2: page(pets(30)),
      // The log cut this list after 21 whole items: at least 21 are stored.
      3: page(`${pets(40).slice(0, pets(21).length + 10)}`, 'limit=100', { bodyCut: true }),
      4: page(pets(3), 'limit=3'),
      5: page(pets(3), 'limit=100&status=sold'),
    };
    const count = (n: number, countFrom: number) =>
      evaluateRule('list-length', [exchange(200, pets(n))], { countFrom, max: 20 }, contract, (seq) => counts[seq]);
    expect(count(12, 1).holds).toBe(true);
    expect(count(10, 1)).toMatchObject({ holds: false, expected: 'a list of 12 to 20 items', actual: '10 items' });
    expect(count(20, 2).holds).toBe(true);
    expect(count(19, 2).holds).toBe(false);
    expect(count(20, 3).holds).toBe(true);
    expect(count(10, 3).holds).toBe(false);
    // A page of another limit or a filtered list states a smaller store: never a count.
    expect(count(3, 4)).toMatchObject({ holds: false, actual: '#4 asked GET http://store.test/v1/pets?limit=3' });
    expect(count(3, 5).holds).toBe(false);
    expect(count(3, 9)).toMatchObject({ holds: false, actual: '#9 is not an exchange of the log' });
  });

  it('a Pet echo reads the sent value from the recorded request, so a missing request body fails', () => {
    expect(evaluateRule('pet-echoes-sent', [exchange(201, PET)], { fields: ['name'] }, contract).holds).toBe(false);
  });
});
