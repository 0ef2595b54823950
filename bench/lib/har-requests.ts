import { readFileSync } from 'node:fs';

/** One request of a run, as its exchange log's curl line gives it back: what the lean harness replays. */
export interface ReplayedRequest {
  method: string;
  /** Path and query below the target's origin, e.g. /v1/pets?limit=1. */
  path: string;
  body?: string;
  operationId: string | undefined;
}

/** What the bench reads of a run's exchanges.har: its requests, and when the first was sent and the last answered. */
export interface RunTraffic {
  requests: ReplayedRequest[];
  /** Epoch ms of the first request sent. */
  firstMs: number;
  /** Epoch ms of the last response's end. */
  lastMs: number;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string };
  _curl?: string;
  _operationId?: string;
}

export function readRunTraffic(harPath: string): RunTraffic {
  const entries = (JSON.parse(readFileSync(harPath, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
  const starts = entries.map((e) => Date.parse(e.startedDateTime));
  return {
    requests: entries.map(replayed),
    firstMs: Math.min(...starts),
    lastMs: Math.max(...entries.map((e, i) => (starts[i] ?? 0) + e.time)),
  };
}

/** The request from its curl line (the HAR keeps bodies only of failures); the HAR's own method and URL otherwise. */
function replayed(entry: HarEntry): ReplayedRequest {
  const words = entry._curl ? shellWords(entry._curl) : [];
  const dataAt = words.findIndex((w) => w === '--data-raw' || w === '--data-binary' || w === '-d');
  const body = dataAt === -1 ? undefined : words[dataAt + 1];
  const url = new URL(entry.request.url);
  return { method: entry.request.method, path: url.pathname + url.search, ...(body === undefined ? {} : { body }), operationId: entry._operationId };
}

/** Splits a POSIX shell line into words: single quotes, double quotes (with backslash escapes) and backslashes. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] as string;
    if (c === ' ') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end === -1 ? line.length : end);
      i = end === -1 ? line.length : end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j += 1) word += line[j] === '\\' ? (line[++j] ?? '') : line[j];
      i = j;
    } else if (c === '\\') {
      word += line[i + 1] ?? '';
      i += 1;
    } else word += c;
  }
  if (inWord) words.push(word);
  return words;
}
