import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../errors.ts';
import { ownSchemaErrors } from '../contract/own-schema.ts';
import { yamlData } from '../text/yaml-data.ts';

export const REQUIREMENTS_PATH = fileURLToPath(new URL('../../spec/requirements.yaml', import.meta.url));
export const REQUIREMENTS_SCHEMA_PATH = fileURLToPath(new URL('../../spec/requirements.schema.json', import.meta.url));

/**
 * MUST and SHOULD are the interface's own (a SHOULD fails only with --strict); MAY is informative.
 * ADVISORY is what a standard asks beyond the interface (an RFC it never names): reported apart, it
 * warns and never fails a run, not even with --strict.
 */
export type Level = 'MUST' | 'SHOULD' | 'MAY' | 'ADVISORY';

export interface Requirement {
  id: string;
  area: string;
  level: Level;
  source: string;
  text: string;
  coverage: 'tested' | 'not-covered';
  reason?: string;
  accepts?: Array<string | number>;
  /** In scope only when the run knows this (plan: the key's plan, given with --plan). */
  needs?: 'plan';
}

export interface OpenQuestion {
  question: string;
  accepts: Array<string | number>;
  appliesTo: string[];
}

/** A catalog's plain data: what a worker receives from the process that loaded and checked it. */
export interface CatalogData {
  areas: Readonly<Record<string, string>>;
  requirements: readonly Requirement[];
  open: readonly OpenQuestion[];
}

export interface Catalog extends CatalogData {
  get(id: string): Requirement;
  has(id: string): boolean;
}

/** Parses and checks a catalog: schema, unique ids, known areas, a source on every MUST. */
export function parseCatalog(text: string): Catalog {
  const raw = yamlData(text) as { areas: Record<string, string>; requirements: Requirement[]; open: OpenQuestion[] };
  const errors = ownSchemaErrors(JSON.parse(readFileSync(REQUIREMENTS_SCHEMA_PATH, 'utf8')) as object, raw);
  if (errors.length > 0) {
    const detail = errors.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    throw new HarnessError('ERR_SPEC', `requirement catalog is invalid: ${detail}`);
  }
  const byId = new Map<string, Requirement>();
  for (const entry of raw.requirements) {
    if (byId.has(entry.id)) throw new HarnessError('ERR_SPEC', `requirement catalog: duplicate id ${entry.id}`);
    if (!(entry.area in raw.areas)) throw new HarnessError('ERR_SPEC', `requirement ${entry.id}: unknown area ${entry.area}`);
    if (entry.level === 'MUST' && !entry.source.trim()) {
      throw new HarnessError('ERR_SPEC', `requirement ${entry.id}: a MUST needs a source`);
    }
    byId.set(entry.id, { ...entry, coverage: entry.coverage ?? 'tested' });
  }
  for (const question of raw.open) {
    for (const id of question.appliesTo) {
      if (!byId.has(id)) throw new HarnessError('ERR_SPEC', `open question "${question.question}" names unknown ${id}`);
    }
  }
  return catalogFrom({ areas: raw.areas, requirements: [...byId.values()], open: raw.open });
}

/** A catalog from data already checked by parseCatalog (in another process or worker): no parsing, no checks. */
export function catalogFrom(data: CatalogData): Catalog {
  const byId = new Map(data.requirements.map((requirement) => [requirement.id, requirement]));
  return Object.freeze({
    areas: Object.freeze({ ...data.areas }),
    requirements: data.requirements,
    open: data.open,
    get(id: string): Requirement {
      const found = byId.get(id);
      if (!found) throw new HarnessError('ERR_SPEC', `unknown requirement ${id}`);
      return found;
    },
    has: (id: string) => byId.has(id),
  });
}

export function loadCatalog(path: string = REQUIREMENTS_PATH): Catalog {
  return parseCatalog(readFileSync(path, 'utf8'));
}
