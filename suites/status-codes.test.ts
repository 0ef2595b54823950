import type { ApiResponse, RequestOptions } from '../src/client/index.ts';
import { type ConformanceContext, conformance, describePet, toPetRecord } from '../src/harness/index.ts';
import { INT64_MAX, stringifyJson } from '../src/text/json.ts';
import {
  TWO_POW_63,
  expectRefused,
  forProfile,
  missingFieldCases,
  newPetBase,
  notAnObjectCases,
  roundingFractionCases,
  WRONG_VALUE_QUICK,
  wrongValueCases,
} from './support/examples-bodies.ts';
import { sendAdvisoryProbe } from './support/advisory-probe.ts';
import { oddCreateBodies, oddReadRequests } from './support/examples-odd-inputs.ts';

/**
 * The status each operation answers. Where the interface is silent (a non-integer petId, another
 * Content-Type) every reasonable answer is accepted; the Error envelope of each refusal is asserted here
 * only where the requirement names it, and is checked on every response by ERR-001 anyway.
 */

conformance(
  'STA-001',
  'createPet answers 201 for a valid NewPet',
  async (ctx: ConformanceContext) => {
    const response = await ctx.client.createPet({ name: ctx.petName(), categoryId: ctx.categoryId(), status: 'available' });
    ctx.expectStatus(response, 201, 'createPet of a valid NewPet');
  },
  { tier: 'quick', writes: true },
);

conformance(
  'STA-002',
  'listPets answers 200 with a valid key',
  async (ctx: ConformanceContext) => {
    const response = await ctx.client.listPets();
    ctx.expectStatus(response, 200, 'listPets');
  },
  // Standard and up: at quick, AUTH-007 sends listPets with the valid key and expects the same 200.
  { tier: 'standard' },
);

conformance(
  'STA-003',
  'getPet answers 200 for an existing animal',
  async (ctx: ConformanceContext) => {
    const pet = await ctx.existingPet();
    const response = await ctx.client.getPet(pet.id);
    ctx.expectStatus(response, 200, `getPet ${pet.id}`);
  },
  // Standard: at quick, CON-001 makes the same create-then-get and judges more of the answer.
  {},
);

conformance(
  'STA-004',
  'getPet answers 404 with an Error body for an id no animal has',
  async (ctx: ConformanceContext) => {
    // Ids near 2^63-1, then random 62-bit ones: a valid server may hand out any int64, so one of these may
    // exist by chance. Only a 200 for every one of them is the server's fault.
    const offset = () => BigInt(Math.floor(ctx.random() * 1_000_000_000));
    const candidates = [INT64_MAX - offset(), INT64_MAX - 2n ** 32n - offset(), 2n ** 62n + offset()];
    const found: bigint[] = [];
    const answers: ApiResponse[] = [];
    for (const id of candidates) {
      const response = await ctx.client.getPet(id);
      answers.push(response);
      if (response.status === 200) {
        found.push(id);
        continue;
      }
      ctx.expectStatus(response, 404, `getPet ${id} (an id no animal is likely to have)`);
      ctx.judge('json-schema', response, { schema: 'Error' }, 'a 404');
      return;
    }
    ctx.fail('404 for at least one of three ids no animal is likely to have', `200 for every one: ${found.join(', ')}`, answers);
  },
  { tier: 'quick' },
);

conformance(
  'STA-005',
  'createPet answers 400 with an Error body when name or categoryId is missing',
  async (ctx: ConformanceContext) => {
    for (const { label, body, shown } of forProfile(ctx, missingFieldCases(newPetBase(ctx)), 1)) {
      const response = await ctx.client.createPet(body);
      expectRefused(ctx, response, { operation: 'createPet', input: `${label} (${shown})` });
    }
  },
  { tier: 'quick', writes: true },
);

