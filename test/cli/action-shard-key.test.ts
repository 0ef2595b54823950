import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

/**
 * action/run.sh's handling of the shard-key input, without the suite: a fake `node` records the arguments
 * and the environment the CLI would get (to files, never to the log).
 */
const work = mkdtempSync(join(tmpdir(), 'action-shard-key-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const KEY = 'shard-key-of-the-action-test-0123456789abcdef';

/**
 * A `node` that, started as the CLI, writes its arguments and environment where the test reads them
 * (run.sh starts it with `env -i`, so the places are written into the script), and answers the gate step.
 */
function fakeNode(dir: string, files: { args: string; env: string }): string {
  const bin = join(dir, 'node-bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'node'),
    [
      '#!/bin/bash',
      'case "$1" in',
      '  *gate.mjs) printf "verdict=conformant\\ngate=pass\\ngate-reason=fake\\n" ;;',
      `  *) printf "%s\\n" "$@" > '${files.args}'; env > '${files.env}' ;;`,
      'esac',
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'node'), 0o755);
  return bin;
}

/** One run of action/run.sh with these INPUT_* values over the job's env: what the log said, what the CLI got. */
function run(inputs: Record<string, string>, jobEnv: Record<string, string> = {}) {
  const dir = mkdtempSync(join(work, 'job-'));
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  const files = { args: join(dir, 'args'), env: join(dir, 'env'), output: join(dir, 'output') };
  writeFileSync(files.output, '');
  const result = spawnSync('bash', [join(ROOT, 'action', 'run.sh')], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      RUNNER_TEMP: dir,
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_OUTPUT: files.output,
      GITHUB_RUN_ID: '4711',
      GITHUB_RUN_ATTEMPT: '1',
      NODE_BIN: fakeNode(dir, files),
      ...jobEnv,
      ...inputs,
    },
  });
  expect(result.status, result.stdout + result.stderr).toBe(0);
  return {
    log: result.stdout + result.stderr,
    args: readFileSync(files.args, 'utf8').split('\n'),
    env: readFileSync(files.env, 'utf8').split('\n'),
  };
}

describe('action/run.sh: the shard-key input', () => {
  it('a shard: the key reaches the CLI in ASC_SHARD_KEY only, masked in the log before anything else is said', () => {
    const { log, args, env } = run({ INPUT_SHARD: '1/2', INPUT_SHARD_KEY: KEY, INPUT_PROFILE: 'thorough' });
    expect(env).toContain(`ASC_SHARD_KEY=${KEY}`);
    expect(args.join(' ')).not.toContain(KEY);
    expect(args).toEqual(expect.arrayContaining(['--shard', '1/2', '--run-nonce', '4711-1']));
    // The runner hides ::add-mask:: lines and masks their value in every line after: no other line may hold it.
    const lines = log.split('\n');
    expect(lines).toContain(`::add-mask::${KEY}`);
    expect(lines.filter((line) => !line.startsWith('::add-mask::') && line.includes(KEY))).toEqual([]);
  });

  it('the merge job: the key and the run nonce given reach the merge', () => {
    const { args, env } = run({ INPUT_MERGE_REPORTS: 'shards', INPUT_SHARD_KEY: KEY, INPUT_RUN_NONCE: '4711-1' });
    expect(env).toContain(`ASC_SHARD_KEY=${KEY}`);
    expect(args).toEqual(expect.arrayContaining(['--merge-reports', '--run-nonce', '4711-1']));
    expect(args.join(' ')).not.toContain(KEY);
  });

  it("without the input nothing is set, and the job's own ASC_SHARD_KEY does not reach the CLI", () => {
    const { log, env } = run({ INPUT_SHARD: '1/2' }, { ASC_SHARD_KEY: KEY });
    expect(env.filter((line) => line.startsWith('ASC_SHARD_KEY='))).toEqual([]);
    expect(log).not.toContain('::add-mask::');
  });
});
