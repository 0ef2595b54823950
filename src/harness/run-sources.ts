import type { Catalog, CatalogData } from '../catalog/catalog.ts';
import type { Contract, LoadedSpec } from '../contract/index.ts';

/**
 * The spec and the requirement catalog as plain data. The main process reads, parses and checks them
 * once and hands them to every worker (vitest's provide/inject), so no worker parses YAML again.
 */
export interface RunSources {
  spec: LoadedSpec;
  catalog: CatalogData;
}

export function sourcesOf(contract: Contract, catalog: Catalog): RunSources {
  return {
    spec: { document: contract.document, sha256: contract.sha256 },
    catalog: { areas: catalog.areas, requirements: catalog.requirements, open: catalog.open },
  };
}
