import { createHash } from 'node:crypto';
import type { CheckContext } from '../checks/check-types.ts';
import type { Contract } from '../contract/index.ts';
import { type JsonReading, readJson, readJsonBytes } from '../text/json.ts';
import { isRecord } from './strict-json.ts';
import { harEntryHash } from '../report/har.ts';
import { type WireRecord, readWireRecord } from '../text/wire-record.ts';
import { loggedConnection } from './logged-connection.ts';

/** One HAR entry as rejudge reads it: what a check sees, what the counts and the timing need. */
export interface RecordedEntry {
  seq: number;
  startedAt: number;
  durationMs: number;
  operationId: string | undefined;
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The request body as recorded (postData): the harness's rules read the same recorded text. */
  requestText: string | undefined;
  /** The body was cut for the report: checks that read it cannot be re-run. */
  bodyCut: boolean;
  /**
   * The body's bytes do not match their recorded sha256: the log does not hold it exactly, so nothing
   * that reads it is re-run. A body recorded as text was UTF-8 on the wire (one that was not is
   * recorded as its bytes, `bytes`), so a U+FFFD in it is a character the target sent.
   */
  bodyInexact: boolean;
  /** The bytes of a body that was not UTF-8 (HAR `encoding: base64`): read as the client read them. */
  bytes?: Buffer;
  /** The body's size on the wire (HAR `content.size`): a cut is proven only when it is above what the log kept. */
  size: number;
  /** A cut list: how many items the whole list held, as recorded (`content._items`). */
  items?: number;
  /** The test file that sent it and that file's number for it. */
  file?: string;
  fileSeq?: number;
  /** The hash of the entry before, as the entry states it (`_prev`), and the entry's own hash. */
  prev?: string;
  hash: string;
  /** The framing probe's own exchange: no always-on check ran on it. */
  raw: boolean;
  /** The framing probe's: what it heard after the response (absent when not recorded, or not as this suite writes it). */
  heardAfter?: { bytes: number; closed: boolean };
  /** A raw probe's record of the wire (HTTP-001, HTTP-002), when it holds one as this suite writes it. */
  wire?: WireRecord;
  /** What the client's connections did before this response (stray bytes, a retried drop), as the checks read it. */
  connection?: Pick<CheckContext, 'strayBefore' | 'droppedBefore'>;
  /**
   * Redaction changed what the log keeps of the answer (`response._redacted`): the checks read it as it
   * is, and the report says where that differs from what the run saw (a test's `unprovable`).
   */
  redacted: boolean;
  /** Headers and body left out: no check can be re-run on it. */
  summarised: boolean;
  /** A transport failure: no response. */
  transportError: boolean;
  /** Paced 429s waited out before the answer (the entry's comment). */
  retries: number;
  /** The shell variable the entry's curl line reads its key from (API_KEY, FREE_PLAN_KEY, …), when it sent one. */
  keyVariable?: string;
}

/**
 * The entries of an exchange log (HAR 1.2 as src/report/har.ts writes it), or the reason it cannot be
 * read. Every entry must carry the suite's own fields (`_seq`, a time, a status): a log edited into
 * another shape is refused, never read around.
 */
export function readHarEntries(har: unknown): { entries: RecordedEntry[] } | { problem: string } {
  const log = isRecord(har) && isRecord(har.log) ? har.log : undefined;
  if (!log || !Array.isArray(log.entries)) return { problem: 'the exchange log is not a HAR log with entries' };
  const entries: RecordedEntry[] = [];
  for (const [index, value] of log.entries.entries()) {
    const entry = recordedEntry(value);
    if (!entry) return { problem: `HAR entry ${index + 1} is not an entry of this suite's log (no _seq, time, request or response)` };
    entries.push(entry);
  }
  return { entries };
}

