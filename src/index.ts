// The package's public API. Everything else under src/ is internal and may change.
export { main } from './cli/main.ts';
export { parseCliArgs, USAGE, type CliArgs } from './cli/args.ts';
export { runConformance, type RunOutcome } from './cli/run.ts';
export { loadConfig, PROFILES, PROFILE_BUDGETS, type Config, type ConfigFlags, type Profile } from './config/load-config.ts';
export { ConformanceFailure, HarnessError, isConformanceFailure, isHarnessError, type HarnessErrorCode } from './errors.ts';
export { parseJson, readJson, readJsonBytes, stringifyJson, toBigInt, INT64_MAX, INT64_MIN, MAX_JSON_DEPTH, type JsonReading } from './text/json.ts';
export { consoleSafe, shownText } from './text/console-text.ts';
export { createContract, loadSpec, type Contract, type OperationInfo, type ValidationIssue } from './contract/index.ts';
export { loadCatalog, parseCatalog, type Catalog, type Requirement, type Level } from './catalog/catalog.ts';
export { createClient, toCurl, type ApiResponse, type ClientOptions, type TargetClient, type Exchange } from './client/index.ts';
export { CHECKS, runChecks, type Finding } from './checks/index.ts';
export {
  startReferenceServer,
  FAULTS,
  INDEPENDENT_FAULTS,
  OUTSIDE_FAULTS,
  EVERY_FAULT,
  FAULT_SET_NAMES,
  faultsOfSet,
  VARIANTS,
  combineVariants,
  parseApiKeys,
  type ReferenceOptions,
  type ReferenceServer,
  type FaultName,
  type IndependentFaultName,
  type OutsideFaultName,
  type FaultSetName,
  type TaggedFault,
  type VariantName,
} from './reference/index.ts';
export {
  buildReport,
  renderHtml,
  renderJson,
  renderJunit,
  writeReports,
  ConformanceReporter,
  type ConformanceReport,
  type RequirementResult,
  type RunInfo,
} from './report/index.ts';
// The `conformance` test fixture only works inside vitest: it is 'animal-store-conformance/harness', so
// this entry imports from plain JavaScript.
export type { ConformanceContext } from './harness/index.ts';
export { buildMatrix, renderMatrixHtml, renderMatrixMarkdown, writeMatrix, readInputs, type Matrix, type MatrixInput } from './matrix/index.ts';
export { writeCertificationBundle, verifyBundle, type CertifiedSummary, type Verification, type BundleCheck } from './certificate/index.ts';
