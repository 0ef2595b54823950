import { realisticPetName } from '../src/arbitraries/index.ts';
import type { ApiResponse } from '../src/client/index.ts';
import { type ConformanceContext, conformance, toPetRecord } from '../src/harness/index.ts';
import { unlikelyPetId } from './support/auth-operations.ts';
import { type Asker, FINGERPRINTS, expectAlike, shapeOf } from './support/fingerprints.ts';
import { holdConnection, holdRequests } from './support/held-connection.ts';
import { CURL, type RawAuth, askRaw, otherRoutes, wrongKey } from './support/other-stacks.ts';

/**
 * The interface's behaviour does not depend on who asks. A server that recognises the suite (its
 * User-Agent, its pet names) and answers it alone correctly would pass every other test: here the
 * deciding requests go again as other clients send them, and must be answered alike: over undici with
 * another User-Agent, and by a second HTTP stack writing curl's and a browser's own header order, each
 * on a fresh connection (and through a second vantage point, --vantage-proxy, when one is given).
 */

const AS_THE_SUITE = 'as the suite sends it';

conformance(
  'CON-004',
  'listPets and getPet answer alike with no User-Agent, as curl and as a browser',
  async (ctx: ConformanceContext) => {
    const list = (headers?: Record<string, string>) => ctx.client.listPets({ limit: 1 }, headers ? { headers } : {});
    const suiteList: Asker = { label: AS_THE_SUITE, send: () => list(), shape: (r) => shapeOf(r) };
    const baseline = await suiteList.send();
    for (const fingerprint of FINGERPRINTS) {
      await expectAlike(
        ctx,
        'listPets?limit=1',
        suiteList,
        { label: fingerprint.label, send: () => list(fingerprint.headers), shape: (r) => shapeOf(r) },
        baseline,
      );
    }
    // An error answer too: a server that serves strangers 404s it serves the suite otherwise is no better.
    const id = unlikelyPetId(ctx);
    const curl = FINGERPRINTS[1]!;
    const get = (headers?: Record<string, string>) => ctx.client.getPet(id, headers ? { headers } : {});
    await expectAlike(
      ctx,
      `getPet of an unknown id`,
      { label: AS_THE_SUITE, send: () => get(), shape: (r) => shapeOf(r) },
      { label: curl.label, send: () => get(curl.headers), shape: (r) => shapeOf(r) },
    );
  },
  // Quick's sample of this requirement is the createPet pair below, sent with no User-Agent.
  { tier: 'standard' },
);

conformance(
  'CON-004',
  'createPet and getPet answer alike for a pet named as people name pets, sent with no User-Agent',
  async (ctx: ConformanceContext) => {
    const categoryId = ctx.categoryId();
    const tagged = { name: ctx.petName(), categoryId, status: 'available' };
    // Sent with no User-Agent too: the pet looks like any other client's in every respect a server could read.
    const plain = { name: realisticPetName(ctx.random), categoryId, status: 'available' };
    const bare = FINGERPRINTS[0]!;
    const created: Record<'suite' | 'plain', ApiResponse | undefined> = { suite: undefined, plain: undefined };
    const create = (which: 'suite' | 'plain') => async () => {
      const response = which === 'suite' ? await ctx.client.createPet(tagged) : await ctx.client.createPet(plain, { headers: bare.headers });
      created[which] = response;
      return response;
    };
    await expectAlike(
      ctx,
      'createPet of a valid NewPet',
      {
        label: `${AS_THE_SUITE}, named ${JSON.stringify(tagged.name)}`,
        send: create('suite'),
        shape: (r) => shapeOf(r, tagged),
        sentFrom: (r) => r.exchange.seq,
      },
      { label: `${bare.label}, named ${JSON.stringify(plain.name)}`, send: create('plain'), shape: (r) => shapeOf(r, plain), sentFrom: (r) => r.exchange.seq },
    );
    const suitePet = toPetRecord(created.suite?.body);
    const plainPet = toPetRecord(created.plain?.body);
    // Both refused alike (a category the target does not know) leaves nothing to read back.
    if (!suitePet || !plainPet || !created.suite || !created.plain) return;
    const [suiteSent, plainSent] = [created.suite.exchange.seq, created.plain.exchange.seq];
    if (ctx.run.profile === 'quick') ctx.observable(false, 'the quick profile does not read the pets back: --profile standard does', 'profile');
    if (ctx.run.profile === 'quick') return;
    await expectAlike(
      ctx,
      'getPet of the pet just added',
      { label: AS_THE_SUITE, send: () => ctx.client.getPet(suitePet.id), shape: (r) => shapeOf(r, tagged), sentFrom: () => suiteSent },
      {
        label: bare.label,
        send: () => ctx.client.getPet(plainPet.id, { headers: bare.headers }),
        shape: (r) => shapeOf(r, plain),
        sentFrom: () => plainSent,
      },
    );
  },
  { tier: 'quick', writes: true },
);

