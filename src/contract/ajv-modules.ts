import { createRequire } from 'node:module';

export type Ajv2020Module = typeof import('ajv/dist/2020.js');
type FormatsModule = typeof import('ajv-formats');
type StandaloneModule = typeof import('ajv/dist/standalone/index.js');

export interface AjvModules {
  Ajv2020: Ajv2020Module['Ajv2020'];
  /** Its code writers, for a keyword that writes code (int64-keyword.ts). */
  codegen: Pick<Ajv2020Module, '_' | 'str'>;
  addFormats: FormatsModule['default'];
  standaloneCode: StandaloneModule['default'];
}

/**
 * ajv, its formats and its standalone writer, loaded when a schema is first compiled rather than when the
 * process starts: a run whose checks all come from the derived cache (derived-cache.ts), and a main
 * process that never validates a pet, never load them (about a tenth of a second of start-up).
 */
export function ajvModules(): AjvModules {
  const load = createRequire(import.meta.url);
  const ajv = load('ajv/dist/2020.js') as Ajv2020Module;
  return {
    Ajv2020: ajv.Ajv2020,
    codegen: { _: ajv._, str: ajv.str },
    addFormats: (load('ajv-formats') as FormatsModule).default,
    standaloneCode: (load('ajv/dist/standalone/index.js') as StandaloneModule).default,
  };
}
