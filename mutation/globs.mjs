// The files a list of mutate patterns selects (Node 20 has no fs.glob): `**/` any folders, `*` any name part.
import { readdirSync } from 'node:fs';

function toRegExp(pattern) {
  const body = pattern
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

export function selectFiles(patterns, root = 'src') {
  const all = readdirSync(root, { recursive: true }).map((f) => `${root}/${String(f).split('\\').join('/')}`);
  const include = patterns.filter((p) => !p.startsWith('!')).map(toRegExp);
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => toRegExp(p.slice(1)));
  return all.filter((f) => include.some((r) => r.test(f)) && !exclude.some((r) => r.test(f))).sort();
}
