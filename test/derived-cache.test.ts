import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { DERIVED_CACHE_ENV, bypassDerivedCache, derivedCache } from '../src/text/derived-cache.ts';
import { ownSchemaErrors } from '../src/contract/own-schema.ts';
import { createContract } from '../src/contract/index.ts';
import { yamlData } from '../src/text/yaml-data.ts';

const roots: string[] = [];
function freshRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'derived-cache-'));
  roots.push(root);
  return root;
}
const entries = (root: string) => readdirSync(join(root, 'node_modules', '.cache', 'animal-store-conformance'));
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the derived cache', () => {
  it('derives once per input, then reads what it kept', () => {
    const cache = derivedCache(freshRoot());
    let derived = 0;
    const derive = (text: string) => () => `${text}:${++derived}`;
    expect(cache.text('step', ['a'], derive('a'))).toBe('a:1');
    expect(cache.text('step', ['a'], derive('a'))).toBe('a:1');
    expect(cache.text('step', ['b'], derive('b'))).toBe('b:2');
    // Another step, or the same texts split otherwise, is another entry.
    expect(cache.text('other', ['a'], derive('a'))).toBe('a:3');
    expect(cache.text('step', ['a', 'b'], derive('ab'))).toBe('ab:4');
    expect(cache.text('step', ['ab'], derive('ab'))).toBe('ab:5');
    expect(derived).toBe(5);
  });

  it('keeps nothing a step declines to keep, and leaves no partial file behind', () => {
    const root = freshRoot();
    const cache = derivedCache(root);
    let derived = 0;
    expect(cache.text('step', ['x'], () => (derived++, undefined))).toBeUndefined();
    expect(cache.text('step', ['x'], () => (derived++, undefined))).toBeUndefined();
    expect(derived).toBe(2);
    cache.text('step', ['y'], () => 'kept');
    expect(entries(root)).toHaveLength(1);
    expect(entries(root)[0]).toMatch(/^step-[0-9a-f]{64}$/);
  });

  it("keeps its entries by default beside the package's dependencies, in node_modules/.cache", () => {
    const step = `test-default-root-${process.pid}-${Date.now()}`;
    derivedCache().text(step, ['a'], () => 'kept');
    const dir = join(fileURLToPath(new URL('..', import.meta.url)), 'node_modules', '.cache', 'animal-store-conformance');
    const kept = readdirSync(dir).filter((name) => name.startsWith(`${step}-`));
    for (const name of kept) rmSync(join(dir, name));
    expect(kept).toHaveLength(1);
  });

  it('derives every time where it cannot write, and without a root', () => {
    const root = freshRoot();
    // A file where the cache's folder would go: nothing can be created under it (as root too).
    writeFileSync(join(root, 'node_modules'), '');
    for (const cache of [derivedCache(root), derivedCache(false)]) {
      let derived = 0;
      expect(cache.text('step', ['a'], () => `v${++derived}`)).toBe('v1');
      expect(cache.text('step', ['a'], () => `v${++derived}`)).toBe('v2');
    }
  });
});

describe('YAML data through the cache', () => {
  it('gives the data the YAML holds, from the cache as when parsed', () => {
    const root = freshRoot();
    const text = 'a: 1\nb: [x, "y", 2.5, null, true]\nc: {d: -3}\nwhen: 2024-01-01\n';
    const first = yamlData(text, derivedCache(root));
    expect(first).toEqual({ a: 1, b: ['x', 'y', 2.5, null, true], c: { d: -3 }, when: '2024-01-01' });
    expect(entries(root)).toHaveLength(1);
    expect(yamlData(text, derivedCache(root))).toEqual(first);
  });

  it('parses every time a document JSON cannot carry unchanged', () => {
    const root = freshRoot();
    const text = 'big: .inf\nsmall: -.inf\nzero: -0.0\n';
    expect(yamlData(text, derivedCache(root))).toEqual({ big: Infinity, small: -Infinity, zero: -0 });
    expect(Object.is((yamlData(text, derivedCache(root)) as { zero: number }).zero, -0)).toBe(true);
    expect(() => entries(root)).toThrow();
  });

  it('throws yaml’s own error for a document that is not YAML', () => {
    expect(() => yamlData('a: [1, 2\n', derivedCache(freshRoot()))).toThrow();
  });
});

