import { toBigInt } from '../../text/json.ts';
import { type RuleExchange, type RuleResult, fails, isObject, isPetShaped, sentBody } from './rule-kit.ts';

/**
 * A rule's params are the report's; the traffic is the log's. Where a param restates something the log
 * records (the id a getPet asked for, the fields a createPet sent, a list's filter or limit), the rule
 * holds only if the two agree, so a report edited to expect what a faulty server answered is refused
 * when re-judged. The suite always builds such params from the exchanges it sent, so they agree on
 * every authentic run.
 */

/** The fields of an animal a rule may compare with, as the log records them. */
export interface LoggedPet {
  name?: string;
  categoryId?: bigint;
  status?: string;
}

/** The path of a recorded URL, undefined when it does not parse. */
export function pathOf(url: string): string | undefined {
  try {
    return new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/**
 * The id a getPet request's path names: /pets/{id}, its digits as sent or percent-encoded (RFC 3986
 * §2.3: /pets/%31%32 is /pets/12). Undefined for any other request, or a path segment that is no integer.
 */
export function requestedPetId(e: Pick<RuleExchange, 'url' | 'method'>): bigint | undefined {
  if (e.method !== undefined && e.method !== 'GET') return undefined;
  const segment = /\/pets\/([^/]+)$/.exec(pathOf(e.url) ?? '')?.[1];
  if (segment === undefined) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return /^-?\d{1,20}$/.test(decoded) ? BigInt(decoded) : undefined;
}

/** A query parameter of the recorded request (the first, when repeated). */
export function queryParam(e: Pick<RuleExchange, 'url'>, name: string): string | undefined {
  try {
    return new URL(e.url).searchParams.get(name) ?? undefined;
  } catch {
    return undefined;
  }
}

/** A list of the whole store, to count it from: listPets with limit=100 and no filter (a shorter page or a filtered list holds fewer). */
export function listsWholeStore(e: Pick<RuleExchange, 'url' | 'operationId'>): boolean {
  return e.operationId === 'listPets' && queryParam(e, 'limit') === '100' && queryParam(e, 'status') === undefined;
}

/**
 * The exact integer a JSON number's text denotes (1e3 is 1000, 9007199254740993.0 is 2^53+1), or
 * undefined when it has a fraction. The parsed body holds such a number as a double, which may round it.
 */
export function exactInteger(text: string): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  if (!Number.isSafeInteger(exponent) || exponent > 400) return undefined;
  let digits = BigInt(`${whole}${fraction}`);
  if (exponent >= 0) digits *= 10n ** BigInt(exponent);
  else {
    const divisor = 10n ** BigInt(-exponent);
    if (digits % divisor !== 0n) return undefined;
    digits /= divisor;
  }
  return sign === '-' ? -digits : digits;
}

/** An integer field of the request body, exactly as written (see exactInteger); undefined when there is none. */
function sentInteger(e: RuleExchange, sent: Record<string, unknown>, field: string): bigint | undefined {
  const value = sent[field];
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) return toBigInt(value);
  if (typeof value !== 'number') return undefined;
  // A double: read the digits written (the body is JSON with no duplicated key, so the field is written once).
  const written = new RegExp(`"${field}"\\s*:\\s*(-?\\d[\\d.eE+-]*)`).exec(e.requestText ?? '')?.[1];
  return written === undefined ? undefined : exactInteger(written);
}

/**
 * The animal an exchange of the log introduced, as the suite records it for a later comparison: what a
 * createPet sent (its status as answered when it sent none), or the first Pet a list answered (an
 * existing animal, in read-only mode). Undefined when the log does not hold it readably (a body it cut).
 */
export function loggedPet(source: RuleExchange): LoggedPet | undefined {
  if (source.method === 'POST' || source.operationId === 'createPet') {
    const sent = sentBody(source);
    if (!sent) return undefined;
    const answered = isObject(source.body) && typeof source.body.status === 'string' ? source.body.status : undefined;
    const status = typeof sent.status === 'string' ? sent.status : answered;
    const categoryId = sentInteger(source, sent, 'categoryId');
    return {
      ...(typeof sent.name === 'string' ? { name: sent.name } : {}),
      ...(categoryId !== undefined ? { categoryId } : {}),
      ...(status !== undefined ? { status } : {}),
    };
  }
  const pet = Array.isArray(source.body) ? source.body.find(isPetShaped) : undefined;
  if (!pet) return undefined;
  const categoryId = toBigInt(pet.categoryId);
  return {
    name: pet.name as string,
    ...(categoryId !== undefined ? { categoryId } : {}),
    ...(typeof pet.status === 'string' ? { status: pet.status } : {}),
  };
}

export const PET_FIELDS = ['name', 'categoryId', 'status'] as const;

/** The Pet fields a request's body sent (a createPet's), undefined when it sent no JSON object. */
export function sentPetFields(e: RuleExchange): Array<(typeof PET_FIELDS)[number]> | undefined {
  const sent = sentBody(e);
  return sent ? PET_FIELDS.filter((field) => field in sent) : undefined;
}

/**
 * Where a field params give differs from that of the animal the log names (`logged`, read from `where`):
 * the failure that says so, or undefined when they agree. A field the log does not hold is not compared
 * (giving one only makes the judgment stricter; leaving one out is coverage.ts's to refuse).
 */
export function unloggedField(params: Record<string, unknown>, logged: LoggedPet, where: string): RuleResult | undefined {
  for (const field of PET_FIELDS) {
    const given = params[field];
    const value = logged[field];
    if (given === undefined || value === undefined) continue;
    const same = field === 'categoryId' ? typeof given === 'string' && /^-?\d{1,20}$/.test(given) && BigInt(given) === value : given === value;
    if (!same) {
      return fails(`the ${field} the log records (${where})`, `the judgment compares with ${field} ${String(given)}, where ${where} has ${String(value)}`);
    }
  }
  return undefined;
}

/** A getPet judged against the animal of `seq` that asked for another id: the judgment names the wrong animal. */
export function otherAnimalRequested(e: RuleExchange, id: bigint, seq: number): RuleResult | undefined {
  const requested = requestedPetId(e);
  if (requested === undefined || requested === id) return undefined;
  return fails(`getPet of the animal #${seq} answered (id ${id})`, `the request asked for id ${requested}`);
}
