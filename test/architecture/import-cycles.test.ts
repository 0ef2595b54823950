import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderGraph, importCycles, importGraph } from './import-graph.ts';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

describe('dependencies in src/ run one way', () => {
  const graph = importGraph(SRC);

  it('reads the import graph (a broken reader would find no cycle anywhere)', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('client/create-client.ts')).toContain('errors.ts');
    // The reader does find a cycle when there is one.
    expect(
      importCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', ['a.ts']],
          ['d.ts', ['a.ts']],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('no file imports itself back through others', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('no area of the code (client, checks, reference, report, …) depends on one that depends on it', () => {
    expect(importCycles(folderGraph(graph))).toEqual([]);
  });

  it('transport does no checking, and the reference core does not depend on its faults', () => {
    const imports = (prefix: string, target: string) =>
      [...graph].filter(([file, targets]) => file.startsWith(prefix) && targets.some((t) => t.startsWith(target))).map(([file]) => file);
    expect(imports('client/', 'checks/index.ts')).toEqual([]);
    expect(imports('client/', 'checks/registry.ts')).toEqual([]);
    // Where the server is assembled from options, faults included; everything else is the core.
    const assembly = ['reference/index.ts', 'reference/server.ts', 'reference/reference-options.ts', 'reference/variants.ts', 'reference/standalone.ts'];
    const faults = ['reference/faults/'];
    const isFault = (file: string) => faults.some((folder) => file.startsWith(folder));
    const core = [...graph.keys()].filter((f) => f.startsWith('reference/') && !isFault(f) && !assembly.includes(f));
    expect(core).toContain('reference/store.ts');
    expect(core.filter((file) => (graph.get(file) ?? []).some(isFault))).toEqual([]);
  });
});
