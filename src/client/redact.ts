import { BACKSLASH, Units, decode, referenceAt } from './escaped-text.ts';
import type { Exchange } from './exchange.ts';
import { type Fragments, KEY_FRAGMENT, PAIR, fold, fragmentsOf, markFragments } from './key-fragments.ts';
import { createSkeleton, markSkeleton, skeletonMayHold } from './key-skeleton.ts';

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

/** Line breaks and spacing: a key written across lines, or indented, is still one key. */
function isSpacing(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** A character a key (or a key-like token) is made of. */
function isKeyLike(code: number): boolean {
  const lower = code | 0x20;
  return (lower >= 0x61 && lower <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x5f;
}

function isBase64(code: number): boolean {
  return isKeyLike(code) || code === 0x2b || code === 0x2f;
}

/** The fragment sets a first filter reads, ready for it: folded ones first. */
interface FilterSets {
  /** Whether the filter cannot decide (a set of one character, or with pairs past ASCII): every text is scanned. */
  scanAll: boolean;
  sets: Fragments[];
  foldedCount: number;
}

function filterSets(folded: ReadonlyArray<Fragments | undefined>, exact: ReadonlyArray<Fragments | undefined>): FilterSets {
  const present = (set: Fragments | undefined): set is Fragments => set !== undefined;
  const sets = [...folded.filter(present), ...exact.filter(present)];
  return { scanAll: sets.some((set) => set.size < 2 || set.pairs.size > 0), sets, foldedCount: folded.filter(present).length };
}

/**
 * Whether `text` could hold a fragment at all: false only for a text in which no set has a long enough run
 * of known pairs, read as the full scan would decode it. Decoding changes a text only at an escape (a
 * backslash before u, x, n, r or t; a percent-encoded character or an HTML character reference), and
 * keptUnits only at a line break: any of those answers true. A `%` or `&` that starts no escape (`100%`,
 * `Tom & Jerry`) decodes to itself and is read as any other character: bodies full of generated text hold
 * many, and each used to cost the text the full scan. Other characters decode to themselves, a run of backslashes to backslashes, and a character past
 * ASCII, letter case folded, either to an ASCII one (the Kelvin sign to k) or to one no ASCII-only set
 * holds. This answers in one pass over the string, without the arrays of the full scan (most bodies and
 * headers are such texts, generated names in any script included).
 */
function mayHoldFragment(text: string, filter: FilterSets): boolean {
  const { scanAll, sets, foldedCount } = filter;
  if (scanAll) return true;
  const runs = new Int32Array(sets.length);
  // The previous character, exact and folded; -1 for one that no set holds.
  let previous = -1;
  let previousFolded = -1;
  // The end of the run of backslashes read as literal ones.
  let literalUntil = 0;
  for (let i = 0; i < text.length; i += 1) {
    let code = text.charCodeAt(i);
    let lower: number;
    if (code === 0x0a || code === 0x0d || ((code === 0x25 || code === 0x26) && referenceAt(text, i))) return true;
    if (code === BACKSLASH) {
      // A run of backslashes is measured once, at its first.
      if (i >= literalUntil) {
        literalUntil = i;
        while (literalUntil < text.length && text.charCodeAt(literalUntil) === BACKSLASH) literalUntil += 1;
        if (ESCAPE_LETTERS.has(text.charCodeAt(literalUntil))) return true;
      }
      lower = code;
    } else if (code >= 0x80) {
      // Read by UTF-16 unit: each half of a surrogate pair folds to itself, as the pair's code point folds
      // to no ASCII character.
      const folding = fold(code);
      code = -1;
      lower = folding < 0x80 ? folding : -1;
    } else {
      lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
    }
    const foldedPair = previousFolded >= 0 && lower >= 0 ? previousFolded * 128 + lower : -1;
    const exactPair = previous >= 0 && code >= 0 ? previous * 128 + code : -1;
    for (let k = 0; k < sets.length; k += 1) {
      const set = sets[k]!;
      const pair = k < foldedCount ? foldedPair : exactPair;
      runs[k] = pair >= 0 && set.asciiPairs[pair] === 1 ? runs[k]! + 1 : 0;
      if (runs[k]! >= set.size - 1) return true;
    }
    previous = code;
    previousFolded = lower;
  }
  return false;
}

/**
 * Whether an ASCII text could read as the key once normalised as taintCheck does (controls and spaces
 * removed, letter case folded): false only when no run of known pairs is long enough among the rest.
 * A text past ASCII (NFKC may turn it into ASCII), or with a backslash or `%00` (NUL escapes), answers true.
 */
function mayBeTainted(text: string, fragments: Fragments): boolean {
  const { size, asciiPairs, pairs } = fragments;
  if (size < 2 || pairs.size > 0) return true;
  let run = 0;
  let previous = -1;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0x80 || code === BACKSLASH || (code === 0x25 && text.startsWith('00', i + 1))) return true;
    if (code <= 0x20 || code === 0x7f) continue;
    const lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
    run = previous >= 0 && asciiPairs[previous * 128 + lower] === 1 ? run + 1 : 0;
    if (run >= size - 1) return true;
    previous = lower;
  }
  return false;
}

/** The letters that make a run of backslashes before them an escape (see backslashEscape). */
const ESCAPE_LETTERS = new Set([0x75, 0x78, 0x6e, 0x72, 0x74]);

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

