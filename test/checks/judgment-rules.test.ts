import { describe, expect, it } from 'vitest';
import { JUDGMENT_RULES, type RuleExchange, type RuleName, evaluateRule, judgmentRule } from '../../src/checks/judgment-rules.ts';
import { parseJson } from '../../src/json.ts';
import { contract } from './context.ts';

/** A response as the log records it: `text` parsed as the client and rejudge parse it. */
function exchange(status: number, text: string, headers: Record<string, string> = {}, requestText?: string): RuleExchange {
  let body: unknown;
  let isJson = false;
  try {
    body = parseJson(text);
    isJson = true;
  } catch {
    body = undefined;
  }
  return { status, headers, text, body, isJson, requestText };
}

const PET = '{"id":7,"name":"Rex","categoryId":2,"status":"available"}';
const ERROR = '{"code":"not_found","message":"no such pet","status":404}';
const SENT = '{"name":"Rex","categoryId":2,"status":"available","id":9223372036854775000}';

/** One holding and one failing exchange for every rule, with the params a test would record. */
const CASES: Record<RuleName, { params: Record<string, unknown>; holding: RuleExchange; failing: RuleExchange; actual: RegExp }> = {
  'json-schema': { params: { schema: 'Error' }, holding: exchange(404, ERROR), failing: exchange(404, '{"code":"x"}'), actual: /message/ },
  'status-in': { params: { allowed: [400] }, holding: exchange(400, ERROR), failing: exchange(201, PET), actual: /status 201/ },
  'status-below': { params: { limit: 500 }, holding: exchange(400, ERROR), failing: exchange(500, ''), actual: /status 500: an empty body/ },
  'pet-is': {
    params: { id: '7', name: 'Rex', categoryId: '2', status: 'available' },
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
    params: { id: '7', min: 1 },
    holding: exchange(200, `[${PET}]`),
    failing: exchange(200, '[]'),
    actual: /id 7 listed 0 times/,
  },
  'list-only-status': {
    params: { status: 'available' },
    holding: exchange(200, `[${PET}]`),
    failing: exchange(200, `[${PET.replace('available', 'sold')}]`),
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
};

describe('judgment rules: pure functions of what the log records', () => {
  it('every rule of the registry has a case here', () => {
    expect(JUDGMENT_RULES.map((r) => r.name).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))('%s holds on one exchange and fails on another', (name, { params, holding, failing, actual }) => {
    expect(evaluateRule(name, [holding], params, contract).holds).toBe(true);
    const failed = evaluateRule(name, [failing], params, contract);
    expect(failed.holds).toBe(false);
    expect(failed.actual).toMatch(actual);
    // Several exchanges: the rule must hold on each, and the failure names the first that fails.
    expect(evaluateRule(name, [holding, failing], params, contract)).toMatchObject({ holds: false, failedAt: 1 });
  });

  it('params a forger wrote that a rule cannot read fail, never throw', () => {
    for (const rule of JUDGMENT_RULES) {
      for (const params of [{ schema: 'Nope', allowed: 'x', names: 3, min: 'a', id: {}, fields: [1] }, {}]) {
        const result = evaluateRule(rule.name, [CASES[rule.name].holding], params as Record<string, unknown>, contract);
        // Rules without params hold on their holding case; the others refuse what they cannot read.
        if (Object.keys(CASES[rule.name].params).length > 0) expect(result.holds, rule.name).toBe(false);
      }
    }
  });

  it('an unknown rule does not hold, and is not in the registry', () => {
    expect(judgmentRule('always-true')).toBeUndefined();
    expect(evaluateRule('always-true', [exchange(200, '[]')], {}, contract)).toMatchObject({ holds: false, actual: 'the unknown rule "always-true"' });
  });

  it('a Pet echo reads the sent value from the recorded request, so a missing request body fails', () => {
    expect(evaluateRule('pet-echoes-sent', [exchange(201, PET)], { fields: ['name'] }, contract).holds).toBe(false);
  });
});
