import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.ts';

/**
 * action/node.sh, the Action's choice of the Node the suite runs on, without internet: a fake runner tool
 * cache, and a fake `curl` first on PATH that serves a fixture release index and fixture tarballs (each
 * holding a `node` that prints its version) and logs every address asked.
 */
const work = mkdtempSync(join(tmpdir(), 'action-node-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const ARCH = process.arch === 'arm64' ? 'arm64' : 'x64';
const toolCache = join(work, 'toolcache');
const fixtures = join(work, 'fixtures');
const fakeBin = join(work, 'fake-bin');
const curlLog = join(work, 'curl.log');

/** A `node` that only answers --version, as the script asks it. */
function fakeNode(dir: string, version: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'node'), `#!/bin/sh\necho ${version}\n`);
  chmodSync(join(dir, 'node'), 0o755);
}

const RELEASES: ReadonlyArray<[string, string | false]> = [
  ['v25.1.0', false],
  ['v24.11.0', 'Krypton'],
  ['v22.20.0', 'Jod'],
  ['v20.19.5', 'Iron'],
  ['v20.18.1', 'Iron'],
  ['v20.10.0', 'Iron'],
  ['v18.20.0', 'Hydrogen'],
];

mkdirSync(fixtures, { recursive: true });
// As nodejs.org writes it: one release a line, files and other fields between version and lts.
writeFileSync(
  join(fixtures, 'index.json'),
  `[\n${RELEASES.map(([version, lts]) => JSON.stringify({ version, date: '2025-01-01', files: ['linux-x64', 'osx-arm64-tar'], npm: '10.0.0', lts, security: false })).join(',\n')}\n]\n`,
);
// Downloadable: 25.1.0 and 22.20.0; 20.19.5 is not (its download fails).
for (const version of ['v25.1.0', 'v22.20.0']) {
  const name = `node-${version}-linux-${ARCH}`;
  fakeNode(join(work, 'tar', name, 'bin'), version);
  spawnSync('tar', ['-cJf', join(fixtures, `${name}.tar.xz`), '-C', join(work, 'tar'), name]);
}
// The tool cache: 20.18.1 and 20.10.0 (too old for the suite) and 24.11.0.
for (const version of ['20.18.1', '20.10.0', '24.11.0']) fakeNode(join(toolCache, 'node', version, ARCH, 'bin'), `v${version}`);
mkdirSync(fakeBin, { recursive: true });
writeFileSync(
  join(fakeBin, 'curl'),
  `#!/bin/bash
url="\${@: -1}"
echo "$url" >> "${curlLog}"
case "$url" in
  https://nodejs.org/dist/index.json) if [ -n "\${INDEX_DOWN:-}" ]; then exit 7; fi; cat "${fixtures}/index.json" ;;
  https://nodejs.org/dist/v*/*.tar.xz) f="${fixtures}/\${url##*/}"; if [ -f "$f" ]; then cat "$f"; else exit 22; fi ;;
  *) exit 6 ;;
esac
`,
);
chmodSync(join(fakeBin, 'curl'), 0o755);

interface Resolution {
  code: number | null;
  out: string;
  bin: string | undefined;
  fetched: string[];
}

function resolveNode(asked: string, options: { pathFirst?: string; env?: Record<string, string> } = {}): Resolution {
  const temp = mkdtempSync(join(work, 'runner-temp-'));
  const output = join(temp, 'output');
  writeFileSync(output, '');
  writeFileSync(curlLog, '');
  const path = [options.pathFirst, fakeBin, '/usr/bin', '/bin'].filter(Boolean).join(':');
  const result = spawnSync('bash', ['-e', '-c', `bash "${join(ROOT, 'action', 'node.sh')}"`], {
    encoding: 'utf8',
    env: { PATH: path, HOME: work, RUNNER_TEMP: temp, RUNNER_TOOL_CACHE: toolCache, GITHUB_OUTPUT: output, INPUT_NODE_VERSION: asked, ...options.env },
  });
  const bin = /^bin=(.*)$/m.exec(readFileSync(output, 'utf8'))?.[1];
  const fetched = existsSync(curlLog) ? readFileSync(curlLog, 'utf8').split('\n').filter(Boolean) : [];
  return { code: result.status, out: result.stdout + result.stderr, bin, fetched };
}

