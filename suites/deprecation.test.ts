import { describe } from 'vitest';
import type { ApiResponse } from '../src/client/index.ts';
import { type ConformanceContext, type SourcedPet, conformance, describePet } from '../src/harness/index.ts';
import { HarnessError } from '../src/errors.ts';
import { failOnFinding } from './support/findings.ts';

/** Statuses a removed getPet may answer once its sunset has passed (the catalog's open question). */
const REMOVED = [200, 404, 410];

interface Observation {
  pet: SourcedPet;
  response: ApiResponse;
  /** Epoch ms of getPet's removal, from the spec's x-sunset. */
  sunset: number;
}

function sunsetOf(ctx: ConformanceContext): number {
  const raw = ctx.contract.operations.find((op) => op.operationId === 'getPet')?.sunset;
  const epoch = raw === undefined ? Number.NaN : Date.parse(raw);
  if (Number.isNaN(epoch)) throw new HarnessError('ERR_SPEC', 'spec/openapi.yaml gives getPet no valid x-sunset');
  return epoch;
}

const day = (epoch: number): string => new Date(epoch).toISOString().slice(0, 10);

describe('deprecation', () => {
  // One pet and one getPet for the whole file: every test here reads the same response.
  let pending: Promise<Observation> | undefined;
  const observe = (ctx: ConformanceContext): Promise<Observation> =>
    (pending ??= (async () => {
      const pet = await ctx.existingPet();
      return { pet, response: await ctx.client.getPet(pet.id), sunset: sunsetOf(ctx) };
    })());

  /** The getPet 200 whose headers the SHOULDs judge; skipped when getPet did not answer 200. */
  async function deprecatedResponse(ctx: ConformanceContext): Promise<ApiResponse> {
    const { response, sunset } = await observe(ctx);
    if (response.status !== 200) {
      const why = Date.now() >= sunset ? 'getPet has been removed after its sunset' : 'see DEP-001';
      ctx.skip(`getPet of an existing pet answered ${response.status}, not 200 (${why})`);
    }
    return response;
  }

  conformance(
    'DEP-001',
    'getPet returns the stored animal until 5 December 2030',
    async (ctx: ConformanceContext) => {
      const { pet, response, sunset } = await observe(ctx);
      if (Date.now() >= sunset) {
        ctx.expectStatus(response, REMOVED, `getPet after its sunset on ${day(sunset)}`);
        if (response.status !== 200) return;
      } else {
        ctx.expectStatus(response, 200, `getPet of ${describePet(pet)} before its sunset on ${day(sunset)}`);
      }
      // The id is read from the exchange that gave it. Status is compared only when both sides have one:
      // its default on creation is open (SCH-007).
      const fields = { idFrom: pet.from, name: pet.name, categoryId: String(pet.categoryId) };
      ctx.judge(
        'pet-is',
        response,
        pet.status === undefined ? fields : { ...fields, status: pet.status, statusIfAnswered: true },
        `the stored animal ${describePet(pet)}`,
      );
    },
    { tier: 'quick' },
  );

  conformance(
    'DEP-002',
    'a Sunset header, if sent, is an HTTP-date, and on getPet names 5 December 2030',
    async (ctx: ConformanceContext) => {
      const { response } = await observe(ctx);
      // The always-on check holds the rule (an HTTP-date naming the day: RFC 8594's syntax, which is what a
      // client reading the field parses); this test makes sure it runs on a getPet response. Without the
      // header there is nothing to contradict.
      failOnFinding(ctx, response);
    },
    { tier: 'quick' },
  );

  conformance(
    'DEP-007',
    'a Deprecation header on getPet, if sent, is a Structured Date no later than Sunset',
    async (ctx: ConformanceContext) => {
      const { response } = await observe(ctx);
      // The always-on check holds the rule (RFC 9745's @<unix seconds>, Sunset not earlier); this test
      // makes sure it runs on a getPet response. Without the header, DEP-003 is the one that fails.
      failOnFinding(ctx, response);
    },
    { tier: 'quick' },
  );

  conformance(
    'DEP-003',
    'getPet carries a Deprecation header',
    async (ctx: ConformanceContext) => {
      const response = await deprecatedResponse(ctx);
      // RFC 9745 §2: an sf-date, "@" and Unix seconds; earlier drafts sent "true" or an HTTP-date.
      ctx.judge('deprecation-header', response, {});
    },
    { tier: 'quick' },
  );

  conformance(
    'DEP-004',
    'getPet carries Sunset: Thu, 05 Dec 2030 00:00:00 GMT',
    async (ctx: ConformanceContext) => {
      // The day is the spec's x-sunset of getPet, which the rule reads from the contract.
      ctx.judge('sunset-names-day', await deprecatedResponse(ctx), {});
    },
    { tier: 'quick' },
  );

  conformance(
    'DEP-005',
    'getPet carries a Link to its replacement or to the deprecation notice',
    async (ctx: ConformanceContext) => {
      // A rel to the replacement or to the deprecation notice (RFC 9745 §3, RFC 5829).
      ctx.judge('deprecation-link', await deprecatedResponse(ctx), {});
    },
    { tier: 'quick' },
  );

  conformance(
    'DEP-006',
    'listPets and createPet, which are not deprecated, carry no Deprecation, Sunset or deprecating Link',
    async (ctx: ConformanceContext) => {
      // The always-on check holds the rule on every response; this test makes sure it runs on both operations.
      failOnFinding(ctx, await ctx.client.listPets({ limit: 1 }));
      // Half of the requirement is createPet: in read-only mode it is not seen, so the test is not a pass.
      ctx.observable(!ctx.run.readOnly, 'read-only mode: createPet is not sent, so whether it carries Deprecation or Sunset is not seen', 'read-only');
      if (ctx.run.readOnly) return;
      failOnFinding(ctx, await ctx.client.createPet({ name: ctx.petName(), categoryId: ctx.categoryId() }));
    },
    // A SHOULD: the quick profile spends its requests on MUSTs. Its always-on check still sees quick's
    // listPets and createPet answers.
    {},
  );
});
