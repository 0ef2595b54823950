import { hash as digestOf } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Exchange } from '../client/exchange.ts';
import { canonicalJson, sortedCopy } from '../text/canonical-json.ts';
import type { WireRecord } from '../text/wire-record.ts';

/** HAR 1.2 (the browser devtools format), so a certifier can open the exchange log in any HAR viewer. */
export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    comment: string;
    entries: HarEntry[];
  };
}

interface HarNameValue {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarNameValue[];
    /** `size`: the body's bytes on the wire (above the text's when cut); `encoding` base64: the bytes of a body that is not UTF-8. */
    content: { size: number; mimeType: string; text?: string; comment?: string; encoding?: 'base64'; _sha256?: string; _items?: number };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
    _error?: { code: string; message: string };
    /** Redaction changed the headers or the kept body (the Exchange's `response.redacted`). */
    _redacted?: true;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  _seq: number;
  /** sha256 of the entry before (its canonical JSON, `_prev` included; of the empty string for #1): the log is one chain. */
  _prev: string;
  /** The test file that sent it and the number that file gave it: each file's numbers run 1..n. */
  _file?: string;
  _fileSeq?: number;
  _operationId?: string;
  _curl: string;
  /** The URL exactly as sent, when it is not a valid URI (a malformed percent-encoding sent on purpose). */
  _sentUrl?: string;
  /** Written and read byte for byte by the framing probe: the always-on checks do not run on it. */
  _raw?: true;
  /** The framing probe's: the bytes it heard after the response within its quiet time, and whether the connection closed. */
  _heardAfter?: { bytes: number; closed: boolean };
  /** A raw probe's: the bytes written and read, the connection used, how the reading ended (HTTP-001's and HTTP-002's rules read it). */
  _wire?: WireRecord;
  /** What the client's connections did before this response (stray bytes, a retried drop): HTTP-001's checks run again on it. */
  _connection?: Exchange['connection'];
  /** Headers and bodies left out (a passing test's evidence outside --certify): the checks cannot be re-run on it. */
  _summarised?: true;
}

/** The exchange log's file name, in a report directory and in a certification bundle. */
export const HAR_FILE = 'exchanges.har';

/**
 * Writes the run's exchanges as HAR to `path` (one entry per request, numbered as the report numbers
 * them), one entry a line: harText.
 */
export function writeHar(path: string, exchanges: readonly Exchange[], suiteVersion: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, harText(exchanges, { name: 'animal-store-conformance', version: suiteVersion }));
}

/**
 * Each entry names the one before by its hash (`_prev`): an entry deleted, inserted or moved breaks the
 * chain. `hash` is harEntryHash, or a faster way to the same hash for entries known to be canonical.
 */
export function chainEntries(entries: readonly HarEntry[], hash: (entry: HarEntry) => string = harEntryHash): void {
  let prev = HAR_CHAIN_START;
  for (const entry of entries) {
    entry._prev = prev;
    prev = hash(entry);
  }
}

/** The exchanges as HAR, in time order. They are already redacted (Bearer ***, no credentials in URLs). */
export function toHar(exchanges: readonly Exchange[], creator: { name: string; version: string }): Har {
  return harOf(creator, chainedEntries(exchanges).entries);
}

/**
 * toHar's log as the text written to disk: each entry on a line of its own, as the chain hashed it. The
 * text the chain hashes is the text written, not written again (with the hashing, that was a third of the
 * log's cost at the end of a run). It parses to toHar's object (test/report/har-canonical.test.ts).
 */
export function harText(exchanges: readonly Exchange[], creator: { name: string; version: string }): string {
  const { texts } = chainedEntries(exchanges);
  const empty = JSON.stringify(harOf(creator, []));
  // `…"entries":[]}}` less its last three characters leaves the list open for the entries.
  return `${empty.slice(0, -3)}\n${texts.join(',\n')}\n]}}\n`;
}

function harOf(creator: { name: string; version: string }, entries: HarEntry[]): Har {
  return {
    log: {
      version: '1.2',
      creator,
      comment: 'Redacted: the Authorization value reads Bearer ***; bodies may be cut to a few KiB; headers and bodies of passing tests are summarised.',
      entries,
    },
  };
}

/** The entries in time order, chained, and the canonical text of each as the chain hashed it. */
function chainedEntries(exchanges: readonly Exchange[]): { entries: HarEntry[]; texts: string[] } {
  const entries = [...exchanges].sort((a, b) => a.startedAt - b.startedAt || a.seq - b.seq).map(toEntry);
  const texts: string[] = [];
  // toEntry sets every object's keys in canonical order, so JSON.stringify writes each entry's canonical
  // text natively: the chain's hashes are harEntryHash's, without writing the text key by key.
  chainEntries(entries, (entry) => {
    const text = JSON.stringify(entry);
    texts.push(text);
    return sha256Hex(text);
  });
  return { entries, texts };
}

