import { readFileSync } from 'node:fs';

/** A suite file's part of a run, from its exchange log: when its first request went and its last answer came. */
export interface FileSpan {
  file: string;
  firstMs: number;
  lastMs: number;
  requests: number;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  _file?: string;
}

/** Each suite file's span in the run's exchanges.har, in milliseconds after `launchedAt` (epoch ms), in the order the files started. */
export function fileSpans(harPath: string, launchedAt: number): FileSpan[] {
  const entries = (JSON.parse(readFileSync(harPath, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
  const spans = new Map<string, FileSpan>();
  for (const entry of entries) {
    const file = entry._file ?? '(no file)';
    const start = Date.parse(entry.startedDateTime) - launchedAt;
    const end = start + entry.time;
    const span = spans.get(file);
    if (!span) spans.set(file, { file, firstMs: start, lastMs: end, requests: 1 });
    else {
      span.firstMs = Math.min(span.firstMs, start);
      span.lastMs = Math.max(span.lastMs, end);
      span.requests += 1;
    }
  }
  return [...spans.values()].sort((a, b) => a.firstMs - b.firstMs);
}

/**
 * The spans as a table with a bar per file over the run (one character per `stepMs`): files side by side
 * show which worker slept while which computed, and what ran alone at the end.
 */
export function spanRows(spans: readonly FileSpan[], exitMs: number, stepMs = 100): string[] {
  const width = Math.ceil(exitMs / stepMs);
  const rows = [`| file | requests | first → last (ms after launch) | one character: ${stepMs} ms |`, '|---|---|---|---|'];
  for (const span of spans) {
    const from = Math.floor(span.firstMs / stepMs);
    const to = Math.max(from + 1, Math.ceil(span.lastMs / stepMs));
    const bar = `${'·'.repeat(from)}${'█'.repeat(to - from)}${'·'.repeat(Math.max(0, width - to))}`;
    rows.push(`| ${span.file} | ${span.requests} | ${Math.round(span.firstMs)} → ${Math.round(span.lastMs)} | \`${bar}\` |`);
  }
  return rows;
}
