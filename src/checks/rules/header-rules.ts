import type { Contract } from '../../contract/index.ts';
import { linkRels, parseHttpDate } from '../../text/header-values.ts';
import { toBigInt } from '../../text/json.ts';
import { type JudgmentRule, fails, holds, isObject } from './rule-kit.ts';

// RFC 9745 §2: Deprecation is an sf-date, "@" and Unix seconds. Earlier drafts sent "true" or an HTTP-date.
const SF_DATE = /^@-?\d{1,15}$/;
/** Link relations that point at the replacement or at the deprecation notice (RFC 9745 §3, RFC 5829). */
const USEFUL_RELS = ['successor-version', 'latest-version', 'alternate', 'deprecation'];

const day = (epoch: number): string => new Date(epoch).toISOString().slice(0, 10);

/** The epoch ms of the operation's x-sunset in the contract, when it has a valid one. */
function sunsetOf(contract: Contract, operationId: string | undefined): number | undefined {
  const raw = contract.operations.find((op) => op.operationId === operationId)?.sunset;
  const epoch = raw === undefined ? Number.NaN : Date.parse(raw);
  return Number.isNaN(epoch) ? undefined : epoch;
}

function pathOf(url: string, base?: string): string | undefined {
  try {
    return new URL(url, base).pathname.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/** Rules on the headers of a deprecated operation's response (RFC 9745, RFC 8594) and of other answers. */
export const HEADER_RULES: readonly JudgmentRule[] = [
  {
    name: 'deprecation-header',
    readsBody: false,
    judge(e) {
      const raw = e.headers.deprecation?.trim();
      const expected = 'Deprecation: @<unix seconds> (RFC 9745), or the older "true" or an HTTP-date';
      if (raw === undefined) return fails(expected, 'no Deprecation header');
      const wellFormed = SF_DATE.test(raw) || raw.toLowerCase() === 'true' || parseHttpDate(raw, e.startedAt) !== undefined;
      return wellFormed ? holds(expected) : fails(expected, `Deprecation: ${JSON.stringify(raw.slice(0, 80))}`);
    },
  },
  {
    name: 'sunset-names-day',
    readsBody: false,
    judge(e, _params, contract) {
      // The day is the contract's x-sunset of the exchange's operation, not a value the report states.
      const sunset = sunsetOf(contract, e.operationId);
      if (sunset === undefined) return fails('an operation the interface gives a sunset', `the operation ${String(e.operationId)}`);
      const expected = `a Sunset HTTP-date (RFC 8594) naming ${day(sunset)}`;
      const raw = e.headers.sunset?.trim();
      if (raw === undefined) return fails(expected, 'no Sunset header');
      const named = parseHttpDate(raw, e.startedAt);
      return named !== undefined && day(named) === day(sunset) ? holds(expected) : fails(expected, `Sunset: ${JSON.stringify(raw.slice(0, 80))}`);
    },
  },
  {
    name: 'deprecation-link',
    readsBody: false,
    judge(e) {
      const raw = e.headers.link;
      const expected = `a Link header with rel ${USEFUL_RELS.join(', ')}`;
      if (raw === undefined) return fails(expected, 'no Link header');
      return linkRels(raw).some((r) => USEFUL_RELS.includes(r)) ? holds(expected) : fails(expected, `Link: ${JSON.stringify(raw.slice(0, 160))}`);
    },
  },
  {
    name: 'status-documented',
    readsBody: false,
    judge(e, _params, contract) {
      const operationId = e.operationId ?? '';
      const operation = contract.operations.find((op) => op.operationId === operationId);
      if (!operation) return fails('an operation of the interface', `a request to ${e.url}`);
      const expected = `${operationId}: one of ${operation.responses.map((r) => r.status).join(', ')}`;
      // After its sunset a deprecated operation may be removed: 404 or 410, judged at the time it was sent.
      const sunset = sunsetOf(contract, operationId);
      const removed = sunset !== undefined && e.startedAt >= sunset && (e.status === 404 || e.status === 410);
      return contract.response(operationId, e.status) !== undefined || removed ? holds(expected) : fails(expected, `${operationId}: ${e.status}`);
    },
  },
  {
    name: 'allow-lists-path-methods',
    readsBody: false,
    judge(e) {
      // The methods the interface gives the request's path: /pets has GET and POST, /pets/{id} GET.
      const collection = (pathOf(e.url) ?? '').endsWith('/pets');
      const methods = collection ? ['GET', 'POST'] : ['GET'];
      const allow = e.headers.allow;
      const listed = new Set((allow ?? '').split(',').map((method) => method.trim()));
      const missing = methods.filter((method) => !listed.has(method));
      const expected = `Allow listing ${methods.join(' and ')}`;
      if (missing.length === 0) return holds(expected);
      return fails(expected, allow === undefined ? 'no Allow header' : `Allow ${JSON.stringify(allow)} without ${missing.join(', ')}`);
    },
  },
  {
    name: 'location-names-pet',
    readsBody: true,
    judge(e) {
      const id = isObject(e.body) ? toBigInt(e.body.id) : undefined;
      if (id === undefined) return fails('a 201 with a Pet', `status ${e.status} with no integer id`);
      const expected = `a Location header naming /pets/${id}`;
      const location = e.headers.location;
      if (location === undefined) return fails(expected, 'no Location header');
      // A relative reference is resolved against the request URL (RFC 9110 §10.2.2).
      const path = pathOf(location, e.url);
      if (path === undefined) return fails(expected, `Location ${JSON.stringify(location)}, not a URI reference`);
      return path.endsWith(`/pets/${id}`) ? holds(expected) : fails(expected, `Location ${JSON.stringify(location)}`);
    },
  },
];