/**
 * One exchange as a HAR entry, every object's keys set in the order canonicalJson writes them (sorted by
 * code unit; `_` sorts before lower-case letters), so that its JSON.stringify is its canonical text. What
 * the exchange holds as an object of its own (the wire record, the connection, an error) is copied in
 * that order too. test/report/har-canonical.test.ts holds the two texts equal.
 */
function toEntry(exchange: Exchange): HarEntry {
  const { request } = exchange;
  const entry = {} as HarEntry;
  if (exchange.connection) entry._connection = sortedCopy(exchange.connection) as Exchange['connection'];
  entry._curl = exchange.curl;
  if (exchange.file !== undefined && exchange.fileSeq !== undefined) {
    entry._file = exchange.file;
    entry._fileSeq = exchange.fileSeq;
  }
  if (exchange.heardAfter) entry._heardAfter = sortedCopy(exchange.heardAfter) as HarEntry['_heardAfter'];
  if (exchange.operationId) entry._operationId = exchange.operationId;
  entry._prev = '';
  if (exchange.raw) entry._raw = true;
  const url = validUri(request.url);
  if (url !== request.url) entry._sentUrl = request.url;
  entry._seq = exchange.seq;
  if (exchange.summarised) entry._summarised = true;
  if (exchange.wire) entry._wire = sortedCopy(exchange.wire) as WireRecord;
  entry.cache = {};
  if (exchange.retries) entry.comment = `answered after ${exchange.retries} paced 429 response(s)`;
  entry.request = requestOf(request, url);
  entry.response = responseOf(exchange);
  entry.startedDateTime = new Date(exchange.startedAt).toISOString();
  entry.time = Math.max(0, exchange.durationMs);
  entry.timings = { receive: 0, send: 0, wait: Math.max(0, exchange.durationMs) };
  return entry;
}

/** The entry's request, keys in canonical order. */
function requestOf(request: Exchange['request'], url: string): HarEntry['request'] {
  const out = {
    bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
    cookies: [],
    headers: pairs(request.headers),
    headersSize: -1,
    httpVersion: 'HTTP/1.1',
    method: request.method,
  } as HarEntry['request'];
  if (request.body !== undefined) out.postData = { mimeType: headerValue(request.headers, 'content-type') ?? 'application/octet-stream', text: request.body };
  out.queryString = queryOf(request.url);
  out.url = url;
  return out;
}

/** The entry's response (status 0 and the error's message when none came), keys in canonical order. */
function responseOf(exchange: Exchange): HarEntry['response'] {
  const { response } = exchange;
  const out = {} as HarEntry['response'];
  if (exchange.error) out._error = sortedCopy(exchange.error) as { code: string; message: string };
  if (response?.redacted) out._redacted = true;
  out.bodySize = response?.body === undefined ? -1 : Buffer.byteLength(response.body);
  out.content = contentOf(response);
  out.cookies = [];
  out.headers = pairs(response?.headers ?? {});
  out.headersSize = -1;
  out.httpVersion = 'HTTP/1.1';
  out.redirectURL = '';
  out.status = response?.status ?? 0;
  out.statusText = response ? '' : (exchange.error?.message ?? 'no response');
  return out;
}

/** The response's content: the kept body, or the bytes of one that is not UTF-8 as base64; keys in canonical order. */
function contentOf(response: Exchange['response']): HarEntry['response']['content'] {
  const body = response?.body;
  const bytes = body === undefined ? undefined : response?.bytes;
  const content = {} as HarEntry['response']['content'];
  if (response?.bodyTruncated && response.items !== undefined) content._items = response.items;
  if (bytes) content._sha256 = bytes.sha256;
  if (response?.bodyTruncated) content.comment = 'body cut for the report';
  if (bytes) content.encoding = 'base64';
  content.mimeType = response ? (headerValue(response.headers, 'content-type') ?? '') : '';
  content.size = body === undefined ? 0 : (response?.size ?? Buffer.byteLength(body));
  if (body !== undefined) content.text = bytes ? bytes.base64 : body;
  return content;
}

function pairs(headers: Readonly<Record<string, string>>): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/** HAR wants a URI: a '%' that starts no percent-encoding (sent on purpose, to provoke a 400) is written %25. */
function validUri(url: string): string {
  return url.replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
}

function queryOf(url: string): HarNameValue[] {
  // Without a `?` there is no query (a `?` in the fragment counts, and the parser says so): not parsed at all.
  if (!url.includes('?')) return [];
  try {
    return [...new URL(url).searchParams.entries()].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** One call, no Hash object: a log hashes thousands of entries. */
const sha256Hex = (text: string) => digestOf('sha256', text, 'hex');

/** The hash the next entry names: sha256 of the entry's JSON with every object's keys sorted. */
export function harEntryHash(entry: unknown): string {
  return sha256Hex(canonicalJson(entry));
}

/** What #1 names as the entry before it. */
export const HAR_CHAIN_START = sha256Hex('');
