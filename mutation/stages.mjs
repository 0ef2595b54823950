// node mutation/stages.mjs: the mutation runs' test command (stryker.config.mjs). Runs a run's stages in
// order (mutation/targets.mjs, runStages) and stops at the first that fails: its exit code detects the
// mutant. Under Stryker (__STRYKER_ACTIVE_MUTANT__ set) it appends `<mutant id> <stage>` to the file
// MUTATION_STAGE_LOG names, so the kept report can say which stage detected each mutant: the conformance
// runs, or only the variants' liberty test (mutation/run.mjs, score.mjs).
/* global process */
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { runStages } from './targets.mjs';

const variants = process.env.MUTATION_VARIANTS === '1';
const profile = process.env.MUTATION_PROFILE ?? 'standard';
for (const stage of runStages({ variants, profile })) {
  const run = spawnSync(stage.command, { shell: true, stdio: 'inherit', env: { ...process.env, ...stage.env } });
  if (run.status !== 0) {
    const mutant = process.env.__STRYKER_ACTIVE_MUTANT__;
    const log = process.env.MUTATION_STAGE_LOG;
    if (mutant !== undefined && log) appendFileSync(log, `${mutant} ${stage.name}\n`);
    process.exit(run.status ?? 1);
  }
}
