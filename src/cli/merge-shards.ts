import { createVitest } from 'vitest/node';
import type { Config } from '../config/load-config.ts';
import { HarnessError } from '../errors.ts';
import { toHar } from '../report/har.ts';
import { type ShardSet, readShardSet, mergeDeviations, certificationGradeProblems, mergeEvidenceProblems, shardSetAuthProblems } from '../report/index.ts';
import { finish, plural, reporterFor } from './finish-run.ts';
import { PACKAGE_ROOT, VITEST_CONFIG } from './paths.ts';
import { suiteInventory } from './suite-files.ts';
import type { RunOutcome, RunSetup } from './run-facts.ts';

/**
 * Merges blob reports of sharded runs (vitest --merge-reports) into one set of reports. What was run
 * (target, profile, seed, options, expected deviations) comes from the shards' records, never from the
 * merge command, and shards that were not one run, or whose recorded exchanges do not prove their outcomes
 * (re-judged as `rejudge` does), are refused (ERR_SHARD_MISMATCH). A --baseline given to the merge is
 * applied, or refused when the shards were judged with another (mergeDeviations).
 */
export async function mergeShards(setup: RunSetup, blobDir: string, log: (line: string) => void): Promise<RunOutcome> {
  const shards = readShardSet(blobDir);
  try {
    if (setup.config.certifyDir) checkCertifiableMerge(shards, setup.config);
    // Before anything of theirs is read: the shards are those the merge gave its nonce and key to.
    if (setup.config.shardKey !== undefined && setup.config.trustShards)
      throw new HarnessError(
        'ERR_CONFIG',
        '--trust-shards and --shard-key: give one (the key authenticates the shards; --trust-shards signs them unauthenticated)',
      );
    const unauthenticated = shardSetAuthProblems(shards, { key: setup.config.shardKey, nonce: setup.config.runNonce });
    if (unauthenticated.length > 0) throw new HarnessError('ERR_SHARD_MISMATCH', `the merge cannot authenticate its shards: ${unauthenticated.join('; ')}`);
    const deviations = mergeDeviations(shards.deviations, setup.deviations, {
      declared: setup.config.expectedDeviations !== undefined,
      baseline: setup.config.baseline !== undefined,
    });
    // Completeness and strictness are the gate's policy: the merge command may set them too (a matrix's
    // merge job is where the gate is).
    const run = {
      ...shards.run,
      requireComplete: shards.run.requireComplete === true || setup.config.requireComplete,
      strict: shards.run.strict || setup.config.strict,
      merged: { shards: shards.count, authenticated: setup.config.shardKey !== undefined },
    };
    const reporter = reporterFor(setup, {
      runInfo: () => run,
      strict: run.strict,
      deviations,
      // What the shards recorded themselves, and every file the whole run was to run.
      shards: { problems: shards.problems, notRunTestIds: shards.notRunTestIds },
      inventory: suiteInventory(run.only ?? [], setup.catalog, PACKAGE_ROOT),
    });
    const vitest = await createVitest('test', {
      root: PACKAGE_ROOT,
      config: VITEST_CONFIG,
      watch: false,
      mergeReports: shards.blobDir,
      reporters: [reporter],
    });
    try {
      await vitest.mergeReports(shards.blobDir);
    } finally {
      await vitest.close();
    }
    const result = reporter.result;
    if (!result) throw new HarnessError('ERR_ABORTED', `no blob reports to merge in ${blobDir}`);
    const unproven = mergeEvidenceProblems(result, reporter.exchanges.length, shards.records);
    if (unproven.length > 0)
      throw new HarnessError(
        'ERR_SHARD_MISMATCH',
        `the shards do not prove what they say: ${unproven.slice(0, 5).join('; ')}${unproven.length > 5 ? ` and ${unproven.length - 5} more` : ''}`,
      );
    // The merge is judged like a run: the shards' outcomes count only as far as their exchanges prove them.
    const har: unknown = JSON.parse(JSON.stringify(toHar(reporter.exchanges, { name: 'animal-store-conformance', version: result.run.suiteVersion })));
    // Loaded here only: every run imports this file, and an ordinary run no certification code (see runConformance).
    const { rejudgeCheck } = await import('../certificate/index.ts');
    const rejudged = rejudgeCheck(result, har, setup.catalog, setup.contract);
    if (!rejudged.ok) throw new HarnessError('ERR_SHARD_MISMATCH', `the shards' recorded exchanges do not prove their outcomes: ${rejudged.detail}`);
    checkShardsVouchedFor(setup.config);
    log(
      `Merged ${plural(shards.count, 'shard')} of one run: seed ${run.seed}, profile ${run.profile}, ${run.target.embedded ? 'the embedded reference' : run.target.url}; ${setup.config.shardKey ? 'each shard authenticated by the shard key' : 'shards NOT authenticated (no --shard-key): each shard runner is trusted'}`,
    );
    return await finish(setup, result, reporter.exchanges, log);
  } finally {
    shards.dispose();
  }
}

/** A merge certifies only at the grade --certify asks of a run, and a digest names a remote artefact only. */
function checkCertifiableMerge(shards: ShardSet, config: Config): void {
  const { run } = shards;
  const problems = certificationGradeProblems(run);
  if (config.implementationDigest && run.target.embedded)
    problems.push('--implementation-digest names an artefact, but the shards tested the embedded reference');
  if (problems.length > 0) throw new HarnessError('ERR_CONFIG', `--certify refuses this merge: ${problems.join('; ')}`);
}

/**
 * A certificate of a merge vouches for every shard: without the shard key nobody has authenticated them
 * (whoever ran one could have edited it), so --certify signs them only when told to trust them, and the
 * statement, verify and the matrix say so (run.merged.authenticated false).
 */
export function checkShardsVouchedFor(config: Pick<Config, 'certifyDir' | 'shardKey' | 'trustShards'>): void {
  if (!config.certifyDir || config.shardKey !== undefined || config.trustShards) return;
  throw new HarnessError(
    'ERR_CONFIG',
    '--certify refuses this merge: its shards are not authenticated. Give each shard job the run nonce and a shard key (--run-nonce, ASC_SHARD_KEY) and the merge the same, or sign them as they are with --trust-shards (said in the certificate)',
  );
}
