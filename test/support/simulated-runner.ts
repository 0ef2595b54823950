import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './cli.ts';

/**
 * A simulated GitHub runner for action.yml: the composite steps in order, their scripts run by bash as
 * the runner would, with the GITHUB_* variables of a (matrix) job, the job's own env on every step, the
 * uploads recorded. test/verdicts/cli/action.test.ts and the slow tests of test/package/ share it.
 */
export interface ActionStep {
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
export interface ActionDefinition {
  inputs: Record<string, { required?: boolean; default?: string; description: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionDefinition;

export interface ActionJob {
  workspace: string;
  outputs: Record<string, string>;
  log: string;
  uploaded: Array<{ name: string; path: string }>;
  githubPath: string;
}

export interface JobOptions {
  name: string;
  workspace?: string;
  runId?: string;
  /** The job's env: (the workflow's or the job's `env:`), given to every step as a runner does. */
  env?: Record<string, string>;
}

export interface SimulatedRunner {
  /** The Action's checkout: a copy of what the repository holds, so its npm ci never touches this one. */
  actionPath: string;
  runAction(inputs: Record<string, string>, job: JobOptions): Promise<ActionJob>;
}

/** What a checkout of the Action's repository holds of the suite (no dist/, no node_modules). */
const CHECKOUT = [
  'action',
  'action.yml',
  'package.json',
  'package-lock.json',
  'scripts',
  'src',
  'suites',
  'spec',
  'vitest.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
];

/**
 * A runner in `work`: the Action checked out there, and a tool cache holding this Node as 20.99.0. Its
 * jobs share that one checkout, so its install step runs once: the first job to reach it installs (npm ci,
 * the build, the prune: 25-55 s of two busy cores), and every later job waits for that install and, once
 * it succeeded, goes on with it. On a hosted runner each job installs a checkout of its own; here the
 * first job shows what that install leaves, and installing the same checkout again shows nothing more.
 */
export function simulatedRunner(work: string): SimulatedRunner {
  const actionPath = join(work, 'action-checkout');
  const toolCache = join(work, 'toolcache');
  mkdirSync(actionPath);
  for (const entry of CHECKOUT) cpSync(join(ROOT, entry), join(actionPath, entry), { recursive: true });
  const bin = join(toolCache, 'node', '20.99.0', process.arch === 'arm64' ? 'arm64' : 'x64', 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(process.execPath, join(bin, 'node'));
  // npm comes with Node: the tool cache's bin holds it too (here this machine's npm, run by that node).
  const npm = realpathSync(execFileSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  symlinkSync(npm, join(bin, 'npm'));
  const install: InstallState = {};
  return { actionPath, runAction: (inputs, job) => runAction({ work, actionPath, toolCache, install }, inputs, job) };
}

/** upload-artifact then download-artifact with merge-multiple: every artifact's files in one folder. */
export function download(jobs: readonly ActionJob[], into: string): void {
  for (const job of jobs) for (const artifact of job.uploaded) cpSync(artifact.path, into, { recursive: true });
}

interface Places {
  work: string;
  actionPath: string;
  toolCache: string;
  install: InstallState;
}

type StepResult = { code: number | null; out: string };

/** The runner's install of its checkout: the first job's, under way or done. */
interface InstallState {
  done?: Promise<StepResult>;
}

/** The step that installs the checkout (npm ci, the build, the prune). */
const isInstallStep = (step: ActionStep) => /\/action\/install\.sh"?$/.test(step.run ?? '');

/** The install step, run by the first job that reaches it; a later job reuses a successful install, or tries again after a failed one. */
async function installOnce(install: InstallState, run: () => Promise<StepResult>): Promise<StepResult> {
  // No await before `done` is set: jobs started side by side still install once.
  const earlier = install.done && (await install.done);
  if (earlier?.code === 0) return { code: 0, out: 'installed by an earlier job of this runner (its jobs share one checkout)\n' };
  install.done = run();
  return install.done;
}

function evaluate(text: string, places: Places, inputs: Record<string, string>, steps: Record<string, Record<string, string>>, workspace: string): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input) return inputs[input[1] as string] ?? action.inputs[input[1] as string]?.default ?? '';
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output) return steps[output[1] as string]?.[output[2] as string] ?? '';
    if (expression === 'github.action_path') return places.actionPath;
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

function bash(script: string, env: Record<string, string>, cwd: string): Promise<StepResult> {
  const child = spawn('bash', ['-e', '-c', script], { cwd, env });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

/** One job's use of the Action: each step as the runner runs it. */
async function runAction(places: Places, inputs: Record<string, string>, job: JobOptions): Promise<ActionJob> {
  const workspace = job.workspace ?? mkdtempSync(join(places.work, 'ws-'));
  const temp = mkdtempSync(join(places.work, 'runner-temp-'));
  const githubPath = join(temp, 'github-path');
  writeFileSync(githubPath, '');
  const steps: Record<string, Record<string, string>> = {};
  const result: ActionJob = { workspace, outputs: {}, log: '', uploaded: [], githubPath };
  let failed = false;
  for (const step of action.runs.steps) {
    if (!runCondition(step.if, steps) || (failed && step.if === undefined)) continue;
    if (step.uses) {
      if (step.uses.startsWith('actions/upload-artifact@')) {
        const name = evaluate(String(step.with?.name), places, inputs, steps, workspace);
        const path = evaluate(String(step.with?.path), places, inputs, steps, workspace);
        result.uploaded.push({ name, path });
      }
      continue;
    }
    const outputFile = join(temp, `output-${step.id ?? 'step'}`);
    writeFileSync(outputFile, '');
    const env: Record<string, string> = {
      PATH: '/usr/bin:/bin',
      HOME: process.env.HOME ?? '',
      ...job.env,
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: places.actionPath,
      GITHUB_OUTPUT: outputFile,
      GITHUB_PATH: githubPath,
      GITHUB_STEP_SUMMARY: join(temp, 'summary.md'),
      GITHUB_JOB: job.name,
      GITHUB_RUN_ID: job.runId ?? '31415926535',
      RUNNER_TEMP: temp,
      RUNNER_TOOL_CACHE: places.toolCache,
      npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? '', '.npm'),
    };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = evaluate(value, places, inputs, steps, workspace);
    const cwd = step['working-directory'] ? evaluate(step['working-directory'], places, inputs, steps, workspace) : workspace;
    const runStep = () => bash(step.run ?? '', env, cwd);
    const { code, out } = isInstallStep(step) ? await installOnce(places.install, runStep) : await runStep();
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
  for (const [name, output] of Object.entries(action.outputs)) result.outputs[name] = evaluate(output.value, places, inputs, steps, workspace);
  return result;
}
