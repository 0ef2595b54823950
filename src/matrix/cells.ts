import type { FailureDetail, RequirementResult } from '../report/report-types.ts';
import { CELL_STATUSES, type CellEvidence, type CellStatus, type MatrixCell, type StatusCounts } from './matrix-types.ts';

/** One cell from one report's result for one requirement: its status, and the evidence of a failure. */

/** Text from a bundle is kept to this many characters per field: the bundle's own report has the rest. */
const FIELD_LIMIT = 2_000;

export function statusOf(verdict: RequirementResult['verdict'] | undefined): CellStatus {
  switch (verdict) {
    case undefined:
      return 'absent';
    case 'partial':
    case 'skipped':
      return 'untested';
    case 'not-covered':
      return 'out-of-scope';
    default:
      return verdict;
  }
}

export function cellOf(column: string, result: RequirementResult | undefined): MatrixCell {
  const status = statusOf(result?.verdict);
  const cell: MatrixCell = { column, status, verdict: result?.verdict ?? 'absent' };
  if (!result) return cell;
  if (result.reason) cell.reason = clip(result.reason);
  const failure = result.failures[0];
  if (failure && (status === 'fail' || status === 'warn' || status === 'deviation'))
    cell.evidence = evidenceOf(failure, result.failures.length - 1 + result.omittedFailures);
  return cell;
}

function evidenceOf(failure: FailureDetail, more: number): CellEvidence {
  const exchange = failure.evidence[failure.evidence.length - 1];
  const evidence: CellEvidence = { message: clip(failure.message), more };
  if (failure.expected !== undefined) evidence.expected = clip(failure.expected);
  if (failure.actual !== undefined) evidence.actual = clip(failure.actual);
  if (exchange) {
    evidence.request = clip(`${exchange.request.method} ${exchange.request.url}`);
    if (exchange.response) evidence.status = exchange.response.status;
  }
  if (failure.property?.counterexample !== undefined) evidence.counterexample = clip(failure.property.counterexample);
  const curl = failure.curl ?? exchange?.curl;
  if (curl) evidence.curl = clip(curl);
  return evidence;
}

export function clip(text: string): string {
  return text.length > FIELD_LIMIT ? `${text.slice(0, FIELD_LIMIT)}… (${text.length - FIELD_LIMIT} more characters in the bundle's report)` : text;
}

export function zeroCounts(): StatusCounts {
  return Object.fromEntries(CELL_STATUSES.map((s) => [s, 0])) as StatusCounts;
}
