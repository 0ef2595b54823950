import { type AuthVariant, sameShapeKey } from './auth-variants.ts';

/**
 * The authentication matrix (AUTH-002, AUTH-003, AUTH-005): every scheme spelling the suite knows
 * crossed with every form of the credential. Only `Bearer <API_KEY>`, the scheme in any letter case
 * (RFC 9110 §11.1), may be served; every other cell is refused with 401.
 *
 * Each form's `shown` is a POSIX sh expression over $API_KEY (no bash substrings): the curl line a report
 * prints runs in sh, dash included.
 */

/** How the credential is spelt: a value from the key, and the same as a shell expression. */
interface CredentialForm {
  name: string;
  /** Reads after "the key" in a title, e.g. "base64-encoded". */
  label: string;
  /** Whether the form is the key itself (served under Bearer), an encoding of it, or another key. */
  kind: 'key' | 'encoded' | 'altered' | 'wrong';
  make(key: string): { value: string; shown: string; display?: string } | string;
}

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

export const CREDENTIAL_FORMS: readonly CredentialForm[] = [
  { name: 'raw', label: 'the key', kind: 'key', make: (key) => ({ value: key, shown: '$API_KEY' }) },
  {
    name: 'base64',
    label: 'the key base64-encoded',
    kind: 'encoded',
    make: (key) => ({ value: base64(key), shown: `$(printf %s "$API_KEY" | base64 | tr -d '\\n')`, display: '<the key in base64>' }),
  },
  {
    name: 'user-base64',
    label: 'the key as a user name ("<key>:") base64-encoded',
    kind: 'encoded',
    make: (key) => ({ value: base64(`${key}:`), shown: `$(printf %s: "$API_KEY" | base64 | tr -d '\\n')`, display: '<"key:" in base64>' }),
  },
  {
    // Inside the field value: trailing whitespace is not part of a field value (RFC 9110 §5.5), so a
    // server may rightly strip it; a word after a space makes the credential another one.
    name: 'space-after',
    label: 'the key followed by a space and a word',
    kind: 'altered',
    make: (key) => ({ value: `${key} x`, shown: '$API_KEY x', display: '<the key> x' }),
  },
  {
    name: 'prefixed',
    label: 'the key with a character prefixed',
    kind: 'altered',
    make: (key) => ({ value: `x${key}`, shown: 'x$API_KEY', display: 'x<the key>' }),
  },
  {
    name: 'wrong',
    label: 'a key of the same shape that is not the key',
    kind: 'wrong',
    make(key) {
      const other = sameShapeKey(key);
      return other ?? 'the key is one repeated character: no other key of its shape can be derived';
    },
  },
];

/** The Bearer scheme in the letter cases a server may meet; any of them with the key itself may be served. */
const BEARER_SPELLINGS = ['Bearer', 'bearer', 'BEARER'] as const;
/** Other schemes: common ones, two as long as "Bearer", a misspelling; `''` is no scheme at all. */
const OTHER_SCHEMES = ['Basic', 'Digest', 'ApiKey', 'Token', 'Baerer', ''] as const;
export const MATRIX_SCHEMES: readonly string[] = [...BEARER_SPELLINGS, ...OTHER_SCHEMES];

export interface MatrixCell {
  /** The requirement a server accepting the cell breaks. */
  id: 'AUTH-002' | 'AUTH-003' | 'AUTH-005';
  scheme: string;
  form: string;
  variant: AuthVariant;
}

function requirementOf(bearer: boolean, form: CredentialForm): MatrixCell['id'] {
  if (form.kind === 'wrong') return 'AUTH-002';
  if (!bearer) return 'AUTH-003';
  return form.kind === 'altered' ? 'AUTH-005' : 'AUTH-002';
}

function cellLabel(scheme: string, form: CredentialForm): string {
  return scheme === '' ? `${form.label} without a scheme` : `${form.label} in the scheme spelt "${scheme}"`;
}

/**
 * Every cell a server must refuse: all but a Bearer spelling with the key itself. `skip` leaves out the
 * cells other tests already send (as `scheme/form`).
 */
export function refusedCells(skip: ReadonlySet<string> = new Set()): MatrixCell[] {
  const cells: MatrixCell[] = [];
  for (const scheme of MATRIX_SCHEMES) {
    const bearer = (BEARER_SPELLINGS as readonly string[]).includes(scheme);
    for (const form of CREDENTIAL_FORMS) {
      if ((bearer && form.kind === 'key') || skip.has(`${scheme}/${form.name}`)) continue;
      const variant: AuthVariant = {
        label: cellLabel(scheme, form),
        make(key) {
          const made = form.make(key);
          if (typeof made === 'string') return made;
          const join = (text: string) => (scheme === '' ? text : `${scheme} ${text}`);
          return {
            auth: { value: join(made.value), shown: join(made.shown), ...(made.display === undefined ? {} : { display: join(made.display) }) },
          };
        },
      };
      cells.push({ id: requirementOf(bearer, form), scheme, form: form.name, variant });
    }
  }
  return cells;
}
