import type { ConformanceReport } from './report-types.ts';
import type { RunInfo } from './run-info.ts';
import type { ShardRecord } from './shard-record.ts';

/**
 * What a certificate of a merge needs of the run the shards made: the grade --certify asks of a run
 * (src/config/load-config.ts): thorough, every requirement, a plan for a remote target, TLS verified. Empty: certifiable.
 */
export function certificationGradeProblems(run: RunInfo): string[] {
  return [
    ...(run.profile === 'thorough' ? [] : [`the shards ran profile ${run.profile}: a certificate needs --profile thorough`]),
    ...((run.only ?? []).length > 0 ? [`the shards ran --only ${(run.only ?? []).join(',')}: a certificate speaks of every requirement`] : []),
    ...(!run.target.embedded && !run.plan ? ["the shards ran a remote target without --plan: RATE-008 checks the key's plan limits"] : []),
    ...(run.network?.tlsVerified === false ? ["the shards ran with --insecure: a certificate needs the target's TLS verified"] : []),
  ];
}

/**
 * The merged run against its shards' records, as a defence against edited blobs: every passed test
 * carries the requests or observed exchanges that prove it, in the merge and in its shard's record (a
 * test every check of which ran on nothing proved nothing), and the merge's requests are the exchanges
 * it holds and the sum of the shards' own counts. Empty: the merge agrees with its shards.
 */
export function mergeEvidenceProblems(report: ConformanceReport, exchangeCount: number, records: readonly ShardRecord[]): string[] {
  const recorded = new Map(records.flatMap((r) => r.tests.map((t) => [t.id, t])));
  const problems: string[] = [];
  for (const requirement of report.requirements) {
    for (const test of requirement.tests) {
      if (test.state !== 'passed') continue;
      const own = recorded.get(test.id);
      if (test.requests === 0 && (test.observed ?? 0) === 0) problems.push(`${requirement.id} "${test.name}" passed on no request and no observed exchange`);
      else if (!own || own.state !== 'passed' || (own.requests === 0 && own.observed === 0))
        problems.push(
          `${requirement.id} "${test.name}" passed in the merge, but its shard's record says ${own ? `${own.state} on ${own.requests} requests` : 'nothing of it'}`,
        );
      else if (own.requests !== test.requests)
        problems.push(`${requirement.id} "${test.name}" sent ${test.requests} requests in the merge, ${own.requests} in its shard's record`);
    }
  }
  const sent = report.requirements.flatMap((r) => r.tests).reduce((sum, t) => sum + t.requests, 0);
  const shards = records.reduce((sum, r) => sum + r.requestCount, 0);
  if (report.traffic.requestCount !== exchangeCount || sent !== exchangeCount || shards !== exchangeCount)
    problems.push(`the merge holds ${exchangeCount} exchanges, its tests ${sent} requests, the shards recorded ${shards}: they must agree`);
  return problems;
}
