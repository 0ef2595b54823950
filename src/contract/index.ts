export { createContract, type Contract, type OperationInfo, type ResponseInfo, type ValidationIssue } from './contract.ts';
export { loadSpec, SPEC_PATH, type LoadedSpec, type OpenApiDocument } from './load-spec.ts';