// eslint-disable-next-line no-control-regex -- ASCII is every code point below 0x80, controls included
const ASCII = /^[\x00-\x7f]*$/;
/**
 * NUL written as an escape (UTF-16 spelt byte by byte). The lookbehind makes a match start only at the
 * first backslash of a run, so a long run is crossed once, not once per backslash.
 */
const NUL_ESCAPE = /(?<!\\)\\+(?:u0000|x00)|%00/gi;

/** Whether `text` (already lower-cased) holds one of the fragments: the pair filter, then the set. Linear. */
function holdsFragment(text: string, fragments: Fragments): boolean {
  const { size, grams, asciiPairs, pairs } = fragments;
  if (size === 1) return [...text].some((c) => grams.has(c));
  let run = 0;
  for (let i = 0; i + 1 < text.length; i += 1) {
    const first = text.charCodeAt(i);
    const second = text.charCodeAt(i + 1);
    const known = first < 128 && second < 128 ? asciiPairs[first * 128 + second] === 1 : pairs.has(first * PAIR + second);
    run = known ? run + 1 : 0;
    if (run >= size - 1 && grams.has(text.slice(i + 2 - size, i + 2))) return true;
  }
  return false;
}

/**
 * Whether text still reads as the key (or a fragment of it of KEY_FRAGMENT characters, forwards or
 * backwards) once normalised: NFKC (fullwidth and other compatibility letters), without format
 * characters (zero-width, bidi), spacing, NUL or its escapes (UTF-16 written byte by byte), in any
 * letter case. What the fragment scan removed is `***` by then, so only a disguised copy is left to find.
 */
function taintCheck(secret: string): (text: string) => boolean {
  const fragments = fragmentsOf([secret, [...secret].reverse().join('')], KEY_FRAGMENT, true);
  return (text) => {
    if (!fragments || !mayBeTainted(text, fragments)) return false;
    // ASCII is its own NFKC form, and its only spacing and format characters are controls and space.
    const ascii = ASCII.test(text);
    const normal = (ascii ? text : text.normalize('NFKC'))
      .replace(NUL_ESCAPE, '')
      // eslint-disable-next-line no-control-regex -- the controls are what is removed
      .replace(ascii ? /[\x00-\x20\x7f]/g : /[\p{Cf}\p{Cc}\p{Z}\s]/gu, '')
      .toLowerCase();
    return holdsFragment(normal, fragments);
  };
}

/** Marks of every fragment set over `codes` (the units `kept`), by unit. */
function markAll(codes: Int32Array, sets: ReadonlyArray<Fragments | undefined>, kept: Int32Array, count: number): Uint8Array {
  const compact = new Uint8Array(codes.length);
  for (const set of sets) if (set) markFragments(codes, set, compact);
  const marks = new Uint8Array(count);
  for (let i = 0; i < kept.length; i += 1) if (compact[i]) marks[kept[i]!] = 1;
  return marks;
}

/** Extends each marked run of at least `least` units forward over up to `budget(run)` units `fits` accepts. */
function runOn(units: Units, marks: Uint8Array, least: number, budget: (run: number) => number, fits: (code: number) => boolean): void {
  const { count, codes, pieces } = units;
  let i = 0;
  while (i < count) {
    if (!marks[i]) {
      i += 1;
      continue;
    }
    let end = i;
    while (end < count && marks[end]) end += 1;
    if (end - i >= least) {
      let left = budget(end - i);
      while (left > 0 && end < count && !marks[end] && pieces[end] === pieces[end - 1] && fits(codes[end]!)) {
        marks[end] = 1;
        end += 1;
        left -= 1;
      }
      while (end < count && marks[end]) end += 1;
    }
    i = end;
  }
}

/**
 * Which units the fragments are looked for in: all but line breaks and the spacing around them, so a key
 * written across lines (or across texts) is still one key. Spacing within a line separates words.
 */
function keptUnits(units: Units): Int32Array {
  const { count, codes } = units;
  const kept = new Int32Array(count);
  let size = 0;
  let i = 0;
  while (i < count) {
    if (!isSpacing(codes[i]!)) {
      kept[size++] = i++;
      continue;
    }
    let end = i;
    let lineBreak = false;
    while (end < count && isSpacing(codes[end]!)) {
      if (codes[end] === 0x0a || codes[end] === 0x0d) lineBreak = true;
      end += 1;
    }
    if (!lineBreak) for (let k = i; k < end; k += 1) kept[size++] = k;
    i = end;
  }
  return kept.subarray(0, size);
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
  const mayHold = (texts: readonly string[]) =>
    mayHoldFragment(texts.length === 1 ? texts[0]! : texts.join(''), filter) || (skeleton !== undefined && skeletonMayHold(texts, skeleton));

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
  const one = (text: string): string => {
    if (text.length < Math.min(KEY_FRAGMENT, secret.length)) return text;
    if (text.length <= SCANNED_CHARS && !mayHold([text])) return tainted(text) ? WITHHELD : text;
    return pieces([text])[0]!;
  };
  return Object.assign(one, { pieces });
}

/**
 * One redactor for several secrets (the API keys of a run, a proxy's credentials): each in turn, over
 * single texts and over texts judged as one sequence alike.
 */
export function createRedactorOf(secrets: readonly string[]): Redactor {
  const redactors = secrets.map(createRedactor);
  const one = (text: string) => redactors.reduce((out, redactor) => redactor(out), text);
  return Object.assign(one, { pieces: (texts: readonly string[]) => redactors.reduce((out, redactor) => redactor.pieces(out), [...texts]) });
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
