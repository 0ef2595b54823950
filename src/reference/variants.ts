import { HarnessError } from '../errors.ts';
import type { ReferenceOptions } from './reference-options.ts';
import { ERROR_KINDS } from './replies.ts';
import { unknownNameMessage } from '../text/nearest-names.ts';

/**
 * Valid variants: liberties the interface leaves open (docs/architecture.md, "What the interface leaves
 * open"). A correct suite passes every one of them (in its default, non-strict mode); they keep the
 * suite from growing opinions.
 */
export interface VariantDefinition<Name extends string = string> {
  readonly name: Name;
  readonly description: string;
  readonly options: Readonly<ReferenceOptions>;
  /** What the suite must be told to test this server, e.g. the category ids it may use. */
  readonly suiteConfig?: { readonly categoryIds?: readonly string[] };
  /** SHOULD requirements the variant gives up: warnings in a normal run, failures under --strict. */
  readonly warns?: readonly string[];
}

const KNOWN_CATEGORIES = Array.from({ length: 10 }, (_, i) => BigInt(i + 1));

function variant<const Name extends string>(definition: VariantDefinition<Name>): VariantDefinition<Name> {
  return definition;
}

export const VARIANTS = [
  variant({
    name: 'limit-clamped',
    description: 'An out-of-range or non-integer limit is clamped to 1..100 (abc → 20) and answered 200.',
    options: { invalidLimit: 'clamp' },
  }),
  variant({
    name: 'limit-default',
    description: 'An out-of-range or non-integer limit is read as absent: 200 with the default page of 20.',
    options: { invalidLimit: 'default' },
  }),
  variant({
    name: 'unknown-status-empty',
    description: 'A status filter outside PetStatus answers 200 with an empty list.',
    options: { unknownStatusFilter: 'empty' },
  }),
  variant({
    name: 'default-status-available',
    description: 'A pet created without status gets status "available".',
    options: { defaultStatus: 'available' },
  }),
  variant({
    name: 'extra-pet-fields',
    description: 'Every Pet carries createdAt and tags besides the fields of the interface.',
    options: { extraPetFields: true },
  }),
  variant({
    name: 'custom-error-codes',
    description: 'Error codes are ERR_UPPER_CASE strings instead of snake_case.',
    options: { errorCodes: Object.fromEntries(ERROR_KINDS.map((kind) => [kind, `ERR_${kind.toUpperCase()}`])) },
  }),
  variant({
    name: 'petid-not-found',
    description: 'A petId that is not an int64 answers 404 instead of 400.',
    options: { invalidPetIdStatus: 404 },
  }),
  variant({
    name: 'content-type-400',
    description: 'A createPet body that is not application/json answers 400 instead of 415.',
    options: { wrongContentTypeStatus: 400 },
  }),
  variant({
    name: 'retry-after-http-date',
    description: 'Retry-After is an HTTP-date instead of delay-seconds.',
    options: { retryAfterFormat: 'http-date' },
  }),
  variant({
    name: 'sliding-log-window',
    description:
      'The per-minute limit is a sliding log: a request is served while fewer than the limit were served in the window before it; Reset and Retry-After name when the oldest of them leaves.',
    options: { rateLimiter: 'sliding-log' },
  }),
  variant({
    name: 'plain-429-body',
    description: '429 responses carry a plain JSON message, {"message": "Too Many Requests"}, instead of the Error body.',
    options: { rateLimitedBody: 'message' },
    warns: ['ERR-004'],
  }),
  variant({
    name: 'no-deprecation-headers',
    description: 'getPet sends no Deprecation, Sunset or Link header: the interface says getPet is deprecated, not how that is shown.',
    options: { deprecationHeaders: false },
    warns: ['DEP-003', 'DEP-004', 'DEP-005'],
  }),
  variant({
    name: 'newest-first',
    description: 'listPets returns the newest pets first.',
    options: { listOrder: 'newest-first' },
  }),
  variant({
    name: 'ids-above-2-53',
    description: 'Ids start at 2^60, beyond the integers a double holds exactly.',
    options: { idStart: 2n ** 60n },
  }),
  variant({
    name: 'random-ids',
    description: 'Ids are random int64 values, negative ones included.',
    options: { idScheme: 'random' },
  }),
  variant({
    name: 'restricted-categories',
    description: 'Only categories 1 to 10 exist; any other categoryId answers 400.',
    options: { categoryIds: KNOWN_CATEGORIES },
    suiteConfig: { categoryIds: KNOWN_CATEGORIES.map(String) },
  }),
  variant({
    name: 'integer-forms-refused',
    description: 'A categoryId written with an exponent or a zero fraction (1e3, 1000.0) answers 400; only digits are read.',
    options: { numberForms: 'refuse' },
    warns: ['INT-005'],
  }),
  variant({
    name: 'bounded-names',
    description: 'Names must be 1 to 50 characters long (a common bound); others answer 400.',
    options: { nameLength: { min: 1, max: 50 } },
  }),
  variant({
    name: 'undefined-fields-refused',
    description: 'A NewPet with a field the interface does not define (colour, id…) answers 400, as a closed schema does.',
    options: { undefinedNewPetFields: 'refuse' },
  }),
  variant({
    name: 'undefined-parameters-refused',
    description: 'listPets and getPet answer 400 to a query parameter they do not define, as a validating framework does.',
    options: { undefinedQueryParameters: 'refuse' },
  }),
  variant({
    name: 'prefixed-base-path',
    description: 'The base path is /api/animal-store/v1.',
    options: { basePath: '/api/animal-store/v1' },
  }),
  variant({
    name: 'prefilled-store',
    description: 'The store already holds 500 pets of other people.',
    options: { seedPets: 500 },
  }),
  variant({
    name: 'slow-responses',
    description: 'Every response is delayed by 25 ms.',
    options: { delayMs: 25 },
  }),
  variant({
    name: 'connection-close',
    description: 'Every response carries Connection: close; no connection is reused.',
    options: { connectionClose: true },
  }),
  variant({
    name: 'no-ietf-ratelimit-fields',
    description: 'Only X-RateLimit-* is sent: no IETF RateLimit or RateLimit-Policy field (the draft is not in the interface).',
    options: { ietfRateLimitFields: false },
  }),
  variant({
    name: 'chunked-bodies',
    description: 'Response bodies use chunked transfer coding, without Content-Length.',
    options: { chunked: true },
  }),
] as const satisfies readonly VariantDefinition[];

export type VariantName = (typeof VARIANTS)[number]['name'];

export const VARIANT_NAMES: readonly VariantName[] = Object.freeze(VARIANTS.map((v) => v.name));

/**
 * The options of several variants together (add your own keys, clock, port… on top). Two variants
 * that set one option differently cannot be combined.
 */
export function combineVariants(...names: readonly VariantName[]): ReferenceOptions {
  return mergeVariantOptions(
    names.map((name) => {
      const found = VARIANTS.find((v) => v.name === name);
      if (!found) throw new HarnessError('ERR_CONFIG', unknownNameMessage('variant', name, VARIANT_NAMES));
      return found;
    }),
  );
}

export function mergeVariantOptions(variants: readonly VariantDefinition[]): ReferenceOptions {
  const combined: Record<string, unknown> = {};
  const setBy = new Map<string, string>();
  for (const variant of variants) {
    for (const [option, value] of Object.entries(variant.options)) {
      const previous = setBy.get(option);
      if (previous !== undefined && combined[option] !== value) {
        throw new HarnessError('ERR_CONFIG', `variants ${previous} and ${variant.name} both set ${option}`);
      }
      combined[option] = value;
      setBy.set(option, variant.name);
    }
  }
  return combined as ReferenceOptions;
}
