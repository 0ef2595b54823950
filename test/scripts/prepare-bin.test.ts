import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

/**
 * npm's `prepare` (scripts/prepare.mjs) leaves the package's bin runnable. npx links a clone's bin, and so
 * makes it runnable, only the first time it meets the clone's path; a CI checkout cloned and built again
 * at that path ran into 'Permission denied'. The script runs here on a project of two small sources, with
 * this checkout's TypeScript: the build is real and takes a second or two.
 */
const work = mkdtempSync(join(tmpdir(), 'package-prepare-bin-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function project(): { root: string; entry: string; prepare: () => ReturnType<typeof spawnSync> } {
  const root = mkdtempSync(join(work, 'project-'));
  mkdirSync(join(root, 'scripts'));
  cpSync(join(ROOT, 'scripts', 'prepare.mjs'), join(root, 'scripts', 'prepare.mjs'));
  cpSync(join(ROOT, 'tsconfig.json'), join(root, 'tsconfig.json'));
  cpSync(join(ROOT, 'tsconfig.build.json'), join(root, 'tsconfig.build.json'));
  mkdirSync(join(root, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules', 'typescript'), join(root, 'node_modules', 'typescript'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', '@types'), join(root, 'node_modules', '@types'), 'dir');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'prepared', type: 'module', bin: { prepared: './dist/bin/cli.js' } }));
  mkdirSync(join(root, 'src', 'bin'), { recursive: true });
  writeFileSync(join(root, 'src', 'greeting.ts'), "export const greeting: string = 'ready';\n");
  writeFileSync(join(root, 'src', 'bin', 'cli.ts'), "#!/usr/bin/env node\nimport { greeting } from '../greeting.ts';\nconsole.log(greeting);\n");
  const entry = join(root, 'dist', 'bin', 'cli.js');
  const prepare = () => spawnSync(process.execPath, [join(root, 'scripts', 'prepare.mjs')], { cwd: root, encoding: 'utf8' });
  return { root, entry, prepare };
}

const runnable = (path: string) => (statSync(path).mode & 0o111) === 0o111;

it('a build leaves the bin runnable, and one up to date gives back a bit a fresh checkout lost', () => {
  const { entry, prepare } = project();
  const built = prepare();
  expect(built.status, `${built.stdout}${built.stderr}`).toBe(0);
  expect(runnable(entry)).toBe(true);
  expect(spawnSync(entry, [], { encoding: 'utf8' }).stdout.trim()).toBe('ready');

  chmodSync(entry, 0o644);
  const again = prepare();
  expect(again.status, `${again.stdout}${again.stderr}`).toBe(0);
  expect(runnable(entry)).toBe(true);
}, 60_000);
