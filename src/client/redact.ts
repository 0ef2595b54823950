import { Units, decode, decodedText, isSpacing } from './escaped-text.ts';
import type { Exchange } from './exchange.ts';
import { filterSets, isBase64, isKeyLike, mayHoldFragment, taintCheck } from './key-filters.ts';
import { KEY_FRAGMENT, fold, fragmentsOf } from './key-fragments.ts';
import { keptUnits, markAll, runOn } from './key-marks.ts';
import { createSkeleton, markSkeleton, skeletonMayHold } from './key-skeleton.ts';
import { createMemo, listKey } from './redaction-memo.ts';

export { KEY_FRAGMENT };

/** Replaces the key in any string bound for a report, log line, error message or curl line. */
export type Redact = (text: string) => string;

/** A redactor that can also judge several texts as one (header values shown side by side). */
export interface Redactor extends Redact {
  /** Each text redacted, with fragments of the key that run on from one text into the next removed too. */
  pieces(texts: readonly string[]): string[];
}

export const REDACTED = '***';

/** What a text that reads as the key only once normalised becomes: the whole text is withheld. */
const WITHHELD = `${REDACTED} (withheld: the text held the API key in a disguised form)`;

/** A hex copy of the key shows half as much of it per character: twice as many are needed. */
const HEX_FRAGMENT = 2 * KEY_FRAGMENT;

/**
 * How much of one text is scanned: everything past it is dropped and marked, never shown unscanned. Far
 * more than any recorded body window (recordedBody scans a few KiB) or header (undici caps a head at 16 KiB).
 */
export const SCANNED_CHARS = 1024 * 1024;

/**
 * The base64 (and base64url) characters that `text` alone decides wherever it sits in the encoded
 * stream: it may start at any of three byte offsets within a quantum (after "Bearer ", after "user:",
 * inside a JSON blob), and each gives other characters. A fragment of the key, wherever it starts,
 * encodes to a run of one of these.
 */
function base64Cores(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const cores: string[] = [];
  for (const shift of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Characters that mix bits of the bytes before `text` are left out, and so is the partial last quantum.
    const core = encoded.slice([0, 2, 3][shift], Math.floor((shift + bytes.length) / 3) * 4);
    cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...new Set(cores)].filter((core) => core.length >= KEY_FRAGMENT);
}

