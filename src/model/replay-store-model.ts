import { readJson, toBigInt } from '../text/json.ts';
import { CreatePetCommand, type NewPetBody } from './create-pet-command.ts';
import { GetPetCommand } from './get-pet-command.ts';
import { GetUnknownPetCommand } from './get-unknown-pet-command.ts';
import { LIST_LIMIT, ListPetsCommand } from './list-pets-command.ts';
import type { StoreAnswer, StoreReal } from './pet-store.ts';
import { type StoreModel, createStoreModel } from './store-model.ts';

/** One exchange of a model run as the exchange log keeps it. */
export interface RecordedStep {
  /** createPet, getPet or listPets, as recorded. */
  operationId: string | undefined;
  url: string;
  /** The request body as sent (createPet's). */
  requestText: string | undefined;
  answer: StoreAnswer;
  /** The log cut the body: a list is then not judged (lists change nothing the model holds). */
  bodyCut?: boolean;
}

/** Where a replay disagrees with the model: the step, and the failure as the command states it. */
export interface ReplayFailure {
  failedAt: number;
  expected: string;
  actual: string;
}

class Disagreement extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`${expected}: ${actual}`);
  }
}

/**
 * Runs the model again over a recorded sequence: each step is judged by the command that sent it (a
 * createPet of its body, a getPet of one of the run's pets or of an id the run never created, a listPets
 * of its filter) on the recorded answer, exactly as it judged live, so a run that failed live fails here
 * at the same step. A step no command of the model sends (another operation, a name without the run's
 * tag, another page size) fails too. A list whose body the log cut is not judged: lists change nothing
 * the model holds, so the steps after it are still judged. Undefined when every step agrees.
 */
export function replayStoreModel(steps: readonly RecordedStep[], tag: string): ReplayFailure | undefined {
  const model = createStoreModel(tag);
  const real: StoreReal = {
    store: { createPet: refuse, getPet: refuse, listPets: refuse },
    fail: (expected, actual) => {
      throw new Disagreement(expected, actual);
    },
  };
  for (const [index, step] of steps.entries()) {
    try {
      judgeStep(step, model, real);
    } catch (error) {
      if (error instanceof Disagreement) return { failedAt: index, expected: error.expected, actual: error.actual };
      throw error;
    }
  }
  return undefined;
}

/** A replay sends nothing: every answer is the recorded one. */
async function refuse(): Promise<never> {
  throw new Error('a replay sends no request');
}

/** Judges one recorded step with the command that sent it. */
function judgeStep(step: RecordedStep, model: StoreModel, real: StoreReal): void {
  const { answer } = step;
  if (step.operationId === 'createPet') {
    const reading = step.requestText === undefined ? undefined : readJson(step.requestText);
    const sent = reading?.ok && isObject(reading.value) ? reading.value : undefined;
    const name = sent?.name;
    if (!sent || typeof name !== 'string' || !name.startsWith(model.tag)) {
      real.fail(`a createPet of a pet named with the run's tag ${JSON.stringify(model.tag)}`, `the request body ${step.requestText ?? '(none)'}`);
    }
    // Integers as the commands hold them (bigint), whatever size the JSON reader gave them.
    const body = { ...sent, categoryId: toBigInt(sent.categoryId) ?? sent.categoryId } as NewPetBody;
    return new CreatePetCommand({ ...body, name: name.slice(model.tag.length) }).judge(model, body, answer, real);
  }
  if (step.operationId === 'getPet') {
    const id = idOf(step.url);
    if (id === undefined) real.fail('a getPet of an int64 id', `the request ${step.url}`);
    const index = [...model.pets.keys()].indexOf(id);
    if (index >= 0) return new GetPetCommand(index).judge(model, id, answer, real);
    return new GetUnknownPetCommand(id).judge(model, answer, real);
  }
  if (step.operationId === 'listPets') {
    const query = queryOf(step.url);
    if (query?.get('limit') !== String(LIST_LIMIT)) real.fail(`a listPets of limit ${LIST_LIMIT}`, `the request ${step.url}`);
    if (step.bodyCut) return;
    return new ListPetsCommand(query.get('status') ?? undefined).judge(model, answer, real);
  }
  real.fail('a createPet, getPet or listPets', `the request ${step.url} (${step.operationId ?? 'no operation'})`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function queryOf(url: string): URLSearchParams | undefined {
  try {
    return new URL(url).searchParams;
  } catch {
    return undefined;
  }
}

/** The petId of a getPet's URL: the last path segment, an integer. */
function idOf(url: string): bigint | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const segment = path.slice(path.lastIndexOf('/') + 1);
  if (!/^-?\d{1,20}$/.test(segment)) return undefined;
  return BigInt(segment);
}
