import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { rejudge } from '../../src/certificate/rejudge.ts';
import { createContract } from '../../src/contract/index.ts';
import { HAR_CHAIN_START, type Har, type HarEntry, harEntryHash, toHar } from '../../src/report/har.ts';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { notConformantRun } from './bundles.ts';
import { MADE_UP } from './logged-run.ts';

const CATALOG = loadCatalog();
const CONTRACT = createContract();

function logged(): { report: ConformanceReport; har: Har } {
  const { report, exchanges } = notConformantRun();
  return { report, har: toHar(exchanges, { name: 'animal-store-conformance', version: report.run.suiteVersion }) };
}

const differences = (report: ConformanceReport, har: Har) => rejudge(report, har, CATALOG, CONTRACT, MADE_UP).differences.join('\n');

/** What a forger without the key does after editing the log: numbers 1..N again, and the chain made anew. */
function renumbered(entries: HarEntry[]): HarEntry[] {
  let prev = HAR_CHAIN_START;
  return entries.map((entry, i) => {
    const next = { ...entry, _seq: i + 1, _prev: prev };
    prev = harEntryHash(next);
    return next;
  });
}

describe('the exchange log is one complete chain', () => {
  it('an untouched log holds: numbered 1..N, each entry naming the hash of the one before, each file 1..n', () => {
    const { report, har } = logged();
    expect(har.log.entries.map((e) => e._seq)).toEqual(har.log.entries.map((_e, i) => i + 1));
    expect(har.log.entries[0]?._prev).toBe(HAR_CHAIN_START);
    expect(differences(report, har)).toBe('');
  });

  it('deleting, inserting or moving any one entry is refused', () => {
    const { report, har } = logged();
    const entries = har.log.entries;
    const at = [0, 1, Math.floor(entries.length / 2), entries.length - 2, entries.length - 1];
    for (const i of at) {
      const entry = entries[i];
      if (!entry) throw new Error('fixture too short');
      const edits: Array<[string, HarEntry[]]> = [
        ['deleted', entries.filter((_e, k) => k !== i)],
        ['inserted', [...entries.slice(0, i), { ...entry }, ...entries.slice(i)]],
        ['moved', i + 1 < entries.length ? [...entries.slice(0, i), entries[i + 1]!, entry, ...entries.slice(i + 2)] : [entry, ...entries.slice(0, i)]],
      ];
      for (const [how, edited] of edits) {
        const text = differences(report, { log: { ...har.log, entries: edited } });
        expect(text, `#${entry._seq} ${how}`).not.toBe('');
        // Anywhere but at the end, the numbering or the chain names it.
        if (how !== 'deleted' || i < entries.length - 1)
          expect(text, `#${entry._seq} ${how}`).toMatch(/the log: (its entry \d+ is numbered|#\d+ does not name the hash)/);
      }
    }
  });

  it("an entry deleted and the log renumbered and re-chained leaves a gap in its file's own numbers", () => {
    const { report, har } = logged();
    const victim = har.log.entries[3];
    if (!victim?._file) throw new Error('fixture without file numbers');
    const text = differences(report, { log: { ...har.log, entries: renumbered(har.log.entries.filter((e) => e !== victim)) } });
    expect(text).toContain(`the log: ${victim._file} numbered`);
    expect(text).toContain(`but its #${victim._fileSeq} is not in the log`);
  });

  it('a body recorded as its bytes (not UTF-8) is read from them; bytes that do not match their sha256 are refused', () => {
    const { report, har } = logged();
    const last = har.log.entries.length - 1;
    const entry = har.log.entries[last];
    if (!entry) throw new Error('fixture without entries');
    const bytes = Buffer.from(entry.response.content.text ?? '', 'utf8');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const withBytes = (hash: string): Har => {
      const edited = {
        ...entry,
        response: { ...entry.response, content: { ...entry.response.content, text: bytes.toString('base64'), encoding: 'base64' as const, _sha256: hash } },
      };
      return { log: { ...har.log, entries: renumbered([...har.log.entries.slice(0, last), edited]) } };
    };
    expect(differences(report, withBytes(sha256))).toBe('');
    expect(differences(report, withBytes('0'.repeat(64)))).toContain(`the log: the bytes of #${entry._seq}'s body do not match their sha256`);
  });
});