function recordedEntry(value: unknown): RecordedEntry | undefined {
  if (!isRecord(value) || !isRecord(value.request) || !isRecord(value.response)) return undefined;
  const { request, response } = value;
  const content = isRecord(response.content) ? response.content : {};
  const seq = value._seq;
  const startedAt = typeof value.startedDateTime === 'string' ? Date.parse(value.startedDateTime) : NaN;
  if (!Number.isInteger(seq) || !Number.isFinite(startedAt) || typeof value.time !== 'number' || typeof response.status !== 'number') return undefined;
  const headers: Record<string, string> = {};
  for (const pair of Array.isArray(response.headers) ? response.headers : []) {
    if (isRecord(pair) && typeof pair.name === 'string' && typeof pair.value === 'string') headers[pair.name] = pair.value;
  }
  const keyVariable = typeof value._curl === 'string' ? /"authorization: Bearer \$([A-Z_]+)"/i.exec(value._curl)?.[1] : undefined;
  const retried = typeof value.comment === 'string' ? /^answered after (\d+) paced 429/.exec(value.comment) : null;
  const heard = value._heardAfter;
  const bytes = content.encoding === 'base64' && typeof content.text === 'string' ? Buffer.from(content.text, 'base64') : undefined;
  const heardAfter =
    isRecord(heard) && Number.isSafeInteger(heard.bytes) && (heard.bytes as number) >= 0 && typeof heard.closed === 'boolean'
      ? { bytes: heard.bytes as number, closed: heard.closed }
      : undefined;
  return {
    seq: seq as number,
    startedAt,
    durationMs: value.time,
    operationId: typeof value._operationId === 'string' ? value._operationId : undefined,
    method: typeof request.method === 'string' ? request.method : '',
    url: typeof value._sentUrl === 'string' ? value._sentUrl : typeof request.url === 'string' ? request.url : '',
    status: response.status,
    headers,
    text: bytes ? bytes.toString('utf8') : typeof content.text === 'string' ? content.text : '',
    requestText: isRecord(request.postData) && typeof request.postData.text === 'string' ? request.postData.text : undefined,
    bodyCut: typeof content.comment === 'string',
    bodyInexact: bytes !== undefined && createHash('sha256').update(bytes).digest('hex') !== content._sha256,
    ...(bytes ? { bytes } : {}),
    size: typeof content.size === 'number' ? content.size : -1,
    ...(typeof content.comment === 'string' && Number.isSafeInteger(content._items) && (content._items as number) >= 0
      ? { items: content._items as number }
      : {}),
    ...(typeof value._file === 'string' && Number.isSafeInteger(value._fileSeq) ? { file: value._file, fileSeq: value._fileSeq as number } : {}),
    ...(typeof value._prev === 'string' ? { prev: value._prev } : {}),
    hash: harEntryHash(value),
    raw: value._raw === true,
    ...(heardAfter ? { heardAfter } : {}),
    ...optional('wire', readWireRecord(value._wire)),
    ...optional('connection', loggedConnection(value._connection)),
    redacted: response._redacted === true,
    summarised: value._summarised === true,
    transportError: response.status === 0,
    retries: retried ? Number(retried[1]) : 0,
    ...(keyVariable ? { keyVariable } : {}),
  };
}

/** `{ [name]: value }` when the value is there, else nothing. */
function optional<K extends string, V>(name: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [name]: value } as Record<K, V>);
}

/**
 * What the client handed the checks for this response, rebuilt from the log: the body parsed as the
 * client parses it, the time it arrived, and what its connections did before it (stray bytes on a
 * pooled one, a retry after a drop: `_connection`), so HTTP-001's connection checks run again too.
 */
export function checkContextOf(entry: RecordedEntry, contract: Contract): CheckContext {
  const context: CheckContext = {
    operationId: entry.operationId,
    method: entry.method,
    url: entry.url,
    status: entry.status,
    headers: entry.headers,
    text: entry.text,
    body: undefined,
    isJson: false,
    contract,
    now: Math.round(entry.startedAt + entry.durationMs),
    exchangeSeq: entry.seq,
    ...entry.connection,
  };
  if (entry.text.length === 0) return context;
  const reading = bodyReading(entry);
  if (reading.ok) return { ...context, body: reading.value, isJson: true };
  return { ...context, jsonError: reading.reason };
}

/** The body read as JSON as the client read it: from its bytes when it was not UTF-8, else from its text. */
export function bodyReading(entry: Pick<RecordedEntry, 'text' | 'bytes'>): JsonReading {
  return entry.bytes ? readJsonBytes(entry.bytes) : readJson(entry.text);
}