describe('own-schema checks through the cache', () => {
  const schema = {
    type: 'object',
    required: ['id', 'at'],
    additionalProperties: false,
    properties: { id: { type: 'integer', minimum: 1 }, at: { type: 'string', format: 'date-time' } },
  };

  it('judges alike when compiled and when read from the cache, listing every error of a bad value', () => {
    const root = freshRoot();
    const good = { id: 1, at: '2026-11-26T10:00:00Z' };
    const bad = { id: 0, at: 'yesterday', extra: true };
    for (const round of ['compiled', 'cached']) {
      expect(ownSchemaErrors(schema, good, { strict: true, formats: true }, derivedCache(root)), round).toEqual([]);
      const errors = ownSchemaErrors(schema, bad, { strict: true, formats: true }, derivedCache(root));
      expect(errors.map((e) => e.keyword).sort(), round).toEqual(['additionalProperties', 'format', 'minimum']);
    }
    expect(entries(root)).toHaveLength(1);
  });

  it('keys the compiled check by its schema and options: a changed schema is judged by itself', () => {
    const root = freshRoot();
    expect(ownSchemaErrors(schema, { id: 5, at: '2026-11-26T10:00:00Z' }, { formats: true }, derivedCache(root))).toEqual([]);
    const tighter = { ...schema, properties: { ...schema.properties, id: { type: 'integer', maximum: 3 } } };
    expect(ownSchemaErrors(tighter, { id: 5, at: '2026-11-26T10:00:00Z' }, { formats: true }, derivedCache(root))).not.toEqual([]);
    // Options are part of the key: strict mode refuses a keyword it does not know, lax mode passes over it.
    const odd = { ...schema, madeUp: 1 };
    expect(ownSchemaErrors(odd, { id: 5, at: '2026-11-26T10:00:00Z' }, { strict: false, formats: true }, derivedCache(root))).toEqual([]);
    expect(() => ownSchemaErrors(odd, { id: 5, at: '2026-11-26T10:00:00Z' }, { strict: true, formats: true }, derivedCache(root))).toThrow(/madeUp/);
    expect(entries(root)).toHaveLength(3);
  });

  it('runs the kept code, so an entry is the check itself', () => {
    const root = freshRoot();
    ownSchemaErrors(schema, { id: 1, at: '2026-11-26T10:00:00Z' }, { formats: true }, derivedCache(root));
    const [entry] = entries(root);
    const path = join(root, 'node_modules', '.cache', 'animal-store-conformance', entry!);
    expect(readFileSync(path, 'utf8')).toContain('module.exports');
    // An entry that passes everything: the cache is trusted as the package's own files are.
    writeFileSync(path, 'module.exports = () => true;');
    expect(ownSchemaErrors(schema, { id: 0 }, { formats: true }, derivedCache(root))).toEqual([]);
  });
});

/**
 * An entry is a file the suite identity does not cover: whoever can write node_modules can edit one
 * (issue 48: the catalog read with CON-003 as ADVISORY gave a "genuine" CONFORMANT). Whatever decides or
 * checks a certificate runs with ASC_DERIVED_CACHE=off and derives afresh from the suite's own files.
 */
describe('the derived cache bypassed for certificates', () => {
  const catalogText = 'requirements:\n  - id: CON-003\n    level: MUST\n';

  it('an edited entry is read by a cached run, and never with ASC_DERIVED_CACHE=off', () => {
    const root = freshRoot();
    expect(yamlData(catalogText, derivedCache(root))).toEqual({ requirements: [{ id: 'CON-003', level: 'MUST' }] });
    const [entry] = entries(root);
    const path = join(root, 'node_modules', '.cache', 'animal-store-conformance', entry ?? '');
    writeFileSync(path, readFileSync(path, 'utf8').replace('MUST', 'ADVISORY'));
    // The attack: a cached read takes the edited entry for the catalog.
    expect(yamlData(catalogText, derivedCache(root))).toEqual({ requirements: [{ id: 'CON-003', level: 'ADVISORY' }] });
    // Bypassed: the document itself, and the edited entry is neither read nor replaced.
    const env: NodeJS.ProcessEnv = {};
    bypassDerivedCache(env);
    expect(env[DERIVED_CACHE_ENV]).toBe('off');
    expect(yamlData(catalogText, derivedCache(root, env))).toEqual({ requirements: [{ id: 'CON-003', level: 'MUST' }] });
    expect(readFileSync(path, 'utf8')).toContain('ADVISORY');
  });

  it('verify, rejudge and matrix bypass it while they run, and leave the process as they found it', async () => {
    const before = process.env[DERIVED_CACHE_ENV];
    try {
      for (const command of ['verify', 'rejudge', 'matrix']) {
        delete process.env[DERIVED_CACHE_ENV];
        let during: string | undefined;
        await main([command, '--help'], () => {
          during = process.env[DERIVED_CACHE_ENV];
        });
        expect(during, command).toBe('off');
        expect(process.env[DERIVED_CACHE_ENV], command).toBeUndefined();
      }
    } finally {
      if (before === undefined) delete process.env[DERIVED_CACHE_ENV];
      else process.env[DERIVED_CACHE_ENV] = before;
    }
  });
});

describe("the contract's validators through the cache", () => {
  const pet = (id: unknown, categoryId: unknown = 1) => ({ id, name: 'Rex', categoryId, status: 'available' });

  it('judges alike when compiled and when read from the cache as code: int64 exactly, every issue with its message', () => {
    const root = freshRoot();
    for (const round of ['compiled', 'cached']) {
      const contract = createContract(undefined, derivedCache(root));
      expect(contract.validate('#/components/schemas/Pet', pet(9223372036854775807n)), round).toEqual([]);
      expect(contract.validate('#/components/schemas/Pet', pet(9223372036854775808n)), round).toEqual([
        { instancePath: '/id', keyword: 'x-exact-integer', message: 'must be within the int64 range' },
      ]);
      expect(
        contract
          .validate('#/components/schemas/Pet', pet(1.5, '2'))
          .map((i) => `${i.instancePath} ${i.message}`)
          .sort(),
        round,
      ).toEqual(['/categoryId must be integer', '/id must be integer']);
    }
    expect(entries(root).filter((name) => name.startsWith('contract-validators-'))).toHaveLength(1);
  });

  it('derives the code again when the cache is off, and never needs it when nothing is validated', () => {
    let derived = 0;
    const counting = { text: (_step: string, _inputs: readonly string[], derive: () => string | undefined) => (derived++, derive()) };
    const unused = createContract(undefined, counting);
    expect(unused.operation('listPets').method).toBe('GET');
    expect(derived).toBe(0);
    expect(createContract(undefined, derivedCache(false)).validate('#/components/schemas/Pet', pet(1))).toEqual([]);
    createContract(undefined, counting).validate('#/components/schemas/Error', { code: 'x', message: 'y' });
    expect(derived).toBe(1);
  });
});
