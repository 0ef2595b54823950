import { TextDecoder } from 'node:util';
import type { Contract, ValidationIssue } from '../contract/index.ts';
import { parseJson } from '../text/json.ts';
import type { NewPetRecord } from './store.ts';

export const NEW_PET_SCHEMA = '#/components/schemas/NewPet';

export interface NewPetRules {
  /** The status stored when none is given (a valid variant); undefined leaves it out. */
  defaultStatus?: string;
}

/** The NewPet reader's seam (see seams.ts): a body that failed validation, refused or accepted anyway. */
export interface NewPetSeams {
  /** Whether numbers are read exactly (called with true); a fault answers false to read them through a double. */
  exactNumbers(reRead: boolean): boolean;
  invalidBody(refusal: NewPetOutcome, body: unknown, issues: readonly ValidationIssue[]): NewPetOutcome;
}

export type NewPetOutcome = { pet: NewPetRecord } | { kind: 'invalid_json' | 'invalid_body'; message: string };

/** Turns a createPet body into a NewPet or the reason it is refused. */
export type NewPetReader = (body: Buffer) => NewPetOutcome;

const MAX_ISSUES_IN_MESSAGE = 3;

export function createNewPetReader(contract: Contract, rules: NewPetRules, statuses: readonly string[], seams: NewPetSeams): NewPetReader {
  // fatal: a body that is not UTF-8 is not JSON (RFC 8259 §8.1), rather than a name full of U+FFFD.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const enumMessage = `must be one of ${statuses.join(', ')}`;

  function describe(issues: readonly ValidationIssue[]): string {
    return issues
      .slice(0, MAX_ISSUES_IN_MESSAGE)
      .map((issue) => {
        const field = issue.instancePath ? issue.instancePath.slice(1).replaceAll('/', '.') : 'body';
        return `${field} ${issue.keyword === 'enum' ? enumMessage : issue.message}`;
      })
      .join('; ');
  }

  return function read(body) {
    let text: string;
    try {
      text = decoder.decode(body);
    } catch {
      return { kind: 'invalid_json', message: 'request body is not valid UTF-8' };
    }
    if (!text.trim()) return { kind: 'invalid_json', message: 'request body is empty; a NewPet object is required' };
    let value: unknown;
    try {
      // parseJson reads every number exactly: a categoryId written 1.5e18 keeps every digit, and a
      // fraction a double would round to an integer (1e-400, 1.0000000000000001) is refused.
      value = parseJson(text);
      // The seam a fault takes to read numbers through a double instead, as JSON.parse does.
      if (!seams.exactNumbers(true)) value = JSON.parse(text) as unknown;
    } catch (error) {
      return { kind: 'invalid_json', message: `request body is not valid JSON: ${(error as Error).message}` };
    }
    const issues = contract.validate(NEW_PET_SCHEMA, value);
    if (issues.length > 0) return seams.invalidBody({ kind: 'invalid_body', message: describe(issues) }, value, issues);
    const fields = value as { name: string; categoryId: bigint | number; status?: string };
    const status = fields.status ?? rules.defaultStatus;
    return {
      pet: status === undefined ? { name: fields.name, categoryId: fields.categoryId } : { name: fields.name, categoryId: fields.categoryId, status },
    };
  };
}
