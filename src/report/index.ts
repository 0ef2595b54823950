export { buildReport, type ReportInput } from './build-report.ts';
export { ConformanceReporter, type ConformanceReporterOptions } from './conformance-reporter.ts';
export { failureFingerprint, loadExpectedDeviations, parseExpectedDeviations, renderBaseline, updatedBaseline, BASELINE_DAYS } from './deviations.ts';
export { type Har, HAR_FILE, toHar, writeHar } from './har.ts';
export type {
  ConformanceReport,
  CoverageRow,
  Deviation,
  DeviationNote,
  FailureDetail,
  HarnessProblem,
  OverallVerdict,
  RateLimitPoint,
  RequirementResult,
  RequirementVerdict,
  TestOutcome,
  TestSummary,
  Traffic,
  Verdict,
} from './report-types.ts';
export { exitCodeOf } from './overall-verdict.ts';
export { renderHtml } from './render-html.ts';
export { renderJson } from './render-json.ts';
export { renderJunit } from './render-junit.ts';
export { type RunInfo, type RunNetwork, networkText, publicTargetUrl, redactCommand } from './run-info.ts';
export { type CollectedRun, collectRun } from './test-outcomes.ts';
export { collectExchanges, dailyQuotaText, transportErrorsText } from './traffic.ts';
export { REPORT_FILES, writeReports } from './write-reports.ts';
export { type ShardRecord, type ShardSet, mergeDeviations, readShardSet, shardRecordOf, shardRecordPath, writeShardRecord } from './shard-record.ts';
export { certificationGradeProblems, mergeEvidenceProblems } from './shard-evidence.ts';
export { type ShardAuth, shardAuth, shardAuthProblem, shardSetAuthProblems } from './shard-auth.ts';
export { reportContradictions } from './report-consistency.ts';
export { type ExplainedRequirement, type RootCause, expectedStatuses, rootCauses, schemaViolation } from './root-causes.ts';
export { failureLine } from './failure-evidence.ts';