function rot13(text: string): string {
  return text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** The first half of the key, at least 8 characters: a copy that starts with it is the key. */
function keyPrefix(secret: string): string {
  return secret.slice(0, Math.min(secret.length, Math.max(KEY_FRAGMENT, Math.floor(secret.length / 2))));
}

/**
 * The last guard before anything is recorded, printed or written: the key, judged by content, in every
 * form a target can echo it back in, and every fragment of it of KEY_FRAGMENT characters or more. That
 * is any letter case (tests send it upper- and lower-cased on purpose; an escape may spell a letter in
 * the other case), percent-encoded, JSON-, JavaScript- or HTML-escaped (wholly or partly), in base64 or
 * base64url at any alignment (Basic, a token, an encoded blob), reversed, rot13 or hex, split by line
 * breaks, or split across the texts given to `pieces`. A copy that starts with a large part of the key
 * (the prefixes and same-shape keys the auth tests send) loses the key-like characters after it too.
 * What is left is read by its letters and digits alone (key-skeleton.ts): the key split by separators,
 * or in pieces in any order, and its bytes in hex, base32, decimal or octal, separators and all.
 *
 * It runs in time linear in its input: the text is decoded once, character by character, and each
 * position is tested against a set of the key's fragments; no pattern backtracks. Past SCANNED_CHARS the
 * text is dropped and marked. Built once per client.
 */
export function createRedactor(secret: string): Redactor {
  if (secret.length === 0) return Object.assign((text: string) => text, { pieces: (texts: readonly string[]) => [...texts] });
  const hex = Buffer.from(secret).toString('hex');
  const variants = [...new Set([secret, [...secret].reverse().join(''), rot13(secret)])];
  const textSets = [fragmentsOf(variants, KEY_FRAGMENT, true), fragmentsOf([hex], HEX_FRAGMENT, true)];
  const base64Sets = [fragmentsOf(variants.flatMap(base64Cores), KEY_FRAGMENT, false), fragmentsOf(base64Cores(hex), HEX_FRAGMENT, false)];
  const prefix = keyPrefix(secret).length;
  const tainted = taintCheck(secret);
  const filter = filterSets(textSets, base64Sets);
  const skeleton = createSkeleton(secret);
  /** Whether the full scan could mark anything in texts it reads as one sequence. */
  const mayHold = (texts: readonly string[]) => mayHoldFragment(texts, filter) || (skeleton !== undefined && skeletonMayHold(texts, skeleton));

  const pieces = (texts: readonly string[]): string[] => {
    const bounded = texts.map((text) => (text.length > SCANNED_CHARS ? text.slice(0, SCANNED_CHARS) : text));
    // The scan below reads the texts as one sequence: when that sequence can hold no fragment (the test
    // `one` makes of a single text), it would mark nothing, and only the disguised copies are left to find.
    if (bounded.every((text, piece) => text === texts[piece]) && !mayHold(bounded)) {
      return bounded.map((text) => (tainted(text) ? WITHHELD : text));
    }
    const units = new Units(bounded.reduce((sum, text) => sum + text.length, 0));
    bounded.forEach((text, piece) => decode(text, piece, units));
    const kept = keptUnits(units);
    const exact = new Int32Array(kept.length);
    const folded = new Int32Array(kept.length);
    for (let k = 0; k < kept.length; k += 1) {
      exact[k] = units.codes[kept[k]!]!;
      folded[k] = fold(exact[k]!);
    }
    const textMarks = markAll(folded, textSets, kept, units.count);
    const base64Marks = markAll(exact, base64Sets, kept, units.count);
    runOn(units, textMarks, prefix, (run) => secret.length + 2 - run, isKeyLike);
    runOn(
      units,
      base64Marks,
      KEY_FRAGMENT,
      () => 4,
      (code) => isBase64(code) || code === 0x3d,
    );
    const marks = textMarks;
    for (let i = 0; i < units.count; i += 1) marks[i] = marks[i]! | base64Marks[i]!;
    // What is left is read again by its letters and digits alone, around what was removed.
    const bySkeleton = skeleton ? markSkeleton(units, marks, skeleton) : undefined;
    for (let i = 0; i < units.count; i += 1) marks[i] = (marks[i]! | (bySkeleton?.marks[i] ?? 0)) & (isSpacing(units.codes[i]!) ? 0 : 1);
    const marked = (i: number) => marks[i] === 1;
    const out = bounded.map(() => '');
    const cursor = bounded.map(() => 0);
    for (let i = 0; i < units.count; i += 1) {
      if (!marked(i)) continue;
      const piece = units.pieces[i]!;
      const start = units.starts[i]!;
      while (i + 1 < units.count && units.pieces[i + 1] === piece && marked(i + 1)) i += 1;
      out[piece] += `${bounded[piece]!.slice(cursor[piece], start)}${REDACTED}`;
      cursor[piece] = units.ends[i]!;
    }
    return bounded.map((text, piece) => {
      const clean = out[piece]! + text.slice(cursor[piece]);
      const withheld = bySkeleton?.withheld.has(piece) || tainted(clean) ? WITHHELD : clean;
      const dropped = texts[piece]!.length - text.length;
      return dropped > 0 ? `${withheld}… (${dropped} characters withheld unscanned)` : withheld;
    });
  };
  /**
   * Whether the full scan could mark anything in one text: read as written, then, where that reads an
   * escape or a line break, read decoded (decodedText), as the full scan reads it. A list body with one
   * escaped character in a name is read twice by the filters, not once by the full scan's arrays.
   */
  const mayHoldOne = (text: string) => {
    if (!mayHold([text])) return false;
    const decoded = decodedText(text);
    return decoded === undefined || decoded === text || mayHold([decoded]);
  };
  const one = (text: string): string => {
    if (text.length < Math.min(KEY_FRAGMENT, secret.length)) return text;
    if (text.length <= SCANNED_CHARS && !mayHoldOne(text)) return tainted(text) ? WITHHELD : text;
    return pieces([text])[0]!;
  };
  return Object.assign(one, { pieces });
}

/** The characters each of a redactor's memos keeps (redaction-memo.ts): a few whole lists; a worker keeps a redactor for each of its keys. */
const MEMO_CHARS = 1024 * 1024;

/** Gives the redactor of one secret: createRedactor, or redactorsBySecret's copy of what it built before. */
export type RedactorOfSecret = (secret: string) => Redactor;

/**
 * The redactor of each secret built once and handed out again: one is a pure function of its secret (its
 * only state, a cache of character classes, answers the same either way), and building one costs
 * milliseconds, so the lists of a worker (each key's client, all the keys together) share them.
 */
export function redactorsBySecret(): RedactorOfSecret {
  const built = new Map<string, Redactor>();
  return (secret) => {
    const known = built.get(secret);
    if (known) return known;
    const redactor = createRedactor(secret);
    built.set(secret, redactor);
    return redactor;
  };
}

/**
 * One redactor for several secrets (the API keys of a run, a proxy's credentials): each in turn, over
 * single texts and over texts judged as one sequence alike. A text (or list of texts) it has redacted
 * before gets the same answer from its memo, never a scan skipped for anything else.
 */
export function createRedactorOf(secrets: readonly string[], redactorOf: RedactorOfSecret = createRedactor): Redactor {
  const redactors = secrets.map((secret) => redactorOf(secret));
  const shortest = Math.min(KEY_FRAGMENT, ...secrets.map((secret) => secret.length));
  const oneMemo = createMemo<string>(MEMO_CHARS, (value, key) => (value === key ? 0 : value.length));
  const piecesMemo = createMemo<readonly string[]>(MEMO_CHARS, (value) => value.reduce((sum, text) => sum + text.length, 0));
  const one = (text: string) => (text.length < shortest ? text : oneMemo(text, () => redactors.reduce((out, redactor) => redactor(out), text)));
  const pieces = (texts: readonly string[]) => [...piecesMemo(listKey(texts), () => redactors.reduce((out, redactor) => redactor.pieces(out), [...texts]))];
  return Object.assign(one, { pieces });
}

/**
 * A header map, redacted by content: names as well as values, since a target can name a header after
 * the key, and the values (and the names) each judged as one sequence, so a key split across headers
 * is caught. Names that become alike after redaction are joined, as a repeated header is.
 */
export function redactHeaders(headers: Readonly<Record<string, string>>, redact: Redact): Record<string, string> {
  const entries = Object.entries(headers);
  const names = entries.map(([name]) => name);
  const values = entries.map(([, value]) => value);
  const together = (texts: string[]) => ('pieces' in redact ? (redact as Redactor).pieces(texts) : texts.map(redact));
  const shownNames = together(names);
  const shownValues = together(values);
  const out: Record<string, string> = {};
  shownNames.forEach((shown, i) => {
    const clean = shownValues[i]!;
    out[shown] = Object.hasOwn(out, shown) ? `${out[shown]}, ${clean}` : clean;
  });
  return out;
}

export const RECORDED_BODY_CHARS = 4096;

/**
 * A response body for a message, cut at `max`. It is taken from the exchange's record, which was redacted
 * whole before it was cut, never from the raw text: a cut of the raw text could split the key.
 */
export function bodyExcerpt(response: { readonly exchange: Exchange }, max: number): string {
  const recorded = response.exchange.response;
  const body = recorded?.body ?? '';
  if (body.length > max) return `${body.slice(0, max)}…`;
  return recorded?.bodyTruncated ? `${body}…` : body;
}

/** Whether redaction changed a kept text: the record holds other than `original` (its start, when cut). */
export function keptChanged(original: string, kept: { body: string; truncated: boolean }): boolean {
  return kept.body !== (kept.truncated ? original.slice(0, kept.body.length) : original);
}

/** Whether redaction changed a header map as redactHeaders shows it: a name or a value reads otherwise. */
export function headersChanged(original: Readonly<Record<string, string>>, shown: Readonly<Record<string, string>>): boolean {
  return Object.entries(original).some(([name, value]) => shown[name] !== value);
}

/** Longer than any key; a key split by the scan window can only sit in this many trailing chars. */
const KEY_SPAN = 1024;

/**
 * Redacts, then cuts to RECORDED_BODY_CHARS. Redacting first matters: a cut could split the key and leave
 * a prefix no pattern matches. Only a window somewhat longer than the cut is scanned, so a 2 MiB body
 * costs little; the window grows when redaction shrank it so much that its split tail could reach the cut.
 */
export function recordedBody(text: string, redact: Redact, max = RECORDED_BODY_CHARS): { body: string; truncated: boolean } {
  let size = max + 2 * KEY_SPAN;
  let clean = redact(text.slice(0, size));
  while (size < text.length && clean.length < max + KEY_SPAN) {
    size *= 4;
    clean = redact(text.slice(0, size));
  }
  if (size >= text.length && clean.length <= max) return { body: clean, truncated: false };
  let end = max;
  // Do not leave half a surrogate pair at the end.
  const last = clean.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { body: clean.slice(0, end), truncated: true };
}
