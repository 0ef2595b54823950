import type { ApiResponse } from '../client/index.ts';
import type { Exchange } from '../client/exchange.ts';
import type { ConformanceMeta } from '../report/test-meta.ts';

/** Exchanges kept whole for a failing test; the rest keep only what the report's tables and chart need. */
const FULL_EXCHANGES_ON_FAILURE = 6;

/** Trims a finished test's exchanges so task.meta stays small across thousands of property cases. */
export function trimEvidence(meta: ConformanceMeta): void {
  const failed = meta.failure !== undefined;
  const keep = new Set([...meta.findings.map((f) => f.exchangeSeq), ...(meta.failure?.exchangeSeqs ?? [])]);
  const lastFull = failed ? meta.exchanges.length - FULL_EXCHANGES_ON_FAILURE : meta.exchanges.length;
  meta.exchanges = meta.exchanges.map((exchange, index) => (index >= lastFull || keep.has(exchange.seq) ? exchange : summarise(exchange)));
}

function summarise(exchange: Exchange): Exchange {
  // A raw probe's record of the wire holds its bodies' bytes: left out with them.
  const { request, response, wire: _wire, ...rest } = exchange;
  return {
    ...rest,
    summarised: true,
    request: { method: request.method, url: request.url, headers: {} },
    response: response ? { status: response.status, headers: {} } : undefined,
  };
}

/** What a failure was decided on: responses the suite received, or their recorded exchanges. */
export type Evidence = ApiResponse | Exchange | ReadonlyArray<ApiResponse | Exchange>;

export function evidenceSeqs(evidence: Evidence | undefined): number[] {
  if (evidence === undefined) return [];
  const list: ReadonlyArray<ApiResponse | Exchange> = Array.isArray(evidence) ? evidence : [evidence as ApiResponse | Exchange];
  return list.map((item) => ('exchange' in item ? item.exchange.seq : item.seq));
}
