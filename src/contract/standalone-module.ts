import { createRequire } from 'node:module';

/**
 * What a standalone module (CommonJS, as ajv's standalone writer writes it) exports, run in this module's
 * scope: its require() of ajv's runtime helpers and of ajv-formats' formats resolves from here. ajv runs
 * the code it compiles the same way (new Function).
 */
export function standaloneExports(code: string): unknown {
  const module = { exports: {} as unknown };
  new Function('require', 'module', 'exports', code)(createRequire(import.meta.url), module, module.exports);
  return module.exports;
}
