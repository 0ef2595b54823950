import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sameShapeKey } from '../../suites/support/auth-variants.ts';

/** What a POSIX sh (dash, not bash) prints for `expression` with API_KEY set. */
function posixValue(expression: string, key: string): string {
  return execFileSync('sh', ['-c', `printf %s "${expression}"`], { env: { PATH: process.env.PATH ?? '', API_KEY: key } }).toString();
}

describe('the shell forms of the same-shape keys run in POSIX sh', () => {
  it.each(['sk_live_abcdefghijklmnop', 'k-0123456789', 'abcd', 'aaaaaaaaaaaaaaaaab', 'ab/cd.ef+gh=ij'])('%s', (key) => {
    const variant = sameShapeKey(key);
    expect(variant).toBeDefined();
    expect(variant?.shown).not.toMatch(/\$\{API_KEY:/);
    expect(posixValue(variant?.shown ?? '', key)).toBe(variant?.value);
  });
});
