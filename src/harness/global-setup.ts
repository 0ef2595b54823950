import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config.ts';
import { type RunContext, prepareRun } from './run-context.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    conformanceRun: RunContext;
  }
}

/**
 * The CLI prepares the run and provides it; when the conformance project is started by plain
 * `vitest --project conformance`, the run is prepared here from the environment instead.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (project.getProvidedContext().conformanceRun) return undefined;
  const prepared = await prepareRun(loadConfig());
  project.provide('conformanceRun', prepared.context);
  return () => prepared.dispose();
}
