import { INT64_MAX, INT64_MIN, stringifyJson, toBigInt } from '../../text/json.ts';
import { differences } from '../../model/store-model.ts';
import { describePet, toPetRecord } from '../../model/pets.ts';
import { bounds, within } from './response-rules.ts';
import { loggedPet, otherAnimalRequested, pathOf, unloggedField } from './log-anchors.ts';
import {
  type ExchangeLookup,
  type JudgmentRule,
  type RuleExchange,
  type RuleResult,
  arrayBody,
  bad,
  describeBody,
  fails,
  holds,
  idFrom,
  isObject,
  numberParam,
  sameValue,
  sentBody,
  shown,
  stringList,
} from './rule-kit.ts';

/** Rules on a Pet or a list of them, compared with what the log records the test sent or learnt. */
export const PET_RULES: readonly JudgmentRule[] = [
  {
    name: 'list-count-of-id',
    readsBody: true,
    judge(e, params, _contract, lookup) {
      const source = idFrom(params, lookup);
      const min = numberParam(params.min);
      const max = numberParam(params.max);
      if (!source || (min === undefined && max === undefined)) return bad('list-count-of-id');
      if ('failure' in source) return source.failure;
      const { id } = source;
      const expected = `a list holding id ${id} ${bounds(min, max)} time${(max ?? min) === 1 ? '' : 's'}`;
      const list = arrayBody(e);
      if (!list) return fails(expected, `status ${e.status} with ${describeBody(e)}`);
      const count = list.filter((item) => isObject(item) && toBigInt(item.id) === id).length;
      return within(count, min, max) ? holds(expected) : fails(expected, `id ${id} listed ${count} times in ${list.length} items`);
    },
  },
  {
    name: 'pet-echoes-sent',
    readsBody: true,
    judge(e, params) {
      const fields = stringList(params.fields)?.filter((f) => f === 'name' || f === 'categoryId' || f === 'status');
      if (!fields || fields.length === 0) return bad('pet-echoes-sent');
      const sent = sentBody(e);
      if (!sent) return fails('a request body that is a JSON object', 'none recorded');
      const expected = `a Pet echoing the ${fields.join(', ')} sent`;
      if (!isObject(e.body)) return fails(expected, describeBody(e));
      const body = e.body;
      const differ = fields.filter((f) => f in sent && !sameValue(body[f], sent[f]));
      const absent = fields.filter((f) => !(f in sent) && f !== 'status');
      if (absent.length > 0) return fails(expected, `the request sent no ${absent.join(', ')}`);
      return differ.length === 0
        ? holds(expected)
        : fails(expected, differ.map((f) => `${f} ${shown(stringifyJson(body[f] ?? null), 60)} for ${shown(stringifyJson(sent[f] ?? null), 60)}`).join(', '));
    },
  },
  {
    name: 'pet-id-not-sent',
    readsBody: true,
    judge(e) {
      const sent = sentBody(e);
      const id = sent ? toBigInt(sent.id) : undefined;
      if (id === undefined) return fails('a request body that sent an id', 'none recorded');
      const expected = `an id the service assigns, not the ${id} sent in the body`;
      if (!isObject(e.body)) return fails(expected, describeBody(e));
      const got = toBigInt(e.body.id);
      return got !== id ? holds(expected) : fails(expected, `id ${got}`);
    },
  },
  {
    name: 'pet-is',
    readsBody: true,
    judge(e, params, _contract, lookup) {
      const source = idFrom(params, lookup);
      const given = (['name', 'categoryId', 'status'] as const).filter((f) => params[f] !== undefined);
      // The id comes from the log (idFrom), never from a number the report states.
      if (params.id !== undefined || given.some((f) => typeof params[f] !== 'string') || (given.length === 0 && !source)) return bad('pet-is');
      if (source && 'failure' in source) return source.failure;
      // The params restate what the log holds: the animal asked for, the fields it was added with.
      const anchor = source ? anchoredToSource(e, params, source.id, params.idFrom as number, lookup) : ownSentFields(e, params);
      if (anchor) return anchor;
      const wanted: Array<[string, unknown]> = [
        ...(source ? [['id', source.id] as [string, unknown]] : []),
        ...given.map((f): [string, unknown] => {
          const text = params[f] as string;
          return [f, f === 'categoryId' && /^-?\d{1,20}$/.test(text) ? BigInt(text) : text];
        }),
      ];
      // statusIfAnswered: a status is compared only when the body has one (its default is open, SCH-007).
      const lenient = params.statusIfAnswered === true;
      const expected = `the Pet {${wanted.map(([f, v]) => `${f}=${String(v)}`).join(', ')}}`;
      if (!isObject(e.body)) return fails(expected, describeBody(e));
      const body = e.body;
      const differ = wanted.filter(([f, v]) => !(lenient && f === 'status' && typeof body.status !== 'string') && !sameValue(body[f], v)).map(([f]) => f);
      return differ.length === 0 ? holds(expected) : fails(expected, differ.map((f) => `${f} ${shown(stringifyJson(body[f] ?? null), 60)}`).join(', '));
    },
  },
  {
    name: 'pet-as-answered',
    readsBody: true,
    judge(e, params, _contract, lookup) {
      const seq = params.idFrom;
      if (typeof seq !== 'number' || !Number.isInteger(seq)) return bad('pet-as-answered');
      const source = lookup(seq);
      const answered = source && source.status >= 200 && source.status <= 299 ? toPetRecord(source.body) : undefined;
      if (!answered)
        return fails(
          `the animal #${seq} answered`,
          source ? `#${seq} answered ${source.status} with ${describeBody(source)}` : `#${seq} is not an exchange of the log`,
        );
      const asked = otherAnimalRequested(e, answered.id, seq);
      if (asked) return asked;
      const expected = `the animal #${seq} answered, ${describePet(answered)}, exactly`;
      const pet = toPetRecord(e.body);
      if (!pet) return fails(expected, `status ${e.status} with ${describeBody(e)}`);
      const diff = differences(answered, pet);
      return diff ? fails(expected, diff) : holds(expected);
    },
  },
  {
    name: 'pet-id-int64',
    readsBody: true,
    judge(e) {
      const raw = isObject(e.body) ? e.body.id : undefined;
      const id = toBigInt(raw);
      if (id === undefined) return fails('an integer id', `id ${stringifyJson(raw ?? null)}`);
      return id >= INT64_MIN && id <= INT64_MAX ? holds('an id within int64') : fails('an id within int64', `id ${id}`);
    },
  },
  {
    name: 'pet-ids-distinct',
    readsBody: true,
    judge(e) {
      const raw = isObject(e.body) ? e.body.id : undefined;
      return toBigInt(raw) === undefined ? fails('an integer id', `id ${stringifyJson(raw ?? null)}`) : holds('a new id for every animal added');
    },
    judgeAll(exchanges) {
      const expected = 'a new id for every animal added';
      const seen = new Map<bigint, number>();
      for (const [index, e] of exchanges.entries()) {
        const id = toBigInt((e.body as Record<string, unknown>).id) as bigint;
        const earlier = seen.get(id);
        if (earlier !== undefined) {
          const actual = `id ${id} assigned twice: to ${stringifyJson(exchanges[earlier]?.body ?? null)} and to the pet just added`;
          return { ...fails(expected, actual), failedAt: index, alsoAt: earlier };
        }
        seen.set(id, index);
      }
      return holds(expected);
    },
  },
  {
    name: 'pet-is-requested',
    readsBody: true,
    judge(e) {
      // The id of the request's path (/pets/{id}, digits as sent): a 200 must be that animal.
      const path = pathOf(e.url);
      const match = path === undefined ? null : /\/pets\/(-?\d{1,20})$/.exec(path);
      if (!match?.[1]) return fails('a getPet request of /pets/{id}', `the request ${shown(e.url, 120)}`);
      const id = BigInt(match[1]);
      const expected = `getPet ${id} answers 404 or the animal with id ${id}`;
      if (e.status !== 200) return holds(expected);
      const pet = toPetRecord(e.body);
      if (pet && pet.id === id) return holds(expected);
      return fails(expected, `getPet ${id} returned ${pet ? describePet(pet) : shown(e.text, 120)}`);
    },
  },
  {
    name: 'status-omitted-or-enum',
    readsBody: true,
    judge(e, _params, contract) {
      const values = contract.document.components.schemas.PetStatus?.enum;
      const statuses: readonly unknown[] = Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : [];
      const expected = `status omitted or one of ${statuses.join(', ')}`;
      if (!isObject(e.body)) return fails(expected, describeBody(e));
      if (!('status' in e.body)) return holds(expected);
      const status = e.body.status;
      return statuses.includes(status) ? holds(expected) : fails(expected, `status ${stringifyJson(status ?? null)}`);
    },
  },
];

/** pet-is by `idFrom`: the request asked for that animal, and the fields given are those it was added with. */
function anchoredToSource(e: RuleExchange, params: Record<string, unknown>, id: bigint, seq: number, lookup: ExchangeLookup): RuleResult | undefined {
  const asked = otherAnimalRequested(e, id, seq);
  if (asked) return asked;
  const source = lookup(seq);
  const logged = source && loggedPet(source);
  return logged && unloggedField(params, logged, `#${seq}`);
}

/** pet-is on a createPet's own answer: the fields given are those its request sent. */
function ownSentFields(e: RuleExchange, params: Record<string, unknown>): RuleResult | undefined {
  if (e.method !== 'POST' && e.operationId !== 'createPet') return undefined;
  const logged = loggedPet(e);
  return logged && unloggedField(params, logged, 'the request');
}
