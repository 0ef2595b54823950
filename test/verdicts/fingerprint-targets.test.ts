import { type IncomingMessage, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestContext } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { startHttp } from './support/hostile-servers.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * Targets that recognise the suite and answer it alone correctly: a proxy in front of a correct
 * reference answers 500 to every request it takes for another client's. Each must be NOT CONFORMANT
 * with CON-004 failing; the same proxy passing everything through must not.
 */

const KEY = 'fingerprint-target-key-0123456789abcd';
const BOUND_MS = 90_000;
const SUITE_PRODUCT = 'animal-store-conformance';

let upstream: ReferenceServer;

beforeAll(async () => {
  upstream = await startReferenceServer({ keys: [{ key: KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 10_000_000 }], log: () => undefined });
});

afterAll(async () => {
  await upstream.close();
});

/** True: the proxy answers 500 instead of forwarding. */
type Spots = (req: IncomingMessage, body: Buffer) => boolean;

async function recognising(context: Pick<TestContext, 'onTestFinished'>, spots: Spots): Promise<string> {
  const server = await startHttp(context, (req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (chunk: Buffer) => pieces.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(pieces);
      if (spots(req, body)) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end('{"code":"internal","message":"internal error","status":500}');
        return;
      }
      const forward = httpRequest(upstream.url.replace(/\/v1$/, ''), { path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  return `${server.origin}/v1`;
}

function petName(body: Buffer): string | undefined {
  try {
    const value = JSON.parse(body.toString('utf8')) as { name?: unknown };
    return typeof value.name === 'string' ? value.name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `fails`: the requirement the run fails. A front that looks for the suite's old marks (its product name
 * in the User-Agent, "conformance" in a pet name) finds none since a run looks like an ordinary client
 * (a common User-Agent, realistic pet names): it serves the suite its 500s too, and STA-008 fails.
 */
const CASES: ReadonlyArray<{ name: string; spots: Spots | undefined; fails?: string }> = [
  { name: 'answers 500 to any request that carries a User-Agent', spots: (req) => req.headers['user-agent'] !== undefined, fails: 'CON-004' },
  {
    name: "answers 500 to any request whose User-Agent is not the suite's",
    spots: (req) => !(req.headers['user-agent'] ?? '').startsWith(SUITE_PRODUCT),
    fails: 'STA-008',
  },
  {
    name: 'answers 500 to a createPet whose name lacks "conformance"',
    spots: (req, body) => req.method === 'POST' && !(petName(body) ?? '').includes('conformance'),
    fails: 'STA-008',
  },
  { name: 'passes everything through (the control)', spots: undefined },
];

describe('targets that recognise the suite', () => {
  for (const { name, spots, fails } of CASES) {
    test(
      `${name}: ${fails ? `NOT CONFORMANT, ${fails} failing` : 'CON-004 passes'}`,
      async ({ expect, onTestFinished }) => {
        const target = await recognising({ onTestFinished }, spots ?? (() => false));
        const run = await runCliInTest({ onTestFinished }, ['--target', target, '--profile', 'standard', '--only', 'consistency', '--seed', '3'], {
          timeoutMs: BOUND_MS,
          env: { API_KEY: KEY },
          label: 'fingerprint',
        });
        const why = `${run.report?.verdict.why}\n${run.stdout.slice(-2500)}`;
        const verdict = run.report?.requirements.find((r) => r.id === (fails ?? 'CON-004'))?.verdict;
        if (fails) {
          expect(run.exitCode, why).toBe(1);
          expect(run.report?.verdict.overall, why).toBe('not-conformant');
          expect(verdict, why).toBe('fail');
        } else {
          expect(verdict, why).toBe('pass');
          expect(run.report?.harnessErrors, why).toEqual([]);
        }
      },
      BOUND_MS + 30_000,
    );
  }
});