conformance(
  'CON-004',
  'the deciding requests answered alike when curl and a browser write them, each on a fresh connection, with a key and without',
  async (ctx: ConformanceContext) => {
    // A second HTTP stack, not undici with another User-Agent: undici's wire shape (a lower-case `host`
    // first, then `connection`) is a fingerprint of its own. A wrong key and no key are among the
    // deciding requests: a server that serves other clients without checking their key fails here.
    const wrong = wrongKey();
    const id = unlikelyPetId(ctx);
    const wrongAuth = { value: `Bearer ${wrong}`, shown: `Bearer ${wrong}`, display: 'Bearer <a key the target never issued>' };
    const deciding: ReadonlyArray<{ what: string; path: string; auth: RawAuth; send: () => Promise<ApiResponse> }> = [
      { what: 'listPets?limit=1', path: '/pets?limit=1', auth: 'valid', send: () => ctx.client.listPets({ limit: 1 }) },
      { what: 'listPets?limit=1 without a key', path: '/pets?limit=1', auth: 'none', send: () => ctx.client.listPets({ limit: 1 }, { auth: 'none' }) },
      {
        what: 'getPet with a key the target never issued',
        path: `/pets/${id}`,
        auth: 'wrong',
        send: () => ctx.client.getPet(id, { auth: wrongAuth }),
      },
    ];
    // Each request goes as one of the two clients (curl: the lists, Chrome: the getPet), each with a request
    // a server must refuse: at half the requests, which standard's budget needs.
    const routes = otherRoutes(ctx.run.network);
    for (const request of deciding) {
      const suite: Asker = { label: AS_THE_SUITE, send: request.send, shape: (r) => shapeOf(r) };
      const baseline = await suite.send();
      for (const route of routes.filter((r) => (r.shape === CURL) === request.path.startsWith('/pets?'))) {
        const label = route.via === undefined ? route.shape.label : `${route.shape.label}, ${route.via}`;
        await expectAlike(
          ctx,
          request.what,
          suite,
          { label, send: () => askRaw(ctx, route, request.path, request.auth, wrong), shape: (r) => shapeOf(r) },
          baseline,
        );
      }
    }
  },
  { tier: 'standard' },
);

conformance(
  'CON-004',
  'the deciding requests answered alike on a keep-alive connection held open for a while and on a fresh one',
  async (ctx: ConformanceContext) => {
    // A target may treat old connections apart (one seen answered 500 on connections older than 40 s);
    // the suite's own pool keeps none that long. The hold is --hold-connection (0: not at all).
    const holdMs = ctx.run.holdConnectionMs;
    if (holdMs === 0) ctx.skip('--hold-connection 0: no connection is held', 'not-selected');
    const needed = holdRequests(holdMs) + 4;
    const left = ctx.budgetLeft();
    if (left !== undefined && left < needed) ctx.skip(`holding a connection needs about ${needed} requests; ${left} left in the budget`, 'budget');
    const wrong = wrongKey();
    const id = unlikelyPetId(ctx);
    const route = { shape: CURL, network: ctx.run.network };
    const held = await holdConnection(ctx, route, holdMs, wrong);
    try {
      const label = held.kept
        ? `on a keep-alive connection open for ${heldFor(held.ageMs)}`
        : 'on the connection the target kept longest (it would not keep one for the hold)';
      const deciding: ReadonlyArray<{ what: string; path: string; auth: RawAuth }> = [
        // The keep-alive requests were valid lists on it: the requests a server must refuse are asked again.
        { what: 'listPets?limit=1 without a key', path: '/pets?limit=1', auth: 'none' },
        { what: 'getPet with a key the target never issued', path: `/pets/${id}`, auth: 'wrong' },
      ];
      for (const request of deciding) {
        const fresh: Asker = { label: 'on a fresh connection', send: () => askRaw(ctx, route, request.path, request.auth, wrong), shape: (r) => shapeOf(r) };
        const old: Asker = { label, send: () => held.ask(request.path, request.auth), shape: (r) => shapeOf(r) };
        await expectAlike(ctx, request.what, fresh, old);
      }
    } finally {
      held.close();
    }
  },
  { tier: 'standard' },
);

/** A hold's age as a report reads it: whole seconds, or tenths below ten (the embedded hold is a quarter second). */
function heldFor(ageMs: number): string {
  return ageMs < 10_000 ? `${(ageMs / 1000).toFixed(1)} s` : `${Math.round(ageMs / 1000)} s`;
}
