import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { USAGE } from '../../src/cli/args.ts';
import type { ConformanceReport } from '../../src/report/model.ts';
import { ROOT, startStandalone } from './cli-helpers.ts';

interface Step {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  uses?: string;
  shell?: string;
  'working-directory'?: string;
  env?: Record<string, string>;
  with?: Record<string, string | boolean>;
}
interface Action {
  inputs: Record<string, { required?: boolean; default?: string; description: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

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

  it('changes no Node of the caller (no setup-node, nothing on GITHUB_PATH), installs no dev dependency, caches npm', () => {
    const uses = action.runs.steps.map((s) => s.uses ?? '');
    expect(uses.filter((u) => u.startsWith('actions/setup-node'))).toEqual([]);
    expect(uses.some((u) => u.startsWith('actions/cache@'))).toBe(true);
    const scripts = ['node.sh', 'install.sh', 'run.sh'].map((f) => readFileSync(join(ROOT, 'action', f), 'utf8')).join('\n');
    expect(scripts).not.toMatch(/>>\s*"?\$\{?GITHUB_(PATH|ENV)/);
    expect(scripts).toContain('npm ci --omit=dev');
  });

  it('pastes no input into a script: inputs reach the scripts through env only', () => {
    for (const step of action.runs.steps) expect(step.run ?? '', step.name).not.toContain('${{');
  });
});

// ---- A simulated runner: the composite steps in order, their scripts run by bash as the runner would. ----

const work = mkdtempSync(join(tmpdir(), 'action-sim-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
/** The Action's checkout: a copy, so its npm ci never touches this repository's node_modules. */
const actionPath = join(work, 'action-checkout');
const toolCache = join(work, 'toolcache');
const KEY = 'action-key-0123456789abcdef';

interface Job {
  workspace: string;
  outputs: Record<string, string>;
  log: string;
  uploaded: Array<{ name: string; path: string }>;
  githubPath: string;
}

function evaluate(text: string, inputs: Record<string, string>, steps: Record<string, Record<string, string>>, workspace: string): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input) return inputs[input[1] as string] ?? action.inputs[input[1] as string]?.default ?? '';
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output) return steps[output[1] as string]?.[output[2] as string] ?? '';
    if (expression === 'github.action_path') return actionPath;
    if (expression === 'github.workspace') return workspace;
    if (expression === 'runner.os') return 'Linux';
    throw new Error(`the simulated runner does not know the expression ${expression}`);
  });
}

function runCondition(condition: string | undefined, steps: Record<string, Record<string, string>>): boolean {
  if (condition === undefined) return true;
  if (condition === "always() && steps.run.outputs.artifact-name != ''") return (steps.run?.['artifact-name'] ?? '') !== '';
  throw new Error(`the simulated runner does not know the condition ${condition}`);
}

