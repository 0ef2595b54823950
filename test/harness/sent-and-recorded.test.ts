import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/client/client-types.ts';
import { recordExchange, recordRequest } from '../../src/client/record.ts';
import { createRedactor } from '../../src/client/redact.ts';
import { evaluateRule } from '../../src/checks/judgment-rules.ts';
import { ruleExchangeOf } from '../../src/harness/rule-exchanges.ts';
import { unprovableRule } from '../../src/harness/unprovable.ts';
import { readJson } from '../../src/text/json.ts';
import { contract } from '../checks/context.ts';

/**
 * A rule reads a live exchange as it went on the wire: the request as sent and the answer as received.
 * It once read the request from the redacted record and the answer as received, so a pet name holding
 * text like the key (a one-letter key in "Łajka") read as changed by the target: a correct server failed
 * SCH-005. Where redaction changed the request, the rule is asked again on the record (unprovableRule).
 */
const KEY = 'k';
const redact = createRedactor(KEY);
const NAME = 'Rocky 0caafc Łajka 猫';

function exchangeOf(name: string, echoed: string): ApiResponse {
  const body = JSON.stringify({ name, categoryId: 1 });
  const wire = { method: 'POST', url: 'http://127.0.0.1:1/v1/pets', headers: { 'Content-Type': 'application/json' }, body };
  const request = recordRequest(wire, undefined, redact, KEY);
  const text = JSON.stringify({ id: 5, name: echoed, categoryId: 1 });
  const response = { status: 201, headers: { 'content-type': 'application/json' }, text, bytes: Buffer.from(text) };
  const exchange = recordExchange({ seq: 1, startedAt: 0, durationMs: 1, operationId: 'createPet', request, response, retries: 0 }, redact);
  const reading = readJson(text);
  return {
    status: 201,
    headers: response.headers,
    text,
    body: reading.ok ? reading.value : undefined,
    isJson: true,
    exchange,
    findings: [],
    sent: { url: wire.url, body },
  };
}

const echoes = (response: ApiResponse) => evaluateRule('pet-echoes-sent', [ruleExchangeOf(response)], { fields: ['name', 'categoryId'] }, contract).holds;
const lookup = Object.assign(() => undefined, { addedPets: () => ({ pets: [], unreadable: [] }) });

describe('a live judgment reads the request as sent, and the record is asked again', () => {
  it('a server that echoes a name holding text like the key passes: the request as sent is compared, not its record', () => {
    const response = exchangeOf(NAME, NAME);
    expect(response.exchange.request.body).not.toContain('Łajka');
    expect(response.exchange.request.redacted).toBe(true);
    expect(echoes(response)).toBe(true);
  });

  it('a server that changes the name still fails', () => {
    expect(echoes(exchangeOf(NAME, 'Rocky 0caafc Laika 猫'))).toBe(false);
  });

  it('a request left alone by redaction is not marked, and its pass needs no second look', () => {
    const response = exchangeOf('Bella 12ab', 'Bella 12ab');
    expect(response.exchange.request.redacted).toBeUndefined();
    expect(unprovableRule('pet-echoes-sent', [response.exchange], [ruleExchangeOf(response)], { fields: ['name'] }, contract, lookup)).toBeUndefined();
  });

  it('where the record of a redacted request no longer holds the rule, the pass is unprovable, not claimed', () => {
    const response = exchangeOf(NAME, NAME);
    // Only the request's record was redacted, and the record no longer holds the rule: the answer's alone
    // would not have asked again.
    const { redacted: _redacted, ...answer } = response.exchange.response!;
    const record = { ...response.exchange, response: { ...answer, body: JSON.stringify({ id: 5, name: NAME, categoryId: 1 }) } };
    expect(unprovableRule('pet-echoes-sent', [record], [ruleExchangeOf(response)], { fields: ['name'] }, contract, lookup)).toMatch(/cannot prove this pass/);
  });
});
