import type { ApiResponse } from '../client/index.ts';
import type { Exchange } from '../client/exchange.ts';
import type { RuleExchange } from '../checks/judgment-rules.ts';
import { readJson } from '../json.ts';

/** What the log keeps of a response, as a rule reads it (see RuleExchange). */
export function ruleExchangeOf(response: ApiResponse): RuleExchange {
  return {
    status: response.status,
    headers: response.headers,
    text: response.text,
    body: response.body,
    isJson: response.isJson,
    requestText: response.exchange.request.body,
    url: response.exchange.request.url,
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
  };
}
