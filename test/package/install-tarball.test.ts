import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';
import { packPackage } from '../support/npm-pack.ts';

/**
 * The package as a user gets it: `npm pack` (prepack compiles a stale dist/), the tarball installed into an
 * empty directory, then the command and the library used there. The dev tools (tsx, esbuild, TypeScript)
 * are not installed: nothing at run time may lean on them. The install is offline from npm's cache when
 * it can be. Slow: about a minute (npm pack, npm install, one embedded run).
 */
const work = mkdtempSync(join(tmpdir(), 'package-install-'));
const app = join(work, 'app');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function sh(command: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 300_000, env: { ...process.env, NO_COLOR: '1' } });
}

function npmOk(args: readonly string[], cwd: string): string {
  const result = sh('npm', args, cwd);
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

let tarball = '';

beforeAll(() => {
  tarball = packPackage(work, { ...process.env, NO_COLOR: '1' });
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'empty-project', private: true, type: 'module' }));
  const install = ['install', '--no-audit', '--no-fund', '--omit=dev', tarball];
  // Offline from npm's cache when every dependency is there; a first install on a fresh machine may fetch.
  if (sh('npm', [...install, '--offline'], app).status !== 0) npmOk([...install, '--prefer-offline'], app);
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package, installed into an empty directory', () => {
  it('ships compiled JavaScript and declarations, the suites and the spec, and none of the project tests', () => {
    const listing = sh('tar', ['-tzf', tarball], work).stdout.split('\n');
    expect(listing).toContain('package/dist/bin/cli.js');
    expect(listing).toContain('package/dist/index.js');
    expect(listing).toContain('package/dist/index.d.ts');
    expect(listing).toContain('package/spec/openapi.yaml');
    expect(listing.some((f) => f.startsWith('package/suites/') && f.endsWith('.test.ts'))).toBe(true);
    expect(listing.filter((f) => f.startsWith('package/test/'))).toEqual([]);
    for (const devTool of ['tsx', 'esbuild', 'typescript']) expect(existsSync(join(app, 'node_modules', devTool)), devTool).toBe(false);
  });

  it('npx animal-store-conformance --version', () => {
    const result = sh('npx', ['animal-store-conformance', '--version'], app);
    expect(result.stdout.trim()).toBe(`animal-store-conformance ${VERSION}`);
    expect(result.status).toBe(0);
  });

  it('npx animal-store-conformance: the embedded run is CONFORMANT, reports in the project directory', () => {
    const result = sh('npx', ['animal-store-conformance', '--report-dir', 'conformance-reports'], app);
    expect(result.stdout).toMatch(/\nCONFORMANT: /);
    expect(result.status).toBe(0);
    const report = JSON.parse(readFileSync(join(app, 'conformance-reports', 'conformance.json'), 'utf8')) as { verdict: { overall: string } };
    expect(report.verdict.overall).toBe('conformant');
  }, 300_000);

  it('the library imports from a plain .mjs file: the reference starts and answers, the catalog loads', () => {
    writeFileSync(
      join(app, 'use.mjs'),
      `import { createContract, loadCatalog, startReferenceServer } from 'animal-store-conformance';
const server = await startReferenceServer({ contract: createContract(), keys: [{ key: 'k-0123456789abcdef', plan: 'pro' }] });
const response = await fetch(server.url + '/pets?limit=1', { headers: { authorization: 'Bearer k-0123456789abcdef' } });
console.log(JSON.stringify({ status: response.status, list: Array.isArray(await response.json()), requirements: loadCatalog().requirements.length }));
await server.close();
`,
    );
    const result = sh('node', ['use.mjs'], app);
    expect(result.stderr).toBe('');
    const out = JSON.parse(result.stdout) as { status: number; list: boolean; requirements: number };
    expect(out.status).toBe(200);
    expect(out.list).toBe(true);
    expect(out.requirements).toBeGreaterThan(50);
  });
});