conformance(
  'STA-006',
  'createPet answers 400 with an Error body when a field holds an invalid value',
  async (ctx: ConformanceContext) => {
    for (const { label, body, shown } of forProfile(ctx, wrongValueCases(newPetBase(ctx)), WRONG_VALUE_QUICK)) {
      const response = await ctx.client.createPet(body);
      expectRefused(ctx, response, { operation: 'createPet', input: `${label} (${shown})` });
    }
  },
  { tier: 'quick', writes: true },
);

conformance(
  'STA-013',
  'createPet answers 400 for a categoryId whose fraction a binary64 parser cannot see',
  async (ctx: ConformanceContext) => {
    // Still not integers, so the schema's int64 refuses them; but a parser on doubles reads 1 and
    // RFC 8259 §6 lets it limit precision: a SHOULD. A fraction a double keeps (1.5) is STA-006's MUST.
    for (const { label, rawBody } of roundingFractionCases(newPetBase(ctx))) {
      const response = await ctx.client.createPet(undefined, { rawBody });
      expectRefused(ctx, response, { operation: 'createPet', input: label });
    }
  },
  { writes: true },
);

conformance(
  'STA-014',
  'createPet answers 201 to a valid NewPet however it is framed: a charset parameter, chunked, in several writes',
  async (ctx: ConformanceContext) => {
    const framings: Array<{ label: string; options: RequestOptions }> = [
      { label: 'sent as application/json; charset=utf-8', options: { contentType: 'application/json; charset=utf-8' } },
      { label: 'sent chunked (Transfer-Encoding: chunked)', options: { framing: 'chunked' } },
      { label: 'sent in three writes a moment apart (with Content-Length)', options: { framing: 'split' } },
    ];
    // Quick sends the framing most clients use: a charset parameter (browsers, .NET, Java clients).
    for (const { label, options } of forProfile(ctx, framings, 1)) {
      const sent = newPetBase(ctx);
      const response = await ctx.client.createPet(undefined, { ...options, rawBody: stringifyJson(sent) });
      ctx.expectStatus(response, 201, `createPet of a valid NewPet ${label}`);
      ctx.judge('pet-echoes-sent', response, { fields: ['name'] }, `createPet of a valid NewPet ${label}`);
    }
  },
  { tier: 'quick', writes: true },
);

conformance(
  'STA-008',
  'createPet never answers 5xx to a body without Content-Type or not in UTF-8',
  async (ctx: ConformanceContext) => {
    // What status each gets is open: a server may read JSON without a type (201) or refuse it (400, 415),
    // and refuse bytes that are not UTF-8 (400) or decode them leniently (201). Never a 5xx.
    const base = newPetBase(ctx);
    const cases: Array<{ label: string; rawBody: string; options: RequestOptions }> = [
      { label: 'a valid NewPet without Content-Type', rawBody: stringifyJson(base), options: { contentType: null } },
      {
        label: 'a NewPet whose name holds bytes that are not UTF-8 (0xFF 0xFE)',
        rawBody: `{"name":${JSON.stringify(`${base.name} \xff\xfe`)},"categoryId":${base.categoryId}}`,
        options: { bodyEncoding: 'latin1' },
      },
    ];
    // Quick sends the first: frameworks that parse JSON only under its Content-Type hand the handler no body.
    for (const { label, rawBody, options } of forProfile(ctx, cases, 1)) {
      const response = await ctx.client.createPet(undefined, { ...options, rawBody });
      ctx.judge('status-below', response, { limit: 500 }, `createPet of ${label}`);
    }
  },
  { tier: 'quick', writes: true },
);

conformance(
  'STA-007',
  'createPet answers 400 with an Error body when the body is not a JSON object',
  async (ctx: ConformanceContext) => {
    for (const { label, rawBody } of forProfile(ctx, notAnObjectCases(newPetBase(ctx)), 2)) {
      const response = await ctx.client.createPet(undefined, { rawBody });
      expectRefused(ctx, response, { operation: 'createPet', input: label });
    }
  },
  { tier: 'quick', writes: true },
);

