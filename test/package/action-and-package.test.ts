import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { packPackage } from '../support/npm-pack.ts';
import { simulatedRunner } from '../support/simulated-runner.ts';

/**
 * One commit, two forms, one suite: the Action (its scripts run by the simulated runner: its install, its
 * dist/) and the packed package installed into an empty project certify the same suite, so each verifies
 * the other's signed bundle. The Action's run is made in a hostile job: the job's env names PLAN, ONLY and
 * PROFILE, and the workspace holds a .env narrowing the run; none of it may reach the run.
 * Slow: about four minutes (npm pack and install, the Action's npm ci, two thorough runs).
 */
const work = mkdtempSync(join(tmpdir(), 'action-and-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const app = join(work, 'app');
const keys = join(work, 'keys');
const runner = simulatedRunner(work);

function sh(command: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: 600_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
  });
}
function ok(command: string, args: readonly string[], cwd: string): string {
  const result = sh(command, args, cwd);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}
const report = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;

beforeAll(() => {
  const packed = packPackage(work, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' });
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'empty-project', private: true, type: 'module' }));
  ok('npm', ['install', '--no-audit', '--no-fund', '--omit=dev', '--prefer-offline', packed], app);
  ok('npx', ['animal-store-conformance', 'keygen', keys], app);
}, 900_000);

describe('the Action and the packed package of one commit', () => {
  let actionBundle = '';
  let actionJob: Awaited<ReturnType<typeof runner.runAction>> | undefined;

  it("the Action's certified run, in a job whose env and .env name PLAN, ONLY and PROFILE: complete and unchanged", async () => {
    const workspace = mkdtempSync(join(work, 'ws-'));
    writeFileSync(join(workspace, '.env'), 'ONLY=deprecation\nPROFILE=quick\nPLAN=x\nREAD_ONLY=true\n');
    mkdirSync(join(workspace, 'keys'));
    writeFileSync(join(workspace, 'keys', 'sign-key.pem'), readFileSync(join(keys, 'sign-key.pem')));
    actionJob = await runner.runAction(
      { profile: 'thorough', certify: 'bundle', 'sign-key': 'keys/sign-key.pem', 'node-version': '20' },
      { name: 'certify', workspace, env: { PLAN: 'x', ONLY: 'deprecation', PROFILE: 'quick', READ_ONLY: 'true', STRICT: 'true' } },
    );
    expect(actionJob.outputs.stepFailed, actionJob.log).toBeUndefined();
    expect(actionJob.outputs.verdict).toBe('conformant');
    expect(actionJob.outputs.gate).toBe('pass');
    const run = report(join(workspace, 'conformance-reports'));
    expect(run.run.profile).toBe('thorough');
    expect(run.run.only ?? []).toEqual([]);
    expect(run.run.strict).toBe(false);
    expect(run.run.readOnly).toBe(false);
    expect(run.verdict.scope.mustTested).toBe(run.verdict.scope.mustInScope);
    actionBundle = join(workspace, 'bundle');
  }, 900_000);

  it("the packed package verifies the Action's bundle", () => {
    expect(actionBundle).not.toBe('');
    const result = sh('npx', ['animal-store-conformance', 'verify', actionBundle, '--public-key', join(keys, 'sign-key.pub.pem')], app);
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it("the Action's install verifies the packed package's bundle", () => {
    ok(
      'npx',
      ['animal-store-conformance', '--profile', 'thorough', '--certify', 'bundle', '--sign-key', join(keys, 'sign-key.pem'), '--report-dir', 'reports'],
      app,
    );
    const result = sh(
      process.execPath,
      [join(runner.actionPath, 'dist', 'bin', 'cli.js'), 'verify', join(app, 'bundle'), '--public-key', join(keys, 'sign-key.pub.pem')],
      work,
    );
    expect(result.status, result.stdout + result.stderr).toBe(0);
  }, 600_000);
});
