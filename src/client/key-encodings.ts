/*
 * Encodings of a secret made only of letters and digits, so that they are read in a text's skeleton
 * (its letters and digits, every other character removed): a target that writes them with separators
 * (`73:6b:2d`, `163 153 055`, `=73=6B=2D`, base32 in groups) is caught as one that writes them whole.
 */

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * The base32 characters the secret alone decides, at each of the five byte offsets a quantum allows (the
 * secret after other bytes in an encoded blob): characters that mix bits of bytes before it, and the
 * partial last one, are left out. Lower case: the skeleton folds case.
 */
export function base32Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let shift = 0; shift < 5; shift += 1) {
    const first = Math.ceil((8 * shift) / 5);
    const last = Math.floor((8 * (shift + bytes.length)) / 5);
    let core = '';
    for (let char = first; char < last; char += 1) {
      let value = 0;
      for (let bit = 5 * char; bit < 5 * char + 5; bit += 1) value = (value << 1) | ((bytes[(bit >> 3) - shift]! >> (7 - (bit & 7))) & 1);
      core += BASE32[value];
    }
    cores.push(core);
  }
  return cores;
}

/** The secret's bytes as numbers in `radix`, one after another: as written (`115107`) and three digits each (`115107045`). */
export function byteDigits(secret: string, radix: 8 | 10): { plain: string; padded: string } {
  const bytes = [...Buffer.from(secret, 'utf8')];
  return {
    plain: bytes.map((byte) => byte.toString(radix)).join(''),
    padded: bytes.map((byte) => byte.toString(radix).padStart(3, '0')).join(''),
  };
}
