import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../errors.ts';
import { yamlData } from '../text/yaml-data.ts';

export const SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, SchemaObject>;
    responses: Record<string, OpenApiResponse>;
    headers: Record<string, unknown>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export type SchemaObject = { [key: string]: unknown };

export interface OpenApiOperation {
  operationId: string;
  deprecated?: boolean;
  'x-sunset'?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: SchemaObject }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: SchemaObject }> };
  responses: Record<string, OpenApiResponse | { $ref: string }>;
  [key: string]: unknown;
}

export interface OpenApiResponse {
  description: string;
  'x-not-stated'?: boolean;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: SchemaObject }>;
}

/** The parsed interface description and the digest of its text: plain data, passed to workers as is. */
export interface LoadedSpec {
  document: OpenApiDocument;
  sha256: string;
}

/** Reads spec/openapi.yaml (or another file) once; the caller keeps the result. */
export function loadSpec(path: string = SPEC_PATH): LoadedSpec {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new HarnessError('ERR_SPEC', `cannot read the interface description at ${path}`, { cause });
  }
  const document = yamlData(text) as OpenApiDocument;
  if (!document || typeof document !== 'object' || !document.paths || !document.components) {
    throw new HarnessError('ERR_SPEC', `${path} is not an OpenAPI document`);
  }
  return { document, sha256: createHash('sha256').update(text).digest('hex') };
}
