import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_FORMS, MATRIX_SCHEMES, refusedCells } from '../../suites/support/auth-matrix.ts';

/** What a POSIX sh (dash, not bash) prints for `expression` with API_KEY set, inside double quotes as in a curl line. */
function posixValue(expression: string, key: string): string {
  return execFileSync('sh', ['-c', `printf %s "${expression}"`], { env: { PATH: process.env.PATH ?? '', API_KEY: key } }).toString();
}

describe('the authentication matrix', () => {
  it('crosses every scheme spelling with every credential form, Bearer with the key itself left out', () => {
    const cells = refusedCells();
    expect(cells).toHaveLength(MATRIX_SCHEMES.length * CREDENTIAL_FORMS.length - 3);
    expect(cells.some((c) => /^bearer$/i.test(c.scheme) && c.form === 'raw')).toBe(false);
    expect(cells.filter((c) => c.form === 'raw').map((c) => c.id)).toEqual(Array(6).fill('AUTH-003'));
  });

  it.each(['sk_live_abcdefghijklmnop', 'k-0123456789', 'ab/cd.ef+gh=ij'])('every cell for %s runs in POSIX sh and sends what the request sends', (key) => {
    for (const cell of refusedCells()) {
      const made = cell.variant.make(key);
      if (typeof made === 'string' || typeof made.auth === 'string') throw new Error(`${cell.variant.label}: no credentials`);
      expect(made.auth.shown, cell.variant.label).not.toMatch(/\$\{API_KEY[:%#/]/);
      expect(posixValue(made.auth.shown, key), cell.variant.label).toBe(made.auth.value);
      if (cell.form !== 'raw') expect(made.auth.value, cell.variant.label).not.toBe(`Bearer ${key}`);
    }
  });
});
