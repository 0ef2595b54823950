import { hashSeed, seededRandom } from '../../src/harness/seeds.ts';
import type { RawAnswer, RawOutcome } from './raw-exchange.ts';

/**
 * Odd requests for the reference server, by family: malformed HTTP and JSON, invalid UTF-8 and NUL bytes,
 * huge and deeply nested bodies, oversized URLs and headers, odd routes and auth variants. Deterministic
 * for a seed. Every case is a complete message (or one the server must refuse before it completes), so
 * a case that gets no answer is a hang of the server's making.
 */
export const FAMILIES = ['malformed-http', 'malformed-json', 'bad-bytes', 'huge-and-nested', 'oversized', 'odd-routes', 'auth-variants'] as const;
export type Family = (typeof FAMILIES)[number];

export interface AbuseCase {
  family: Family;
  bytes: Buffer;
  /** A HEAD request: its answer has no body. */
  head: boolean;
  /** Whether the request carries the valid key exactly as the interface says. */
  validKey: boolean;
  label: string;
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const CRLF = '\r\n';

function request(method: string, target: string, headers: readonly string[], body?: Buffer | string): Buffer {
  const bodyBytes = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: localhost', ...headers];
  if (body !== undefined && !headers.some((h) => /^(content-length|transfer-encoding):/i.test(h))) lines.push(`Content-Length: ${bodyBytes.length}`);
  return Buffer.concat([Buffer.from(lines.join(CRLF) + CRLF + CRLF, 'latin1'), bodyBytes]);
}

function createPet(key: string, body: Buffer | string, extra: readonly string[] = []): Buffer {
  return request('POST', '/v1/pets', [`Authorization: Bearer ${key}`, 'Content-Type: application/json', ...extra], body);
}

function malformedHttp(random: Random, key: string): Omit<AbuseCase, 'family'> {
  const auth = `Authorization: Bearer ${key}`;
  const forms: (() => [string, Buffer | string])[] = [
    () => ['random printable line', `${randomText(random, 1 + Math.floor(random() * 200))}${CRLF}${CRLF}`],
    () => ['random bytes', randomBytes(random, 1 + Math.floor(random() * 400))],
    () => ['bad method token', `G(E)T /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}${auth}${CRLF}${CRLF}`],
    () => ['no version', `GET /v1/pets${CRLF}Host: x${CRLF}${CRLF}`],
    () => ['odd version', `GET /v1/pets HTTP/${pick(random, ['9.9', '1.x', '0.9', '2.0', '1.1.1'])}${CRLF}Host: x${CRLF}${auth}${CRLF}${CRLF}`],
    () => ['header without colon', `GET /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}NoColonHere${CRLF}${CRLF}`],
    () => ['space before colon', `GET /v1/pets HTTP/1.1${CRLF}Host : x${CRLF}${CRLF}`],
    () => ['obs-fold', `GET /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}X-Folded: a${CRLF} b${CRLF}${auth}${CRLF}${CRLF}`],
    () => ['control byte in header', `GET /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}X-Odd: a\u0001b${CRLF}${CRLF}`],
    () => [
      'two Content-Lengths',
      `POST /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}${auth}${CRLF}Content-Type: application/json${CRLF}Content-Length: 2${CRLF}Content-Length: 3${CRLF}${CRLF}{}}`,
    ],
    () => [
      'Content-Length and chunked',
      `POST /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}${auth}${CRLF}Content-Type: application/json${CRLF}Content-Length: 2${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}2${CRLF}{}${CRLF}0${CRLF}${CRLF}`,
    ],
    () => ['negative Content-Length', `POST /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}${auth}${CRLF}Content-Length: -5${CRLF}${CRLF}`],
    () => ['non-numeric Content-Length', `POST /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}${auth}${CRLF}Content-Length: 1e3${CRLF}${CRLF}`],
    () => [
      'bad chunk size',
      `POST /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}${auth}${CRLF}Content-Type: application/json${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}zz${CRLF}{}${CRLF}0${CRLF}${CRLF}`,
    ],
    () => [
      'unknown transfer coding',
      `POST /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}${auth}${CRLF}Transfer-Encoding: gzip, chunked, identity${CRLF}${CRLF}0${CRLF}${CRLF}`,
    ],
    () => ['HTTP/2 preface', `PRI * HTTP/2.0${CRLF}${CRLF}SM${CRLF}${CRLF}`],
    () => ['absolute-form target', `GET http://elsewhere.example/v1/pets HTTP/1.1${CRLF}Host: x${CRLF}${auth}${CRLF}${CRLF}`],
    () => ['asterisk-form', `OPTIONS * HTTP/1.1${CRLF}Host: x${CRLF}${CRLF}`],
    () => ['lower-case method', `get /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}${auth}${CRLF}${CRLF}`],
    () => ['bare LF line ends', `GET /v1/pets HTTP/1.1\nHost: x\n${auth}\n\n`],
    () => ['HTTP/1.0 without Host', `GET /v1/pets?limit=1 HTTP/1.0${CRLF}${auth}${CRLF}${CRLF}`],
    () => ['two Hosts', `GET /v1/pets HTTP/1.1${CRLF}Host: a${CRLF}Host: b${CRLF}${auth}${CRLF}${CRLF}`],
  ];
  const [label, text] = pick(random, forms)();
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
  // Some forms carry the key in a request node still accepts (HTTP/1.0, absolute-form…): a 2xx is fine there.
  return { label, bytes, head: false, validKey: bytes.includes(auth) };
}

function malformedJson(random: Random, key: string): Omit<AbuseCase, 'family'> {
  const valid = '{"name":"abuse","categoryId":7,"status":"available"}';
  const bodies: (() => [string, string | Buffer])[] = [
    () => ['truncated', valid.slice(0, Math.floor(random() * valid.length))],
    () => ['trailing garbage', `${valid}${pick(random, ['x', ',', '}', ' []', '\u0000'])}`],
    () => ['wrong type', JSON.stringify(pick(random, [null, [], 'pet', 42, true, { name: 1, categoryId: 1 }, { name: 'a', categoryId: '1' }]))],
    () => ['null where a string belongs', pick(random, ['{"name":null,"categoryId":1}', '{"name":"a","categoryId":1,"status":null}'])],
    () => [
      'edge number',
      `{"name":"n","categoryId":${pick(random, ['1e-400', '1.0000000000000001', '9223372036854775808', '-9223372036854775809', '-0', '1e308', '1E2', '0x10', 'NaN', 'Infinity', '01', '.5', '1.', '+1'])}}`,
    ],
    () => ['duplicate keys', '{"name":"a","name":"b","categoryId":1,"categoryId":2}'],
    () => ['byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(valid)])],
    () => ['comment', '{"name":"a", /* c */ "categoryId":1}'],
    () => ['single quotes', "{'name':'a','categoryId':1}"],
    () => ['empty or blank', pick(random, ['', ' ', '\n\t'])],
    () => ['unknown field', '{"name":"a","categoryId":1,"id":5,"createdAt":"2020-01-01T00:00:00Z","extra":{}}'],
    () => ['odd status', `{"name":"a","categoryId":1,"status":${JSON.stringify(pick(random, ['AVAILABLE', '', 'sold ', 'pending\u0000', 'x'.repeat(300)]))}}`],
    () => ['random JSON-ish', randomText(random, 1 + Math.floor(random() * 120), '{}[]":,0123456789.-eEtruefalsnl ')],
  ];
  const [label, body] = pick(random, bodies)();
  return { label, bytes: createPet(key, body), head: false, validKey: true };
}

function badBytes(random: Random, key: string): Omit<AbuseCase, 'family'> {
  const invalid = pick(random, [[0xff], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x00], [0xc3]]);
  const forms: (() => [string, Buffer])[] = [
    () => ['invalid UTF-8 in name', createPet(key, Buffer.concat([Buffer.from('{"name":"a'), Buffer.from(invalid), Buffer.from('","categoryId":1}')]))],
    () => [
      'escaped NUL or lone surrogate in name',
      createPet(key, `{"name":"${pick(random, ['a\\u0000b', '\\ud800', '\\udfff\\ud800', '\\u0000'])}","categoryId":1}`),
    ],
    () => [
      'raw bytes in path',
      Buffer.concat([
        Buffer.from('GET /v1/pets/'),
        Buffer.from(invalid),
        Buffer.from(` HTTP/1.1${CRLF}Host: x${CRLF}Authorization: Bearer ${key}${CRLF}${CRLF}`),
      ]),
    ],
    () => [
      'percent-encoded bytes in path',
      request('GET', `/v1/pets/${pick(random, ['%00', '%ff', '%c0%af', '%ed%a0%80', '1%00', '%zz'])}`, [`Authorization: Bearer ${key}`]),
    ],
    () => [
      'bad bytes in query',
      request('GET', `/v1/pets?limit=${pick(random, ['%00', '1%00', '%ff', '%'])}&status=${pick(random, ['%ff', 'available%00', '%c3'])}`, [
        `Authorization: Bearer ${key}`,
      ]),
    ],
    () => [
      'bad bytes in a header value',
      Buffer.concat([
        Buffer.from(`GET /v1/pets?limit=1 HTTP/1.1${CRLF}Host: x${CRLF}Authorization: Bearer ${key}${CRLF}X-Odd: `),
        Buffer.from(invalid),
        Buffer.from(CRLF + CRLF),
      ]),
    ],
  ];
  const [label, bytes] = pick(random, forms)();
  return { label, bytes, head: false, validKey: true };
}

function hugeAndNested(random: Random, key: string): Omit<AbuseCase, 'family'> {
  const forms: (() => [string, Buffer])[] = [
    () => {
      const depth = pick(random, [100, 1_000, 10_000, 30_000]);
      return [`nested arrays (${depth})`, createPet(key, `{"name":"n","categoryId":1,"tags":${'['.repeat(depth)}${']'.repeat(depth)}}`)];
    },
    () => {
      const depth = pick(random, [1_000, 5_000]);
      return [`nested objects (${depth})`, createPet(key, `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)];
    },
    () => ['body just past 64 KiB', createPet(key, `{"name":"${'x'.repeat(64 * 1024)}","categoryId":1}`)],
    () => [
      'declared 1 GiB, sends little',
      Buffer.from(
        `POST /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}Authorization: Bearer ${key}${CRLF}Content-Type: application/json${CRLF}Content-Length: 1073741824${CRLF}${CRLF}{"name"`,
      ),
    ],
    () => {
      const chunk = 'x'.repeat(16 * 1024);
      const frames = Array.from({ length: 8 + Math.floor(random() * 24) }, () => `${chunk.length.toString(16)}${CRLF}${chunk}${CRLF}`).join('');
      return [
        'chunked body past the limit',
        Buffer.from(
          `POST /v1/pets HTTP/1.1${CRLF}Host: x${CRLF}Authorization: Bearer ${key}${CRLF}Content-Type: application/json${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}${frames}0${CRLF}${CRLF}`,
        ),
      ];
    },
    () => ['60,000-digit number', createPet(key, `{"name":"n","categoryId":${'9'.repeat(60_000)}}`)],
    () => ['long name', createPet(key, JSON.stringify({ name: 'ü'.repeat(10_000), categoryId: 1 }))],
  ];
  const [label, bytes] = pick(random, forms)();
  return { label, bytes, head: false, validKey: true };
}

function oversized(random: Random, key: string): Omit<AbuseCase, 'family'> {
  const forms: (() => [string, Buffer])[] = [
    () => {
      const size = pick(random, [2_000, 8_000, 15_000, 20_000, 80_000, 1_000_000]);
      return [`URL of ${size} bytes`, request('GET', `/v1/pets?status=available&pad=${'a'.repeat(size)}`, [`Authorization: Bearer ${key}`])];
    },
    () => {
      const size = pick(random, [8_000, 17_000, 64_000]);
      return [`one header of ${size} bytes`, request('GET', '/v1/pets?limit=1', [`Authorization: Bearer ${key}`, `X-Big: ${'b'.repeat(size)}`])];
    },
    () => {
      const count = pick(random, [100, 1_000, 3_000]);
      return [
        `${count} headers`,
        request('GET', '/v1/pets?limit=1', [`Authorization: Bearer ${key}`, ...Array.from({ length: count }, (_, i) => `X-H${i}: v`)]),
      ];
    },
    () => ['huge key', request('GET', '/v1/pets?limit=1', [`Authorization: Bearer ${'k'.repeat(pick(random, [1_000, 12_000]))}`])],
    () => ['long pet id', request('GET', `/v1/pets/${'9'.repeat(pick(random, [20, 400, 5_000]))}`, [`Authorization: Bearer ${key}`])],
  ];
  const [label, bytes] = pick(random, forms)();
  return { label, bytes, head: false, validKey: label !== 'huge key' };
}

function oddRoutes(random: Random, key: string): Omit<AbuseCase, 'family'> {
  const method = pick(random, ['GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'FOO']);
  const path = pick(random, [
    '/v1/pets',
    '/v1/pets/',
    '/v1/pets/1',
    '/v1/pets/0',
    '/v1/pets/-1',
    '/v1/pets/9223372036854775807',
    '/v1/pets/9223372036854775808',
    '/v1/pets/-9223372036854775809',
    '/v1/pets/1.5',
    '/v1/pets/1e3',
    '/v1/pets/%31',
    '/v1/pets/abc',
    '/v1//pets',
    '/v1/pets/../pets',
    '/V1/PETS',
    '/v1/pets/1/extra',
    '/v2/pets',
    '/',
    '/v1',
    '/v1/pets;x=1',
    '/v1/pets%2F1',
  ]);
  const query = pick(random, [
    '',
    '?limit=0',
    '?limit=1',
    '?limit=100',
    '?limit=101',
    '?limit=-1',
    '?limit=1.5',
    '?limit=abc',
    '?limit=',
    '?limit=1&limit=2',
    '?status=available',
    '?status=AVAILABLE',
    '?status=',
    '?status=available&status=sold',
    '?status[]=x',
    '?limit=9223372036854775808',
    '?%zz=1',
    '?=&&=',
  ]);
  const validKey = random() < 0.8;
  const headers = validKey ? [`Authorization: Bearer ${key}`] : [];
  const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? '{"name":"route","categoryId":1}' : undefined;
  if (body !== undefined) headers.push('Content-Type: application/json');
  return { label: `${method} ${path}${query}`, bytes: request(method, `${path}${query}`, headers, body), head: method === 'HEAD', validKey };
}

function authVariants(random: Random, key: string): Omit<AbuseCase, 'family'> {
  const variants: [string, string[]][] = [
    ['no Authorization', []],
    ['empty Authorization', ['Authorization: ']],
    ['Bearer without a key', ['Authorization: Bearer']],
    ['Bearer and a space', ['Authorization: Bearer ']],
    ['lower-case scheme, valid key', [`Authorization: bearer ${key}`]],
    ['two spaces', [`Authorization: Bearer  ${key}`]],
    ['tab', [`Authorization: Bearer\t${key}`]],
    ['Basic', [`Authorization: Basic ${Buffer.from(`${key}:`).toString('base64')}`]],
    ['key without scheme', [`Authorization: ${key}`]],
    ['key with a suffix', [`Authorization: Bearer ${key}x`]],
    ['key cut short', [`Authorization: Bearer ${key.slice(0, -1)}`]],
    ['key in other case', [`Authorization: Bearer ${key.toUpperCase()}`]],
    ['key with a trailing comma', [`Authorization: Bearer ${key},`]],
    ['two Authorization headers', [`Authorization: Bearer wrong`, `Authorization: Bearer ${key}`]],
    ['key in the query only', []],
    ['key in X-API-Key only', [`X-API-Key: ${key}`]],
    ['non-ASCII key', ['Authorization: Bearer ké']],
    ['random key', [`Authorization: Bearer ${randomText(random, 24, 'abcdefghijklmnopqrstuvwxyz0123456789-._~+/')}`]],
  ];
  const [label, headers] = pick(random, variants);
  const target = label === 'key in the query only' ? `/v1/pets?limit=1&api_key=${key}` : pick(random, ['/v1/pets?limit=1', '/v1/pets/1']);
  const post = random() < 0.3;
  const bytes = post
    ? request('POST', '/v1/pets', [...headers, 'Content-Type: application/json'], '{"name":"auth","categoryId":1}')
    : request('GET', target, headers);
  // A lower-case scheme is the same scheme (RFC 9110 §11.1): a server may accept it.
  const validKey = label === 'lower-case scheme, valid key';
  return { label, bytes, head: false, validKey };
}

const MAKERS: Record<Family, (random: Random, key: string) => Omit<AbuseCase, 'family'>> = {
  'malformed-http': malformedHttp,
  'malformed-json': malformedJson,
  'bad-bytes': badBytes,
  'huge-and-nested': hugeAndNested,
  oversized,
  'odd-routes': oddRoutes,
  'auth-variants': authVariants,
};

/** `count` cases of a family, the same for the same seed. */
export function abuseCases(family: Family, count: number, key: string, seed: number): AbuseCase[] {
  const random = seededRandom(hashSeed(seed, family));
  return Array.from({ length: count }, () => ({ family, ...MAKERS[family](random, key) }));
}

/** What is wrong with an outcome: no 5xx, always an answer, Error shape and rate-limit headers, no entry without a key. */
export function abuseProblems(outcome: RawOutcome, abuse: Pick<AbuseCase, 'head' | 'validKey'>): string[] {
  if (outcome.hung) return ['no answer and no close'];
  const answer = outcome.answer;
  if (answer === undefined) return ['closed without an answer'];
  const problems: string[] = [];
  if (!(answer.status >= 100 && answer.status < 500)) problems.push(`status ${answer.status}`);
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    if (!answer.headers.has(name)) problems.push(`no ${name}`);
  }
  if (answer.status >= 400 && !abuse.head && !isErrorBody(answer)) problems.push('not the Error shape');
  if (!abuse.validKey && answer.status >= 200 && answer.status < 300) problems.push('served without a valid key');
  return problems;
}

function isErrorBody(answer: RawAnswer): boolean {
  try {
    const body = JSON.parse(answer.body) as { code?: unknown; message?: unknown; status?: unknown };
    return typeof body.code === 'string' && typeof body.message === 'string' && body.status === answer.status;
  } catch {
    return false;
  }
}

function randomText(
  random: Random,
  length: number,
  alphabet = ' !"#$%&()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~',
): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}

function randomBytes(random: Random, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}
