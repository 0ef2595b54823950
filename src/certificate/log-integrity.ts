import { LIST_BODY_CHARS } from '../client/record.ts';
import { RECORDED_BODY_CHARS } from '../client/redact.ts';
import { HAR_CHAIN_START } from '../report/har.ts';
import type { RecordedEntry } from './rejudge-har.ts';

/**
 * Where the log is not one complete record of the run: its numbers run 1..N in the order of the log,
 * each entry names the hash of the one before (so an entry deleted, inserted or moved breaks the chain
 * there), each test file's own numbers run 1..n (a shard's blob that lost an exchange leaves a gap the
 * run's numbering would otherwise close), a body's bytes match their hash, and a body marked cut is
 * proven cut: its size on the wire is above what the log kept, and the log kept all it keeps.
 */
export function logIntegrityProblems(entries: readonly RecordedEntry[]): string[] {
  const problems: string[] = [];
  let prev = HAR_CHAIN_START;
  for (const [index, entry] of entries.entries()) {
    if (entry.seq !== index + 1) {
      problems.push(`the log: its entry ${index + 1} is numbered #${entry.seq}: a log numbers its exchanges 1..N, none left out, in order`);
      break;
    }
    if (entry.prev !== prev) {
      problems.push(`the log: #${entry.seq} does not name the hash of the entry before it: an entry was removed, inserted, moved or edited`);
      break;
    }
    prev = entry.hash;
  }
  problems.push(...fileGaps(entries));
  for (const entry of entries) {
    if (entry.bodyInexact) problems.push(`the log: the bytes of #${entry.seq}'s body do not match their sha256`);
    const cut = cutProblem(entry);
    if (cut) problems.push(`the log: #${entry.seq} is marked cut, but ${cut}`);
  }
  return problems;
}

/** Each file's own numbers, 1..n with none missing and none twice. */
function fileGaps(entries: readonly RecordedEntry[]): string[] {
  const byFile = new Map<string, number[]>();
  for (const entry of entries) {
    if (entry.file === undefined || entry.fileSeq === undefined)
      return [`the log: #${entry.seq} does not name the test file that sent it and its number there`];
    byFile.set(entry.file, [...(byFile.get(entry.file) ?? []), entry.fileSeq]);
  }
  const problems: string[] = [];
  for (const [file, seqs] of byFile) {
    // Concurrent requests of one file may start in the same millisecond: the numbers, not their order.
    const sorted = [...seqs].sort((a, b) => a - b);
    const gap = sorted.findIndex((seq, i) => seq !== i + 1);
    if (gap >= 0) problems.push(`the log: ${file} numbered ${sorted.length} exchanges, but its #${gap + 1} is not in the log (it holds #${sorted[gap]} there)`);
  }
  return problems;
}

/** Why a body marked cut is not proven cut, if it is not. */
function cutProblem(entry: RecordedEntry): string | undefined {
  if (!entry.bodyCut) return undefined;
  const kept = entry.bytes ? entry.bytes.length : Buffer.byteLength(entry.text);
  if (!(entry.size > kept)) return `its size on the wire (${entry.size} bytes) is not above the ${kept} bytes the log kept`;
  // The client cuts at a fixed length (a surrogate pair or redaction may take a character or a few).
  const cap = entry.operationId === 'listPets' ? LIST_BODY_CHARS : RECORDED_BODY_CHARS;
  const length = entry.bytes ? entry.bytes.length : entry.text.length;
  if (length < cap - 1) return `its body is shorter than the cut (${length} of ${cap})`;
  return undefined;
}
