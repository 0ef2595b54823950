import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { type DerivedCache, dependencyVersion, derivedCache } from './derived-cache.ts';

type ParseYaml = (text: string) => unknown;

/**
 * The data of a YAML document (the catalog, the interface description), kept as JSON in the derived
 * cache: reading JSON costs about a hundredth of parsing the YAML, and the yaml package is then not loaded
 * at all. A document whose data JSON cannot carry unchanged (a non-finite number, -0) is parsed every time.
 * Parse errors are yaml's own, thrown as they are.
 */
export function yamlData(text: string, cache: DerivedCache = derivedCache()): unknown {
  const parse = () => parseYaml(text);
  const json = cache.text('yaml-data', [dependencyVersion('yaml'), text], () => {
    const data = parse();
    const kept = JSON.stringify(data);
    return kept !== undefined && isDeepStrictEqual(JSON.parse(kept), data) ? kept : undefined;
  });
  return json === undefined ? parse() : (JSON.parse(json) as unknown);
}

/** yaml's parse, the package loaded at the first document rather than at start-up (a user's config file, deviations). */
export function parseYaml(text: string): unknown {
  return (createRequire(import.meta.url)('yaml') as { parse: ParseYaml }).parse(text);
}
