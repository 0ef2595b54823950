import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The glossary defines the words the docs use in a sense of their own. The list below is the test's:
 * a page that starts using a new term of the project adds it here and to the glossary. An entry is a
 * paragraph that starts with the term in bold.
 */

const GLOSSARY = fileURLToPath(new URL('../../docs/reference/glossary.md', import.meta.url));

const TERMS = [
  'advisory',
  'always-on check',
  'baseline',
  'budget',
  'bundle',
  'catalog',
  'check',
  'curl line',
  'deviation',
  'embedded reference',
  'equivalent mutant',
  'evidence',
  'exchange',
  'exchange log',
  'exhaust key',
  'fault',
  'harness error',
  'judgment',
  'judgment rule',
  'ledger',
  'liberty',
  'liberty stage',
  'mutant',
  'open list',
  'plan',
  'preflight',
  'profile',
  'property test',
  'rejudge',
  'requirement',
  'requirement level',
  'scope',
  'seed',
  'shard',
  'skip code',
  'strict',
  'suite identity',
  'tier',
  'variant',
  'verdict',
];

/** The terms the glossary defines: the bold words that open its paragraphs. */
function definedTerms(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^\*\*([^*]+)\*\*/gm)].map((m) => m[1]!.toLowerCase()));
}

describe('the glossary', () => {
  it('defines every term the docs use in a sense of their own', () => {
    const defined = definedTerms(readFileSync(GLOSSARY, 'utf8'));
    expect(TERMS.filter((term) => !defined.has(term))).toEqual([]);
  });

  it('reads a term only where a paragraph opens with it in bold', () => {
    expect([...definedTerms('**rule** — a rule.\n\nA **judgment** in prose.\n')]).toEqual(['rule']);
  });

  it('keeps its entries in alphabetical order, so a reader finds one', () => {
    const order = [...readFileSync(GLOSSARY, 'utf8').matchAll(/^\*\*([^*]+)\*\*/gm)].map((m) => m[1]!.toLowerCase());
    expect(order).toEqual([...order].sort());
  });
});
