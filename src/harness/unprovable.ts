import type { Finding } from '../checks/check-types.ts';
import { type RuleExchange, evaluateRule, type ExchangeLookup } from '../checks/judgment-rules.ts';
import type { ApiResponse } from '../client/client-types.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Contract } from '../contract/index.ts';
import { findingsOfRecord, ruleExchangeOfRecord } from '../certificate/recorded-checks.ts';
import type { ConformanceMeta } from '../report/test-meta.ts';

/*
 * A pass the log cannot prove is untested. Redaction may change what the log keeps of an answer (text
 * like the API key becomes ***): the checks and rules that decided on the answer as sent are asked again
 * on the answer as the log holds it, where rejudge will read it. What holds on the first and not on the
 * second is recorded, so that the report claims no more than its log proves; a failure seen on the answer
 * as sent still stands (it is the target's, whatever the log can show of it).
 */

const keyOf = (f: { check: string; requirementId: string }) => `${f.check}\u0000${f.requirementId}`;

/** Records, in the test's meta, each always-on check that found nothing on the answer and fails on its record. */
export function noteUnprovable(meta: ConformanceMeta, exchange: Exchange, findings: readonly Finding[], contract: Contract): void {
  const seen = new Set(findings.map(keyOf));
  for (const finding of findingsOfRecord(exchange, contract)) {
    if (seen.has(keyOf(finding))) continue;
    (meta.unprovable ??= []).push({ check: finding.check, requirementId: finding.requirementId, exchangeSeq: exchange.seq });
  }
}

/**
 * Redaction changed what the log keeps of the exchange: its request (URL, body), its answer, or the bytes a
 * raw probe read (the bytes it sent always lose the Authorization value, which no rule reads).
 */
export function isRedactedRecord(exchange: Exchange): boolean {
  return exchange.response?.redacted === true || exchange.request.redacted === true || exchange.wire?.read.redacted === true;
}

/**
 * Why a rule's failure on records is the log's and not the target's, or undefined when it is the target's.
 * A raw probe's exchange is judged on its record (the probe's own checks read the bytes as they came):
 * where redaction changed that record, the rule may fail on what the log holds alone. Untested, not failed.
 */
export function recordOnlyFailure(rule: string, failed: ReadonlyArray<ApiResponse | Exchange>, actual: string): string | undefined {
  const record = failed.find((item): item is Exchange => !('exchange' in item) && isRedactedRecord(item));
  if (!record) return undefined;
  return `the log holds #${record.seq} redacted (it held text like the API key), and on what it holds the rule ${rule} does not hold: ${actual}; the log cannot decide it`;
}

/**
 * Why a rule that holds on the exchanges as sent and received cannot be proven from the log (it does not
 * hold on what the log keeps of a redacted one), or undefined when the log proves it as well. `lookup`
 * reads the log's records; `redactedSources` are the redacted exchanges the rule read through it while
 * the test ran (as sent and received), whose records may read otherwise; `unkeptCreates`, the run's creates
 * whose Pet it read as received because the log does not keep it whole (CON-003's ledger).
 */
export function unprovableRule(
  rule: string,
  exchanges: readonly Exchange[],
  sent: readonly RuleExchange[],
  params: Record<string, unknown>,
  contract: Contract,
  lookup: ExchangeLookup,
  redactedSources: readonly number[] = [],
  unkeptCreates = 0,
): string | undefined {
  const redacted = exchanges.filter(isRedactedRecord);
  if (redacted.length === 0 && redactedSources.length === 0 && unkeptCreates === 0) return undefined;
  const recorded = exchanges.map((e, i) => (isRedactedRecord(e) ? (ruleExchangeOfRecord(e) ?? sent[i]!) : sent[i]!));
  if (evaluateRule(rule, recorded, params, contract, lookup).holds) return undefined;
  const seqs = [...new Set([...redacted.map((e) => e.seq), ...redactedSources])].map((seq) => `#${seq}`).join(', ');
  const causes = [
    ...(seqs === '' ? [] : [`the log holds ${seqs} redacted (it held text like the API key)`]),
    ...(unkeptCreates === 0 ? [] : [`the log does not keep whole the Pet of ${unkeptCreates === 1 ? 'a create' : 'creates'} the run made (redacted, or cut)`]),
  ];
  return `${causes.join(', and ')}, and on what it holds the rule ${rule} does not hold: the log cannot prove this pass`;
}
