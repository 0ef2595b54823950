import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE } from '../../src/certificate/index.ts';
import { runRejudge } from '../../src/cli/rejudge-command.ts';
import { copyBundle, notConformantBundle } from './bundles.ts';

/** rejudge refuses a summarised entry where every exchange is logged whole, as verify does (issue 48 item 5). */
describe('rejudge and summarised entries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rejudge-summarised-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const MESSAGE = 'entries of the log are marked summarised: a bundle, a shard and a merge log every exchange whole';

  const summarisedCopy = (label: string) => {
    const copy = copyBundle(notConformantBundle(dir, undefined), dir, label);
    const path = join(copy, 'exchanges.har');
    const har = JSON.parse(readFileSync(path, 'utf8')) as { log: { entries: Array<Record<string, unknown>> } };
    const [first] = har.log.entries;
    if (first) first._summarised = true;
    writeFileSync(path, JSON.stringify(har));
    return copy;
  };
  const differences = (at: string) => {
    const lines: string[] = [];
    const code = runRejudge([at, '--format', 'json'], (line) => lines.push(line));
    return { code, differences: (JSON.parse(lines.join('\n')) as { differences: string[] }).differences };
  };

  it('a bundle with an entry marked summarised is refused, naming it', () => {
    const { code, differences: found } = differences(summarisedCopy('bundle'));
    expect(code).toBe(1);
    expect(found[0]).toBe(`1 ${MESSAGE}`);
  });

  it("a plain run's report directory summarises passing tests' exchanges: not refused for that", () => {
    const plain = summarisedCopy('report-dir');
    rmSync(join(plain, MANIFEST_FILE));
    expect(differences(plain).differences.some((d) => d.includes(MESSAGE))).toBe(false);
  });
});