conformance(
  'STA-008',
  'createPet never answers 5xx, however odd the body or the query',
  async (ctx: ConformanceContext) => {
    // Any status below 500 is fine here: 400, 413, or 201 where the server chose to accept the oddity.
    for (const { label, rawBody } of oddCreateBodies(ctx)) {
      const response = await ctx.client.createPet(undefined, { rawBody });
      ctx.judge('status-below', response, { limit: 500 }, `createPet of ${label}`);
    }
    // A query the interface does not define for createPet: ignoring it (201) and refusing it (400) are both fine.
    const withQuery = await ctx.client.createPet({ name: ctx.petName('odd query'), categoryId: ctx.categoryId() }, { query: 'debug=1' });
    ctx.judge('status-below', withQuery, { limit: 500 }, 'createPet of a valid NewPet sent with an undefined query parameter (?debug=1)');
  },
  { writes: true },
);

conformance('STA-008', 'listPets and getPet never answer 5xx, however odd the query or path', async (ctx: ConformanceContext) => {
  for (const { label, send } of oddReadRequests()) {
    const response = await send(ctx.client);
    ctx.judge('status-below', response, { limit: 500 }, label);
  }
});

conformance(
  'STA-010',
  'createPet sends a Location header naming the new animal with its 201',
  async (ctx: ConformanceContext) => {
    const response = await ctx.client.createPet({ name: ctx.petName(), categoryId: ctx.categoryId() });
    const pet = response.status === 201 ? toPetRecord(response.body) : undefined;
    if (!pet) ctx.skip(`precondition failed: createPet answered ${response.status}, not 201 with a Pet (see STA-001, SCH-002)`);
    // The id is the 201's own; a relative reference is resolved against the logged request URL (RFC 9110 §10.2.2).
    ctx.judge('location-names-pet', response, {});
  },
  { writes: true },
);

conformance(
  'STA-011',
  'createPet answers 400 or 415 with an Error body for a body that is not application/json',
  async (ctx: ConformanceContext) => {
    const base = newPetBase(ctx);
    const cases = [
      // Valid JSON text under another label: only the Content-Type is wrong.
      { contentType: 'text/plain', rawBody: stringifyJson(base) },
      { contentType: 'application/x-www-form-urlencoded', rawBody: new URLSearchParams({ name: base.name, categoryId: String(base.categoryId) }).toString() },
      // As long as application/json: a server that compares lengths or prefixes lets it through.
      { contentType: 'application/toml', rawBody: stringifyJson(base) },
    ];
    for (const { contentType, rawBody } of forProfile(ctx, cases, 1)) {
      const response = await ctx.client.createPet(undefined, { rawBody, contentType });
      expectRefused(ctx, response, { operation: 'createPet', input: `a body sent as ${contentType}`, statuses: [400, 415] });
    }
  },
  // An advisory (RFC 9110, not the interface): not worth a request of the quick profile.
  { writes: true },
);

conformance(
  'STA-012',
  'getPet answers 400 or 404 for a petId that is not an int64, never 200',
  async (ctx: ConformanceContext) => {
    // Built on an id that exists, so a server that reads petId leniently (parseInt: "7.5" → 7) answers 200.
    // Without one the other probes still run, and the test then says the lenient-parse probes were not sent.
    const setupProblem: { reason?: string } = {};
    const pet = await ctx.existingPet().catch((error: unknown) => {
      setupProblem.reason = error instanceof Error ? error.message : String(error);
      return undefined;
    });
    const near = pet
      ? [
          { label: `petId "${pet.id}.5" (an existing id with a fraction)`, petId: `${pet.id}.5` },
          { label: `petId "${pet.id}abc" (an existing id with trailing letters)`, petId: `${pet.id}abc` },
        ]
      : [];
    const cases = [
      ...near,
      { label: 'petId 2^63 (one past int64)', petId: TWO_POW_63.toString() },
      { label: 'petId "abc"', petId: 'abc' },
      { label: 'petId "1.5"', petId: '1.5' },
      { label: 'petId -2^63-1 (one below int64)', petId: (-TWO_POW_63 - 1n).toString() },
      { label: 'petId "-0x1"', petId: '-0x1' },
    ];
    // Quick sends the two cases most servers get wrong: an existing id with trailing letters (parseInt
    // reads it) and one past int64 (a 64-bit parser overflows into a 500).
    const quickCases = pet ? cases.slice(1) : cases;
    for (const { label, petId } of forProfile(ctx, ctx.run.profile === 'quick' ? quickCases : cases, 2)) {
      const response = await ctx.client.getPet(petId);
      // The Error body of the 400 or 404 is ERR-001's, checked on every response.
      ctx.expectStatus(response, [400, 404], `getPet with ${label}`);
    }
    if (!pet) ctx.skip(`the probes built on an existing id (lenient parsing) were not sent: ${setupProblem.reason ?? 'no pet to read'}`, 'precondition');
  },
  { tier: 'quick' },
);

