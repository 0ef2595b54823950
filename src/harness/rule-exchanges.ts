import type { ApiResponse } from '../client/index.ts';
import type { Exchange } from '../client/exchange.ts';
import type { RuleExchange } from '../checks/judgment-rules.ts';
import { readJson } from '../text/json.ts';

/**
 * What a rule reads of an exchange while the test runs: the same fields rejudge reads of its HAR entry
 * (src/certificate/rejudge.ts), so a judgment evaluated live and again from the log agree.
 */

/**
 * An exchange as a rule reads it while the test runs: the request as sent and the answer as received,
 * never a mix of one as sent and the other as redacted (a name holding text like the key would read as
 * changed by the target). Where redaction changed either, unprovableRule asks the rule again on the record.
 */
export function ruleExchangeOf(response: ApiResponse): RuleExchange {
  return {
    status: response.status,
    headers: response.headers,
    text: response.text,
    body: response.body,
    isJson: response.isJson,
    requestText: response.sent.body,
    url: response.sent.url,
    operationId: response.exchange.operationId,
    startedAt: response.exchange.startedAt,
    durationMs: response.exchange.durationMs,
    method: response.exchange.request.method,
  };
}

/** What the log keeps of a recorded exchange (the source of a value a rule reads by `idFrom` or `countFrom`). */
export function recordedRuleExchange(exchange: Exchange): RuleExchange {
  const text = exchange.response?.body ?? '';
  const reading = text.length === 0 ? undefined : readJson(text);
  return {
    status: exchange.response?.status ?? 0,
    headers: exchange.response?.headers ?? {},
    text,
    body: reading?.ok ? reading.value : undefined,
    isJson: reading?.ok === true,
    requestText: exchange.request.body,
    url: exchange.request.url,
    operationId: exchange.operationId,
    startedAt: exchange.startedAt,
    durationMs: exchange.durationMs,
    method: exchange.request.method,
    // The record keeps a body up to a few KiB, as the log does: a rule counting a list reads what is whole.
    ...(exchange.response?.bodyTruncated ? { bodyCut: true } : {}),
    ...(exchange.heardAfter ? { heardAfter: exchange.heardAfter } : {}),
    ...(exchange.wire ? { wire: exchange.wire } : {}),
  };
}
