import type { Catalog } from '../catalog/catalog.ts';
import { CONFIG_DEFAULTS, type Config, planLimitsOf, planOf } from '../config/load-config.ts';
import type { Contract } from '../contract/index.ts';
import type { HarnessError } from '../errors.ts';
import { type ConformanceReport, type Deviation, type RunInfo, buildReport } from '../report/index.ts';
// The identity alone, not the certificate's index: an ordinary run loads no certification code.
import { suiteIdentity } from '../certificate/suite-identity.ts';
import { reproduceCommand } from './args.ts';
import { suiteVersion } from './paths.ts';

export interface RunOutcome {
  exitCode: 0 | 1 | 2;
  report: ConformanceReport;
}

export function runInfo(setup: RunSetup, targetUrl: string, embedded: boolean): RunInfo {
  const { config } = setup;
  return {
    suiteVersion: suiteVersion(),
    suiteIdentity: suiteIdentity(),
    specVersion: setup.contract.version,
    specSha256: setup.contract.sha256,
    target: { url: targetUrl, embedded },
    profile: config.profile,
    seed: config.seed,
    readOnly: config.readOnly,
    exhaust: config.exhaust,
    strict: config.strict,
    requireComplete: config.requireComplete,
    ...(planOf(config) ? { plan: planOf(config) } : {}),
    ...(planLimitsOf(config) ? { planLimits: planLimitsOf(config) } : {}),
    only: [...config.only],
    startedAt: setup.startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    nodeVersion: process.version,
    command: reproduceCommand(config),
    ...(config.shard ? { shard: config.shard } : {}),
    ...(config.runNonce ? { runNonce: config.runNonce } : {}),
    ...(runNetwork(config.network) ? { network: runNetwork(config.network) } : {}),
  };
}

/** What a report says of how the target was reached; nothing when it was reached directly with TLS verified. */
function runNetwork(network: Config['network']): RunInfo['network'] {
  if (network.headers.length === 0 && !network.proxy && !network.caCert && !network.insecure) return undefined;
  return {
    headers: network.headers.map(([name]) => name),
    ...(network.proxy ? { proxy: new URL(network.proxy).origin } : {}),
    ...(network.caCert ? { caCert: true } : {}),
    tlsVerified: !network.insecure,
  };
}

export function incompleteReport(setup: Omit<RunSetup, 'config' | 'deviations'> & { config: Config | undefined }, problem: HarnessError): ConformanceReport {
  const { config } = setup;
  const info: RunInfo = config
    ? runInfo({ ...setup, config, deviations: [] }, config.target ?? 'embedded reference', !config.target)
    : {
        suiteVersion: suiteVersion(),
        specVersion: setup.contract.version,
        specSha256: setup.contract.sha256,
        target: { url: 'unknown (configuration rejected)', embedded: false },
        profile: CONFIG_DEFAULTS.remoteProfile,
        seed: 0,
        readOnly: CONFIG_DEFAULTS.readOnly,
        exhaust: CONFIG_DEFAULTS.exhaust,
        strict: CONFIG_DEFAULTS.strict,
        startedAt: setup.startedAt.toISOString(),
        endedAt: new Date().toISOString(),
        nodeVersion: process.version,
        command: 'npx animal-store-conformance --help',
      };
  return buildReport({
    runInfo: info,
    catalog: setup.catalog,
    tests: [],
    harnessErrors: [{ code: problem.code, message: problem.message }],
    strict: config?.strict ?? CONFIG_DEFAULTS.strict,
    operations: setup.contract.operations,
  });
}

export interface RunSetup {
  config: Config;
  catalog: Catalog;
  contract: Contract;
  deviations: Deviation[];
  startedAt: Date;
}