conformance('STA-016', 'getPet of an id whose digits are percent-encoded answers as for the id itself', async (ctx: ConformanceContext) => {
  // RFC 3986 §2.3: a percent-encoded unreserved character (a digit, "-") is the character itself, so
  // /pets/%31%32 names the same animal as /pets/12. Sent as written: the client would encode the %.
  const pet = await ctx.existingPet();
  const encoded = [...pet.id.toString()].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
  const expected = `GET /pets/${encoded} answers 200 with ${describePet(pet)}, as GET /pets/${pet.id} does`;
  const response = await sendAdvisoryProbe(ctx, { method: 'GET', path: `/pets/${encoded}` }, {}, expected);
  ctx.judge('status-in', response, { allowed: [200] }, expected);
  ctx.judge('pet-is', response, { idFrom: pet.from }, expected);
});

conformance('STA-017', 'listPets with its target in absolute-form is answered as in origin-form', async (ctx: ConformanceContext) => {
  // RFC 9112 §3.2.2: a server MUST accept "GET http://host/v1/pets?limit=1 HTTP/1.1", though clients send
  // that form only to proxies. The limit travels with it: the answer is a list of at most one animal.
  // Without an operation id: a server that does not route it answers what it likes (a 404, a 400), and
  // the checks of listPets' statuses judge only origin-form requests. A target (or a proxy before it)
  // that never answers this form warns here; it never makes the run incomplete.
  const expected = 'GET <target>/pets?limit=1 in absolute-form answers 200 with at most one animal, as in origin-form';
  const response = await sendAdvisoryProbe(ctx, { method: 'GET', path: '/pets', query: 'limit=1' }, { absoluteForm: true }, expected);
  ctx.judge('status-in', response, { allowed: [200] }, expected);
  ctx.judge('list-length', response, { max: 1 }, expected);
  // An absolute-form target no URL parser accepts (its authority a lone "["): RFC 9112 §3.2 has it refused
  // with a 400; a 404, or the list read from its path, are as good. A server that hands the request line to
  // new URL() unguarded answers 500.
  const malformedExpected = 'GET http://[/v1/pets (an absolute-form target whose authority is malformed) answers below 500';
  const malformed = await sendAdvisoryProbe(ctx, { method: 'GET', path: '/pets' }, { absoluteForm: { authority: '[' } }, malformedExpected);
  ctx.judge('status-below', malformed, { limit: 500 }, malformedExpected);
});

conformance(
  'STA-018',
  'createPet answers 201 to a valid NewPet sent as "application/json ; charset=utf-8"',
  async (ctx: ConformanceContext) => {
    // RFC 9110 §8.3.1 lets whitespace stand before a media type's ";". Parsers that take the type up to the
    // first space, or match "application/json;" literally, refuse it: a warning, never a failure.
    const sent = newPetBase(ctx);
    const expected = `createPet of a valid NewPet sent as "application/json ; charset=utf-8" answers 201`;
    const response = await ctx.client.createPet(undefined, { contentType: 'application/json ; charset=utf-8', rawBody: stringifyJson(sent) });
    ctx.judge('status-in', response, { allowed: [201] }, expected);
  },
  { writes: true },
);
