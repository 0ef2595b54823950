import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The project's own workflow runs what CI runs: every job's command is `.ci/run` in one of the modes the
 * script accepts, so a job can never test less than the script, nor pass where the script fails. Between
 * them the jobs cover all of it: the fast checks and every shard of the verdict proofs.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKFLOWS = `${ROOT}.github/workflows/`;

interface Job {
  steps: Array<{ run?: string; uses?: string }>;
  strategy?: { matrix?: Record<string, unknown[]> };
}

function jobs(): Array<[string, Job]> {
  return readdirSync(WORKFLOWS)
    .filter((name) => name.endsWith('.yml'))
    .flatMap((name) => Object.entries((parse(readFileSync(`${WORKFLOWS}${name}`, 'utf8')) as { jobs: Record<string, Job> }).jobs));
}

/** The modes `.ci/run` names in its usage line. */
function modesOfScript(): string[] {
  const usage = /usage: bash \.ci\/run \[([a-z|]+)/.exec(readFileSync(`${ROOT}.ci/run`, 'utf8'))?.[1];
  return usage?.split('|') ?? [];
}

describe('the workflow', () => {
  it('runs nothing but .ci/run, in a mode the script accepts', () => {
    const modes = modesOfScript();
    expect(modes).toEqual(['all', 'fast', 'verdicts']);
    for (const [name, job] of jobs()) {
      const commands = job.steps.flatMap((step) => (step.run === undefined ? [] : [step.run.trim()]));
      expect(commands, name).toHaveLength(1);
      const call = /^bash \.ci\/run(?: (\S+))?/.exec(commands[0]!);
      expect(call, `${name} runs ${commands[0]}`).not.toBeNull();
      expect(modes, name).toContain(call![1] ?? 'all');
    }
  });

  it('covers the fast checks and every shard of the verdict proofs', () => {
    const runs = jobs().map(([, job]) => ({ command: job.steps.find((step) => step.run)!.run!.trim(), shards: job.strategy?.matrix?.shard }));
    expect(runs.some((r) => r.command === 'bash .ci/run fast')).toBe(true);
    const verdicts = runs.find((r) => r.command.startsWith('bash .ci/run verdicts'));
    expect(verdicts).toBeDefined();
    const total = Number(/\/(\d+)$/.exec(verdicts!.command)?.[1]);
    expect(verdicts!.shards).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });
});
