import { describe, expect, it } from 'vitest';
import { curlNetworkFlags, networkText, publicTargetUrl, redactCommand } from '../../src/report/run-info.ts';
import { dailyQuotaText, trafficOf } from '../../src/report/traffic.ts';
import type { Exchange } from '../../src/client/exchange.ts';

describe('redactCommand: a report command line never carries a key value', () => {
  it.each([
    ['npx x --api-key sk-123', 'npx x --api-key "$API_KEY"'],
    ['npx x --api-key=sk-123', 'npx x --api-key="$API_KEY"'],
    ['npx x --exhaust-key sk-456', 'npx x --exhaust-key "$EXHAUST_API_KEY"'],
    ['API_KEY=sk-123 npx x', 'API_KEY="$API_KEY" npx x'],
    ["EXHAUST_API_KEY=sk-456 API_KEY='sk-123' npx x", 'EXHAUST_API_KEY="$EXHAUST_API_KEY" API_KEY="$API_KEY" npx x'],
    ['API_KEY="$API_KEY" EXHAUST_API_KEY=${EXHAUST_API_KEY} npx x', 'API_KEY="$API_KEY" EXHAUST_API_KEY=${EXHAUST_API_KEY} npx x'],
    ['npx x --plan-key free=sk-789 --plan-key=pro=sk-790', 'npx x --plan-key free="$FREE_PLAN_KEY" --plan-key=pro="$PRO_PLAN_KEY"'],
    ["npx x --plan-key 'sk-791'", 'npx x --plan-key <plan>="$PLAN_KEY"'],
    ['ASC_PLAN_KEY=free=sk-789,pro=sk-790 npx x', 'ASC_PLAN_KEY="$ASC_PLAN_KEY" npx x'],
    ['ASC_PLAN_KEY="$ASC_PLAN_KEY" npx x', 'ASC_PLAN_KEY="$ASC_PLAN_KEY" npx x'],
  ])('%s', (command, expected) => {
    expect(redactCommand(command)).toBe(expected);
  });

  it('strips credentials from a target URL', () => {
    expect(publicTargetUrl('https://user:secret@api.example.com/v1?key=sk-1#x')).toBe('https://api.example.com/v1');
  });
});

describe('network: how the run reached the target, and what a curl line then needs', () => {
  const network = { headers: ['X-Gateway-Token', 'X-Tenant'], proxy: 'http://proxy.internal:3128', caCert: true, tlsVerified: true };

  it('names each header, never a value, and the curl options that reproduce the route', () => {
    expect(curlNetworkFlags(network)).toBe(
      "-H 'X-Gateway-Token: <its --header value>' -H 'X-Tenant: <its --header value>' --proxy 'http://proxy.internal:3128' --cacert <the --ca-cert file>",
    );
    expect(networkText(network)).toMatch(
      /headers sent with every request: X-Gateway-Token, X-Tenant; through the proxy .*; the curl lines leave these out: add -H 'X-Gateway-Token/,
    );
  });

  it('an unverified run says so first and its curl needs --insecure; a direct run needs nothing', () => {
    const text = networkText({ headers: [], tlsVerified: false });
    expect(text).toMatch(/^TLS NOT VERIFIED/);
    expect(text).toMatch(/add --insecure$/);
    expect(curlNetworkFlags({ headers: [], tlsVerified: true })).toBe('');
    expect(networkText({ headers: [], tlsVerified: true })).toBe('');
  });
});

describe("daily quota (--plan): the main key's requests against the plan", () => {
  const exchange = (keyRole?: 'exhaust'): Exchange => ({
    seq: 1,
    startedAt: 0,
    durationMs: 1,
    operationId: 'listPets',
    request: { method: 'GET', url: 'http://h/v1/pets', headers: {} },
    curl: '',
    ...(keyRole ? { keyRole } : {}),
  });

  it("counts only the main key, and says the share of the plan's day", () => {
    const traffic = trafficOf([exchange(), exchange(), exchange('exhaust')], 'free');
    expect(traffic.exhaustKeyRequests).toBe(1);
    expect(traffic.dailyQuota).toEqual({ plan: 'free', perDay: 1000, used: 2 });
    expect(dailyQuotaText({ plan: 'free', perDay: 1000, used: 414 })).toContain("41% of the free plan's 1,000 a day");
    expect(dailyQuotaText({ plan: 'business', perDay: 100_000, used: 30 })).toContain('<0.1%');
  });

  it('shows no share for Enterprise (custom limits) and nothing without --plan', () => {
    expect(dailyQuotaText({ plan: 'enterprise', used: 5 })).toContain('custom');
    expect(trafficOf([exchange()]).dailyQuota).toBeUndefined();
  });
});
