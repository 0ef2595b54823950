import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { USAGE } from '../../../src/cli/args.ts';
import type { ConformanceReport } from '../../../src/report/report-types.ts';
import { action, download, simulatedRunner, type ActionJob } from '../../support/simulated-runner.ts';
import { ROOT, startStandalone } from '../../support/cli.ts';

/** Every flag a CI run needs has its input; merge-reports is the matrix's merge job. */
const INPUT_TO_FLAG: Record<string, string> = {
  target: '--target',
  plan: '--plan',
  profile: '--profile',
  'read-only': '--read-only',
  strict: '--strict',
  'category-ids': '--category-ids',
  seed: '--seed',
  shard: '--shard',
  'max-duration': '--max-duration',
  'expected-deviations': '--expected-deviations',
  baseline: '--baseline',
  'require-complete': '--require-complete',
  'merge-reports': '--merge-reports',
  certify: '--certify',
  'sign-key': '--sign-key',
  'report-dir': '--report-dir',
};

describe('action.yml: what a pipeline needs', () => {
  it('has an input for every flag a CI run needs, each one a flag the CLI knows', () => {
    for (const [input, flag] of Object.entries(INPUT_TO_FLAG)) {
      expect(action.inputs[input], input).toBeDefined();
      expect(USAGE, `${input} → ${flag}`).toContain(flag);
    }
    for (const input of ['api-key', 'exhaust-key', 'artifact-name', 'node-version']) expect(action.inputs[input], input).toBeDefined();
  });

  it('changes no Node of the caller (no setup-node, nothing on GITHUB_PATH), runs the compiled dist/ without dev dependencies, caches npm', () => {
    const uses = action.runs.steps.map((s) => s.uses ?? '');
    expect(uses.filter((u) => u.startsWith('actions/setup-node'))).toEqual([]);
    expect(uses.some((u) => u.startsWith('actions/cache@'))).toBe(true);
    const scripts = ['node.sh', 'install.sh', 'run.sh'].map((f) => readFileSync(join(ROOT, 'action', f), 'utf8')).join('\n');
    expect(scripts).not.toMatch(/>>\s*"?\$\{?GITHUB_(PATH|ENV)/);
    expect(scripts).toContain('npm prune --omit=dev');
    expect(scripts).toContain('/dist/bin/cli.js');
    expect(scripts).not.toContain('src/bin/');
  });

  it("gates on completeness by default, and says the gate's decision apart from the verdict", () => {
    expect(action.inputs['require-complete']?.default).toBe('true');
    expect(action.outputs.gate?.value).toBe('${{ steps.run.outputs.gate }}');
    expect(action.outputs.verdict?.value).toBe('${{ steps.run.outputs.verdict }}');
  });

  it('pastes no input into a script: inputs reach the scripts through env only', () => {
    for (const step of action.runs.steps) expect(step.run ?? '', step.name).not.toContain('${{');
  });
});

// ---- The Action run by a simulated runner (test/support/simulated-runner.ts). ----

const work = mkdtempSync(join(tmpdir(), 'action-sim-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const runner = simulatedRunner(work);
const KEY = 'action-key-0123456789abcdef';

const report = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;

describe('the Action run by a simulated runner', () => {
  it('a single run: its own Node from the tool cache, run-time dependencies only, a verdict, the gate and one upload', async () => {
    const { url } = await startStandalone(`${KEY}:enterprise:100000:1000000`);
    const job = await runner.runAction({ target: url, 'api-key': KEY, profile: 'quick', 'node-version': '20' }, { name: 'conformance' });
    // The quick profile leaves some MUST untested: PARTIAL, and require-complete (the default) fails the gate.
    expect(job.outputs.stepFailed, job.log).toBe('Gate on the verdict: exit 1');
    expect(job.log).toMatch(/Node for the suite: v\d+\.\d+\.\d+ \(.*toolcache\/node\/20\.99\.0\//);
    expect(readFileSync(job.githubPath, 'utf8')).toBe('');
    expect(existsSync(join(runner.actionPath, 'node_modules', 'vitest'))).toBe(true);
    for (const devTool of ['typescript', 'tsx', 'esbuild']) expect(existsSync(join(runner.actionPath, 'node_modules', devTool)), devTool).toBe(false);
    expect(existsSync(join(runner.actionPath, 'dist', 'bin', 'cli.js'))).toBe(true);
    expect(job.outputs.verdict).toBe('partial');
    expect(job.outputs['exit-code']).toBe('1');
    expect(job.outputs.gate).toBe('fail');
    expect(job.uploaded).toHaveLength(1);
    expect(job.outputs['artifact-name']).toMatch(/^animal-store-conformance-conformance-[0-9a-f]{8}$/);
    expect(report(join(job.workspace, 'conformance-reports')).run.target.url).toBe(url);
    for (const file of readdirSync(join(job.workspace, 'conformance-reports'))) {
      if (file.endsWith('.json') || file.endsWith('.html') || file.endsWith('.xml'))
        expect(readFileSync(join(job.workspace, 'conformance-reports', file), 'utf8')).not.toContain(KEY);
    }
    expect(job.log).not.toContain(KEY);
  }, 600_000);

  it('a matrix of 3 shards, then the merge job: one report, one verdict, the whole suite, the gate policy of the merge job', async () => {
    // The embedded reference (no target): each shard starts its own, and the thorough profile leaves no MUST untested.
    const common = { profile: 'thorough', 'node-version': '20' };
    // One after the other: on a runner each job has its own checkout, here they share one (and its npm ci).
    const shards: ActionJob[] = [];
    for (const shard of ['1/3', '2/3', '3/3']) shards.push(await runner.runAction({ ...common, shard }, { name: 'conformance' }));
    for (const shard of shards) {
      expect(shard.outputs.stepFailed, shard.log).toBeUndefined();
      expect(['conformant', 'partial']).toContain(shard.outputs.verdict);
      // A shard is partial by construction: require-complete (the default) is the merge job's to apply.
      expect(shard.outputs.gate).toBe('pass');
    }
    // Unique artifact names per matrix entry, though every entry is the same job.
    const names = shards.map((s) => s.outputs['artifact-name']);
    expect(new Set(names).size).toBe(3);
    expect(names[0]).toMatch(/^animal-store-conformance-conformance-shard-1-3-[0-9a-f]{8}$/);
    // Each shard saw part of the suite, with the seed of the workflow run.
    const parts = shards.map((s) => report(join(s.workspace, 'conformance-reports')));
    expect(new Set(parts.map((p) => p.run.seed))).toEqual(new Set([31415926535 % 2147483647]));

    // The merge job: download-artifact (merge-multiple) into one folder, then the Action in merge mode.
    const workspace = mkdtempSync(join(work, 'ws-merge-'));
    download(shards, join(workspace, 'shards'));
    // The merge job's baseline and strict reach the merge (they were dropped): the report lists the one and records the other.
    writeFileSync(join(workspace, 'known.yaml'), '- id: AUTH-001\n  reason: a known failure, listed in the merge job only\n');
    const merge = await runner.runAction(
      { 'merge-reports': 'shards', baseline: 'known.yaml', strict: 'true', 'node-version': '20' },
      { name: 'merge', workspace },
    );
    expect(merge.outputs.stepFailed, merge.log).toBeUndefined();
    expect(merge.outputs.verdict).toBe('conformant');
    expect(merge.log).toMatch(/Merged 3 shards of one run/);
    const merged = report(join(workspace, 'conformance-reports'));
    expect(merged.verdict.overall).toBe('conformant');
    expect(merge.outputs.gate).toBe('pass');
    expect(merged.run.strict).toBe(true);
    expect(merged.run.requireComplete).toBe(true);
    expect(merged.deviations.map((d) => [d.id, d.source, d.status])).toEqual([['AUTH-001', 'baseline', 'requirement-passes']]);
    expect(merged.run.shard).toBeUndefined();
    expect(merged.verdict.scope.mustTested).toBeGreaterThan(Math.max(...parts.map((p) => p.verdict.scope.mustTested)));
    expect(readFileSync(join(merge.githubPath, '..', 'summary.md'), 'utf8')).toMatch(/## Animal Store conformance: CONFORMANT/);
  }, 900_000);
});
