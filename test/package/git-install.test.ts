import { type SpawnSyncReturns, execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

/**
 * The package installed from git, as `npm install git+https://…` does it: npm clones, installs the dev
 * dependencies there, runs `prepare` (never `prepack`), packs and installs the result. The repository
 * here is a fresh git repository of this working tree's files (tracked and new, not ignored: no dist/).
 * Slow: about a minute and a half (an npm install with dev dependencies, from npm's cache when it can).
 */
const work = mkdtempSync(join(tmpdir(), 'package-git-install-'));
const repo = join(work, 'repo');
const app = join(work, 'app');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function sh(command: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 600_000, env: { ...process.env, NO_COLOR: '1' } });
}

beforeAll(() => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0');
  for (const file of files.filter((f) => f && existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    cpSync(join(ROOT, file), join(repo, file));
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { cwd: repo });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'the working tree');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'empty-project', private: true, type: 'module' }));
  const install = sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `git+file://${repo}`], app);
  if (install.status !== 0) throw new Error(`npm install git+file:// exited ${install.status}:\n${install.stdout}\n${install.stderr}`);
}, 900_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the package installed from git (npm install git+…)', () => {
  it('has its compiled dist/, and none of the dev tools (tsx, esbuild, TypeScript)', () => {
    const installed = join(app, 'node_modules', 'animal-store-conformance');
    expect(existsSync(join(installed, 'dist', 'bin', 'cli.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'index.js'))).toBe(true);
    for (const devTool of ['tsx', 'esbuild', 'typescript']) expect(existsSync(join(app, 'node_modules', devTool)), devTool).toBe(false);
  });

  it('npx animal-store-conformance --version', () => {
    const result = sh('npx', ['animal-store-conformance', '--version'], app);
    expect(result.stdout.trim()).toBe(`animal-store-conformance ${VERSION}`);
    expect(result.status).toBe(0);
  });

  it('an embedded quick run of the auth area: PARTIAL, exit 0, its report written', () => {
    const result = sh('npx', ['animal-store-conformance', '--profile', 'quick', '--only', 'auth', '--report-dir', 'reports'], app);
    expect(result.stdout).toMatch(/\nPARTIAL: /);
    expect(result.status).toBe(0);
    const report = JSON.parse(readFileSync(join(app, 'reports', 'conformance.json'), 'utf8')) as { verdict: { overall: string } };
    expect(report.verdict.overall).toBe('partial');
  }, 300_000);

  it('the library imports', () => {
    const result = sh(
      'node',
      ['--input-type=module', '-e', "import { loadCatalog } from 'animal-store-conformance'; console.log(loadCatalog().requirements.length)"],
      app,
    );
    expect(result.stderr).toBe('');
    expect(Number(result.stdout)).toBeGreaterThan(50);
  });
});
