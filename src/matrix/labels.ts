import type { CellChange, CellStatus, MatrixColumn, Trust } from './matrix-types.ts';

/** The words every renderer (HTML, Markdown, console) uses, so they say the same thing. */

export const STATUS_WORDS: Readonly<Record<CellStatus, { symbol: string; word: string }>> = {
  pass: { symbol: '✓', word: 'pass' },
  fail: { symbol: '✗', word: 'FAIL' },
  warn: { symbol: '!', word: 'warn' },
  deviation: { symbol: '~', word: 'deviation' },
  untested: { symbol: '–', word: 'untested' },
  'out-of-scope': { symbol: '·', word: 'n/a' },
  absent: { symbol: ' ', word: 'absent' },
};

export const CHANGE_WORDS: Readonly<Record<CellChange, string>> = {
  'newly-failing': 'new',
  fixed: 'fixed',
  'newly-untested': 'untested now',
  'newly-tested': 'tested now',
  'reason-changed': 'other reason',
  changed: 'changed',
};

export const TRUST_WORDS: Readonly<Record<Trust, string>> = {
  verified: 'verified',
  'unsigned-bundle': 'unsigned bundle',
  'unsigned-report': 'unsigned report',
  'not-verified': 'NOT VERIFIED',
};

/** What a trust level means, in one sentence. */
export const TRUST_MEANING: Readonly<Record<Trust, string>> = {
  verified: 'a signed bundle: every check holds and the signature verifies with a trusted key',
  'unsigned-bundle': 'an unsigned bundle: its files agree, but anyone can produce one (integrity only)',
  'unsigned-report': 'a bare conformance.json: nothing is signed or hashed; anyone can write one',
  'not-verified': 'a check failed: shown for inspection only, never counted, ranked or badged',
};

export function columnLabel(column: Pick<MatrixColumn, 'name' | 'version'>): string {
  return column.version === undefined ? column.name : `${column.name} ${column.version}`;
}

/** The first 16 hex digits: enough to tell keys apart at a glance; the details table has the whole. */
export function shortFingerprint(fingerprint: string): string {
  return fingerprint.length > 16 ? `${fingerprint.slice(0, 16)}…` : fingerprint;
}

export function failsIn(failing: number, of: number): string {
  return `fails in ${failing} of ${of} implementation${of === 1 ? '' : 's'}`;
}

/** A file name of [a-z0-9.-] only, whatever the implementation calls itself; `taken` keeps two that slug alike apart. */
export function badgeFileName(name: string, taken: ReadonlySet<string>): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, '-')
      .replace(/\.{2,}/g, '.')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 60) || 'implementation';
  let file = `${slug}.svg`;
  for (let n = 2; taken.has(file); n += 1) file = `${slug}-${n}.svg`;
  return file;
}

/** Who published a column: its verified signer's key, else how far it is trusted (unsigned). */
export function publisherOf(column: Pick<MatrixColumn, 'signer' | 'trust'>): string {
  return column.signer?.fingerprint ?? column.trust;
}

/** The key a column's history is kept under: its name and its publisher. */
export function implementationKey(column: Pick<MatrixColumn, 'name' | 'signer' | 'trust'>): string {
  return `${column.name}\u0000${publisherOf(column)}`;
}