const cachedBin = (version: string) => join(toolCache, 'node', version, ARCH, 'bin');

describe("action/node.sh: node-version in setup-node's syntax, from the tool cache or the release index", () => {
  it.each(['20', '20.x', '20.18', '20.18.x', 'v20.18.1', ' 20 '])('%j: the newest recent-enough cached 20 (20.18.1), without asking the index', (asked) => {
    const result = resolveNode(asked);
    expect(result.code, result.out).toBe(0);
    expect(result.bin).toBe(cachedBin('20.18.1'));
    expect(result.out).toContain('Node for the suite: v20.18.1');
    expect(result.fetched).toEqual([]);
  });

  it('lts/*: the newest LTS of the index (24.11.0), taken from the tool cache when it holds it', () => {
    const result = resolveNode('lts/*');
    expect(result.code, result.out).toBe(0);
    expect(result.bin).toBe(cachedBin('24.11.0'));
    expect(result.fetched).toEqual(['https://nodejs.org/dist/index.json']);
  });

  it.each(['latest', 'current', 'node'])('%s: the newest release (25.1.0), downloaded into RUNNER_TEMP', (asked) => {
    const result = resolveNode(asked);
    expect(result.code, result.out).toBe(0);
    expect(result.bin).toMatch(/animal-store-conformance-node-25\.1\.0\/bin$/);
    expect(result.out).toContain('Node for the suite: v25.1.0');
    expect(result.fetched).toEqual(['https://nodejs.org/dist/index.json', `https://nodejs.org/dist/v25.1.0/node-v25.1.0-linux-${ARCH}.tar.xz`]);
  });

  it('22 (not cached): the newest 22 of the index, downloaded; lts/jod names the same line', () => {
    for (const asked of ['22', 'lts/jod', 'lts/Jod']) {
      const result = resolveNode(asked);
      expect(result.code, result.out).toBe(0);
      expect(result.bin).toMatch(/animal-store-conformance-node-22\.20\.0\/bin$/);
    }
  });

  it("runner or empty: the runner's own node when it is 20.18 or later", () => {
    const own = join(work, 'runner-node-ok');
    fakeNode(own, 'v20.18.1');
    for (const asked of ['runner', '']) {
      const result = resolveNode(asked, { pathFirst: own });
      expect(result.code, result.out).toBe(0);
      expect(result.bin).toBe(own);
      expect(result.fetched).toEqual([]);
    }
  });

  it.each([
    ['18', /::error::node-version '18': no Node release \(of 20\.18\.0 or later\)/],
    ['20.10', /::error::node-version '20\.10': no Node release \(of 20\.18\.0 or later\)/],
    ['23', /::error::node-version '23': no Node release/],
    ['banana', /::error::node-version 'banana': not a version/],
    ['lts/argon', /::error::node-version 'lts\/argon': no Node release/],
    ['lts/iron', /::error::node-version 'lts\/iron': could not download and unpack https:\/\/nodejs\.org\/dist\/v20\.19\.5\//],
  ])('%j fails with the reason in a ::error:: line, exit 1', (asked, message) => {
    const result = resolveNode(asked);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(message);
    expect(result.bin).toBeUndefined();
  });

  it('an unreachable index, or a runner node older than 20.18, fails with its reason', () => {
    const down = resolveNode('22', { env: { INDEX_DOWN: '1' } });
    expect(down.code).toBe(1);
    expect(down.out).toMatch(/::error::node-version '22': could not read the release index https:\/\/nodejs\.org\/dist\/index\.json \(curl exited 7\)/);
    const old = join(work, 'runner-node-old');
    fakeNode(old, 'v18.19.0');
    const result = resolveNode('runner', { pathFirst: old });
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/::error::node-version 'runner': the suite needs Node 20\.18\.0 or later, .* is v18\.19\.0/);
  });
});
