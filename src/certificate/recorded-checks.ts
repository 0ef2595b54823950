import { CHECKS, runChecks } from '../checks/registry.ts';
import type { Check, Finding } from '../checks/check-types.ts';
import type { RuleExchange } from '../checks/judgment-rules.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Contract } from '../contract/index.ts';
import { toHar } from '../report/har.ts';
import { type RecordedEntry, checkContextOf, readHarEntries } from './rejudge-har.ts';
import type { RejudgeStats } from './rejudge-types.ts';
import { ruleExchangeOf } from './judge-test.ts';

/*
 * The always-on checks as rejudge runs them on the exchange log: which of them an entry allows, and what
 * they find on one exchange as the log will hold it. The harness asks the second of an answer that
 * redaction changed, so that a report claims no pass its own log cannot prove.
 */

/**
 * Checks that read the response body: on a body cut for the report (or not exactly recorded) they are not
 * re-run. Every other check of the registry reads the status and headers only. A test holds every check
 * of the registry to one of the two lists, so a new check is classified when it is added.
 */
export const BODY_CHECKS: ReadonlySet<string> = new Set([
  'json-content-type',
  'response-schema',
  'error-envelope',
  'error-body-on-429',
  'error-status-matches',
  'error-fields-non-empty',
]);
/**
 * Checks that read what the log does not record: none. HTTP-001's connection checks read the entry's
 * `_connection` (stray bytes on a pooled connection, a retry after a drop), as they read it live.
 */
export const UNRECORDED_CHECKS: ReadonlySet<string> = new Set();

/** The checks that can run again on this entry (counted into `stats` when given). */
export function checksFor(entry: RecordedEntry, stats: RejudgeStats | undefined): readonly Check[] {
  if (entry.raw || entry.summarised || entry.transportError) {
    if (stats) stats.notChecked += 1;
    if (stats && entry.summarised) stats.summarised += 1;
    return [];
  }
  const headersOnly = entry.bodyCut || entry.bodyInexact;
  if (stats) {
    if (headersOnly) stats.headersOnly += 1;
    else stats.checkedWhole += 1;
  }
  return CHECKS.filter((c) => !UNRECORDED_CHECKS.has(c.name) && !(headersOnly && BODY_CHECKS.has(c.name)));
}

/** This exchange as rejudge will read its log entry, or undefined when the entry cannot be read. */
export function recordedEntryOf(exchange: Exchange): RecordedEntry | undefined {
  const read = readHarEntries(toHar([exchange], { name: 'record', version: '0' }));
  return 'entries' in read ? read.entries[0] : undefined;
}

/** What a rule reads of this exchange as rejudge will read its log entry. */
export function ruleExchangeOfRecord(exchange: Exchange): RuleExchange | undefined {
  const entry = recordedEntryOf(exchange);
  return entry ? ruleExchangeOf(entry) : undefined;
}

/**
 * What the always-on checks find on this exchange as its log entry will read (redacted, its body cut as
 * the log cuts it): exactly what rejudge will find on it.
 */
export function findingsOfRecord(exchange: Exchange, contract: Contract): Finding[] {
  const entry = recordedEntryOf(exchange);
  if (!entry) return [];
  return runChecks(checkContextOf(entry, contract), checksFor(entry, undefined));
}
