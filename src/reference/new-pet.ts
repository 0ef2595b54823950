import { TextDecoder } from 'node:util';
import type { Contract, ValidationIssue } from '../contract/index.ts';
import { parseJson } from '../json.ts';
import { parseJsonExact } from './exact-number.ts';
import type { NewPetRecord } from './store.ts';

export const NEW_PET_SCHEMA = '#/components/schemas/NewPet';

export interface NewPetRules {
  /** The status stored when none is given (a valid variant); undefined leaves it out. */
  defaultStatus?: string;
}

/** The NewPet reader's seam (see seams.ts): a body that failed validation, refused or accepted anyway. */
export interface NewPetSeams {
  /** Whether a categoryId written with an exponent or a fraction is read again exactly (not through a double). */
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
      value = parseJson(text);
      // A categoryId written with an exponent or a fraction (1.5e18, 1e-400, 1.0000000000000001) was
      // read as a double, which may have rounded it to an integer: read the text again exactly, so a
      // fraction is refused and a large integer keeps every digit.
      if (seams.exactNumbers(mayBeInexact(value, text))) value = parseJsonExact(text);
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

function mayBeInexact(value: unknown, text: string): boolean {
  const categoryId = typeof value === 'object' && value !== null ? (value as { categoryId?: unknown }).categoryId : undefined;
  // A digit followed by '.', 'e' or 'E' somewhere in the text: cheap, and a false alarm only costs an exact read.
  return typeof categoryId === 'number' && Number.isInteger(categoryId) && (!Number.isSafeInteger(categoryId) || /\d[.eE]/.test(text));
}
