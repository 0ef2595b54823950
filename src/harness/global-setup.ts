import type { TestProject } from 'vitest/node';
import { loadCatalog } from '../catalog/catalog.ts';
import { loadConfig } from '../config/load-config.ts';
import { createContract } from '../contract/index.ts';
import { type RunContext, prepareRun } from './run-context.ts';
import { type RunSources, sourcesOf } from './run-sources.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    conformanceRun: RunContext;
    conformanceSources: RunSources;
  }
}

/**
 * The CLI prepares the run and provides it; when the conformance project is started by plain
 * `vitest --project conformance`, the run is prepared here from the environment instead.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (project.getProvidedContext().conformanceRun) return undefined;
  const contract = createContract();
  const prepared = await prepareRun(loadConfig(), contract);
  project.provide('conformanceRun', prepared.context);
  project.provide('conformanceSources', sourcesOf(contract, loadCatalog()));
  return () => prepared.dispose();
}
