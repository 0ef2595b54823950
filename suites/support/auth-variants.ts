import type { AuthOption } from '../../src/client/index.ts';

/** How one request presents (or fails to present) the key: the client's auth option and a raw query. */
export interface Credentials {
  auth: Exclude<AuthOption, 'valid'>;
  query?: string;
}

/** A way of sending the key that the target must refuse. `make` returns a string when it cannot apply. */
export interface AuthVariant {
  /** Reads in a title: "listPets refuses <label>". */
  label: string;
  make(key: string): Credentials | string;
}

/**
 * `shown` forms are shell expressions over $API_KEY (they land inside double quotes in the curl line), so
 * a reader can replay the request and the key never appears in a report. They name no length either.
 */
const bearer = (value: string, shown: string, display?: string): Credentials => ({
  auth: { value: `Bearer ${value}`, shown: `Bearer ${shown}`, ...(display === undefined ? {} : { display: `Bearer ${display}` }) },
});
const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

// Rotating the tail keeps the key's length, alphabet and any fixed prefix ("sk_live_…"), so a server
// that only checks the format still has to refuse it. Eight characters: long enough to differ, short
// enough that the shell form reveals nothing about the key's length.
const TAIL = 8;

/** A key of the same shape that is not the key: its last characters rotated by one place. */
export function sameShapeKey(key: string): { value: string; shown: string; display: string } | undefined {
  const n = Math.min(TAIL, Math.floor(key.length / 2));
  const tail = key.slice(-n);
  const value = key.slice(0, -n) + tail.slice(1) + tail.slice(0, 1);
  if (n >= 2 && value !== key) {
    return {
      value,
      // POSIX sh has no substrings: sed moves the character before the last n-1 to the end.
      shown: `$(printf %s "$API_KEY" | sed 's/\\(.\\)\\(.\\{${n - 1}\\}\\)$/\\2\\1/')`,
      display: `<the key, its last ${n} characters rotated one place>`,
    };
  }
  // A tail of one repeated character: rotate the whole key instead.
  const whole = key.slice(1) + key.slice(0, 1);
  return whole === key
    ? undefined
    : { value: whole, shown: `$(printf %s "$API_KEY" | sed 's/^\\(.\\)\\(.*\\)$/\\2\\1/')`, display: '<the key rotated one place>' };
}

/** ASCII letters swapped to the other case, as `tr a-zA-Z A-Za-z` does. */
function swapCase(key: string): string {
  return key.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
}

export const MISSING: AuthVariant = { label: 'a request without Authorization', make: () => ({ auth: 'none' }) };

export const SAME_SHAPE: AuthVariant = {
  label: 'a key of the same shape that is not the key',
  make(key) {
    const other = sameShapeKey(key);
    return other ? bearer(other.value, other.shown, other.display) : 'the key is one repeated character: no other key of its shape can be derived';
  },
};

/** AUTH-003: the key, but not in the Bearer scheme. */
export const OTHER_SCHEMES: readonly AuthVariant[] = [
  {
    label: 'the key in the Basic scheme',
    make: (key) => ({ auth: { value: `Basic ${base64(key)}`, shown: `Basic $(printf %s "$API_KEY" | base64 | tr -d '\\n')` } }),
  },
  {
    // The way many APIs take a key over Basic: as the user name, with an empty password.
    label: 'the key as a Basic user name',
    make: (key) => ({ auth: { value: `Basic ${base64(`${key}:`)}`, shown: `Basic $(printf %s: "$API_KEY" | base64 | tr -d '\\n')` } }),
  },
  { label: 'the bare key without a scheme', make: (key) => ({ auth: { value: key, shown: '$API_KEY' } }) },
  { label: 'the key in the Token scheme', make: (key) => ({ auth: { value: `Token ${key}`, shown: 'Token $API_KEY' } }) },
];

/** AUTH-004: the Bearer scheme with nothing after it. */
export const EMPTY_TOKENS: readonly AuthVariant[] = [
  { label: '"Bearer " with an empty token', make: () => ({ auth: { value: 'Bearer ', shown: 'Bearer ' } }) },
  { label: '"Bearer" without a token', make: () => ({ auth: { value: 'Bearer', shown: 'Bearer' } }) },
];

/** AUTH-005: near misses that only an inexact comparison would accept. */
export const NEAR_MISSES: readonly AuthVariant[] = [
  { label: 'the key without its last character', make: (key) => bearer(key.slice(0, -1), '${API_KEY%?}', '<the key without its last character>') },
  { label: 'the key with a character appended', make: (key) => bearer(`${key}x`, '${API_KEY}x', '<the key>x') },
  {
    label: 'the key in swapped letter case',
    make(key) {
      const swapped = swapCase(key);
      if (swapped === key) return 'the key has no letters, so it has no other letter case';
      return bearer(swapped, '$(printf %s "$API_KEY" | tr a-zA-Z A-Za-z)', '<the key in swapped letter case>');
    },
  },
];

/** AUTH-006: the key in the query string, with no Authorization header. */
export const QUERY_KEYS: readonly AuthVariant[] = ['api_key', 'access_token', 'key'].map((name) => ({
  label: `the key only in the query as ${name}`,
  // The client redacts the key (and its percent-encoded form) from recorded URLs and curl lines.
  make: (key: string): Credentials => ({ auth: 'none', query: `${name}=${encodeURIComponent(key)}` }),
}));

/**
 * AUTH-003: "Bearer" itself, joined to the key by another character than the space: a server that skips
 * the separator after checking the scheme reads the key. (The schemes × credential forms matrix is in
 * auth-matrix.ts.)
 */
export const BEARER_COLON: AuthVariant = {
  label: 'the key joined to "Bearer" by a colon',
  make: (key) => ({ auth: { value: `Bearer:${key}`, shown: 'Bearer:$API_KEY' } }),
};