function bash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; out: string }> {
  const child = spawn('bash', ['-e', '-c', script], { cwd, env });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

/** One job's use of the Action: each step as the runner runs it, with GITHUB_* of a matrix job. */
async function runAction(inputs: Record<string, string>, job: { name: string; workspace?: string; runId?: string }): Promise<Job> {
  const workspace = job.workspace ?? mkdtempSync(join(work, 'ws-'));
  const temp = mkdtempSync(join(work, 'runner-temp-'));
  const githubPath = join(temp, 'github-path');
  writeFileSync(githubPath, '');
  const steps: Record<string, Record<string, string>> = {};
  const result: Job = { workspace, outputs: {}, log: '', uploaded: [], githubPath };
  let failed = false;
  for (const step of action.runs.steps) {
    if (!runCondition(step.if, steps) || (failed && step.if === undefined)) continue;
    if (step.uses) {
      if (step.uses.startsWith('actions/upload-artifact@')) {
        const name = evaluate(String(step.with?.name), inputs, steps, workspace);
        const path = evaluate(String(step.with?.path), inputs, steps, workspace);
        result.uploaded.push({ name, path });
      }
      continue;
    }
    const outputFile = join(temp, `output-${step.id ?? 'step'}`);
    writeFileSync(outputFile, '');
    const env: Record<string, string> = {
      PATH: '/usr/bin:/bin',
      HOME: process.env.HOME ?? '',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_OUTPUT: outputFile,
      GITHUB_PATH: githubPath,
      GITHUB_STEP_SUMMARY: join(temp, 'summary.md'),
      GITHUB_JOB: job.name,
      GITHUB_RUN_ID: job.runId ?? '31415926535',
      RUNNER_TEMP: temp,
      RUNNER_TOOL_CACHE: toolCache,
      npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? '', '.npm'),
    };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = evaluate(value, inputs, steps, workspace);
    const cwd = step['working-directory'] ? evaluate(step['working-directory'], inputs, steps, workspace) : workspace;
    const { code, out } = await bash(step.run ?? '', env, cwd);
    result.log += `== ${step.name}\n${out}`;
    steps[step.id ?? ''] = Object.fromEntries(
      readFileSync(outputFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    if (code !== 0) {
      failed = true;
      result.outputs.stepFailed = `${step.name}: exit ${code}`;
    }
  }
  for (const [name, output] of Object.entries(action.outputs)) result.outputs[name] = evaluate(output.value, inputs, steps, workspace);
  return result;
}

/** upload-artifact then download-artifact with merge-multiple: every artifact's files in one folder. */
function download(jobs: readonly Job[], into: string): void {
  for (const job of jobs) for (const artifact of job.uploaded) cpSync(artifact.path, into, { recursive: true });
}

const report = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;

beforeAll(async () => {
  mkdirSync(actionPath);
  for (const entry of ['action', 'action.yml', 'package.json', 'package-lock.json', 'src', 'suites', 'spec', 'vitest.config.ts', 'tsconfig.json'])
    cpSync(join(ROOT, entry), join(actionPath, entry), { recursive: true });
  // The runner's tool cache, holding this Node under a version the Action's node-version input asks for.
  const bin = join(toolCache, 'node', '20.99.0', process.arch === 'arm64' ? 'arm64' : 'x64', 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(process.execPath, join(bin, 'node'));
  // npm comes with Node: the tool cache's bin holds it too (here this machine's npm, run by that node).
  const npm = realpathSync(execFileSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  symlinkSync(npm, join(bin, 'npm'));
}, 60_000);

describe('the Action run by a simulated runner', () => {
  it('a single run: its own Node from the tool cache, run-time dependencies only, a verdict and one upload', async () => {
    const { url } = await startStandalone(`${KEY}:enterprise:100000:1000000`);
    const job = await runAction({ target: url, 'api-key': KEY, profile: 'quick', 'node-version': '20' }, { name: 'conformance' });
    expect(job.outputs.stepFailed, job.log).toBeUndefined();
    expect(job.log).toMatch(/Node for the suite: v\d+\.\d+\.\d+ \(.*toolcache\/node\/20\.99\.0\//);
    expect(readFileSync(job.githubPath, 'utf8')).toBe('');
    expect(existsSync(join(actionPath, 'node_modules', 'vitest'))).toBe(true);
    expect(existsSync(join(actionPath, 'node_modules', 'typescript'))).toBe(false);
    // The quick profile leaves some MUST untested: PARTIAL, exit 0 (require-complete would make it 1).
    expect(job.outputs.verdict).toBe('partial');
    expect(job.outputs['exit-code']).toBe('0');
    expect(job.uploaded).toHaveLength(1);
    expect(job.outputs['artifact-name']).toMatch(/^animal-store-conformance-conformance-[0-9a-f]{8}$/);
    expect(report(join(job.workspace, 'conformance-reports')).run.target.url).toBe(url);
    for (const file of readdirSync(join(job.workspace, 'conformance-reports'))) {
      if (file.endsWith('.json') || file.endsWith('.html') || file.endsWith('.xml'))
        expect(readFileSync(join(job.workspace, 'conformance-reports', file), 'utf8')).not.toContain(KEY);
    }
    expect(job.log).not.toContain(KEY);
  }, 600_000);

  it('a matrix of 3 shards, then the merge job: one report, one verdict, the whole suite', async () => {
    // The embedded reference (no target): each shard starts its own, and the thorough profile leaves no MUST untested.
    const common = { profile: 'thorough', 'node-version': '20' };
    // One after the other: on a runner each job has its own checkout, here they share one (and its npm ci).
    const shards: Job[] = [];
    for (const shard of ['1/3', '2/3', '3/3']) shards.push(await runAction({ ...common, shard }, { name: 'conformance' }));
    for (const shard of shards) {
      expect(shard.outputs.stepFailed, shard.log).toBeUndefined();
      expect(['conformant', 'partial']).toContain(shard.outputs.verdict);
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
    const merge = await runAction({ 'merge-reports': 'shards', 'node-version': '20' }, { name: 'merge', workspace });
    expect(merge.outputs.stepFailed, merge.log).toBeUndefined();
    expect(merge.outputs.verdict).toBe('conformant');
    expect(merge.log).toMatch(/Merged 3 shards of one run/);
    const merged = report(join(workspace, 'conformance-reports'));
    expect(merged.verdict.overall).toBe('conformant');
    expect(merged.run.shard).toBeUndefined();
    expect(merged.verdict.scope.mustTested).toBeGreaterThan(Math.max(...parts.map((p) => p.verdict.scope.mustTested)));
    expect(readFileSync(join(merge.githubPath, '..', 'summary.md'), 'utf8')).toMatch(/## Animal Store conformance: CONFORMANT/);
  }, 900_000);
});
