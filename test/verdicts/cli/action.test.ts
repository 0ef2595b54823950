import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { USAGE } from '../../../src/cli/args.ts';
import type { ConformanceReport } from '../../../src/report/report-types.ts';
import { action, download, simulatedRunner, type ActionJob } from '../../support/simulated-runner.ts';
import { ROOT, startStandalone } from '../../support/cli.ts';
import { startReferenceServer } from '../../../src/reference/index.ts';
import { TEST_CA, startGateway } from '../support/network-fronts.ts';

/** Every flag a CI run needs has its input; merge-reports is the matrix's merge job. */
const INPUT_TO_FLAG: Record<string, string> = {
  target: '--target',
  plan: '--plan',
  profile: '--profile',
  'read-only': '--read-only',
  strict: '--strict',
  'category-ids': '--category-ids',
  seed: '--seed',
  shard: '--shard',
  'max-duration': '--max-duration',
  'expected-deviations': '--expected-deviations',
  baseline: '--baseline',
  'require-complete': '--require-complete',
  'merge-reports': '--merge-reports',
  certify: '--certify',
  'sign-key': '--sign-key',
  'report-dir': '--report-dir',
  'ca-cert': '--ca-cert',
  insecure: '--insecure',
};

describe('action.yml: what a pipeline needs', () => {
  it('has an input for every flag a CI run needs, each one a flag the CLI knows', () => {
    for (const [input, flag] of Object.entries(INPUT_TO_FLAG)) {
      expect(action.inputs[input], input).toBeDefined();
      expect(USAGE, `${input} → ${flag}`).toContain(flag);
    }
    for (const input of ['api-key', 'exhaust-key', 'headers', 'proxy', 'no-proxy', 'artifact-name', 'node-version'])
      expect(action.inputs[input], input).toBeDefined();
  });

  it('changes no Node of the caller (no setup-node, nothing on GITHUB_PATH), runs the compiled dist/ without dev dependencies, caches npm', () => {
    const uses = action.runs.steps.map((s) => s.uses ?? '');
    expect(uses.filter((u) => u.startsWith('actions/setup-node'))).toEqual([]);
    expect(uses.some((u) => u.startsWith('actions/cache@'))).toBe(true);
    const scripts = ['node.sh', 'install.sh', 'run.sh'].map((f) => readFileSync(join(ROOT, 'action', f), 'utf8')).join('\n');
    expect(scripts).not.toMatch(/>>\s*"?\$\{?GITHUB_(PATH|ENV)/);
    expect(scripts).toContain('npm prune --omit=dev');
    expect(scripts).toContain('/dist/bin/cli.js');
    expect(scripts).not.toContain('src/bin/');
  });

  it("gates on completeness by default, and says the gate's decision apart from the verdict", () => {
    expect(action.inputs['require-complete']?.default).toBe('true');
    expect(action.outputs.gate?.value).toBe('${{ steps.run.outputs.gate }}');
    expect(action.outputs.verdict?.value).toBe('${{ steps.run.outputs.verdict }}');
    expect(action.outputs['gate-reason']?.value).toBe('${{ steps.run.outputs.gate-reason }}');
  });

  it('pastes no input into a script: inputs reach the scripts through env only', () => {
    for (const step of action.runs.steps) expect(step.run ?? '', step.name).not.toContain('${{');
  });
});

// ---- The Action run by a simulated runner (test/support/simulated-runner.ts). ----

const work = mkdtempSync(join(tmpdir(), 'action-sim-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const runner = simulatedRunner(work);
const KEY = 'action-key-0123456789abcdef';

const report = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;

describe('the Action run by a simulated runner', () => {
  it('a single run: its own Node from the tool cache, run-time dependencies only, a verdict, the gate and one upload', async () => {
    const { url } = await startStandalone(`${KEY}:enterprise:100000:1000000`);
    const job = await runner.runAction({ target: url, 'api-key': KEY, profile: 'quick', 'node-version': '20' }, { name: 'conformance' });
    // The quick profile leaves some MUST untested: PARTIAL, and require-complete (the default) fails the gate.
    expect(job.outputs.stepFailed, job.log).toBe('Gate on the verdict: exit 1');
    expect(job.log).toMatch(/Node for the suite: v\d+\.\d+\.\d+ \(.*toolcache\/node\/20\.99\.0\//);
    expect(readFileSync(job.githubPath, 'utf8')).toBe('');
    expect(existsSync(join(runner.actionPath, 'node_modules', 'vitest'))).toBe(true);
    for (const devTool of ['typescript', 'tsx', 'esbuild']) expect(existsSync(join(runner.actionPath, 'node_modules', devTool)), devTool).toBe(false);
    expect(existsSync(join(runner.actionPath, 'dist', 'bin', 'cli.js'))).toBe(true);
    expect(job.outputs.verdict).toBe('partial');
    expect(job.outputs['exit-code']).toBe('1');
    expect(job.outputs.gate).toBe('fail');
    expect(job.uploaded).toHaveLength(1);
    expect(job.outputs['artifact-name']).toMatch(/^animal-store-conformance-conformance-[0-9a-f]{8}$/);
    expect(report(join(job.workspace, 'conformance-reports')).run.target.url).toBe(url);
    for (const file of readdirSync(join(job.workspace, 'conformance-reports'))) {
      if (file.endsWith('.json') || file.endsWith('.html') || file.endsWith('.xml'))
        expect(readFileSync(join(job.workspace, 'conformance-reports', file), 'utf8')).not.toContain(KEY);
    }
    expect(job.log).not.toContain(KEY);
  }, 600_000);

  it('a matrix of 3 shards, then the merge job: one report, one verdict, the whole suite, the gate policy of the merge job', async () => {
    // The embedded reference (no target): each shard starts its own, and the thorough profile leaves no MUST untested.
    const common = { profile: 'thorough', 'node-version': '20' };
    // One after the other: on a runner each job has its own checkout, here they share one (and its npm ci).
    const shards: ActionJob[] = [];
    for (const shard of ['1/3', '2/3', '3/3']) shards.push(await runner.runAction({ ...common, shard }, { name: 'conformance' }));
    for (const shard of shards) {
      expect(shard.outputs.stepFailed, shard.log).toBeUndefined();
      expect(['conformant', 'partial']).toContain(shard.outputs.verdict);
      // A shard is partial by construction: require-complete (the default) is the merge job's to apply.
      expect(shard.outputs.gate).toBe('pass');
    }
    // Unique artifact names per matrix entry, though every entry is the same job.
    const names = shards.map((s) => s.outputs['artifact-name']);
    expect(new Set(names).size).toBe(3);
    expect(names[0]).toMatch(/^animal-store-conformance-conformance-shard-1-3-[0-9a-f]{8}$/);
    // Each shard saw part of the suite, with the seed of the workflow run.
    const parts = shards.map((s) => report(join(s.workspace, 'conformance-reports')));
    expect(new Set(parts.map((p) => p.run.seed))).toEqual(new Set([31415926535 % 2147483647]));

    // The merge job: download-artifact (merge-multiple) into one folder, then the Action in merge mode.
    const workspace = mkdtempSync(join(work, 'ws-merge-'));
    download(shards, join(workspace, 'shards'));
    // The merge job's baseline and strict reach the merge (they were dropped): the report lists the one and records the other.
    writeFileSync(join(workspace, 'known.yaml'), '- id: AUTH-001\n  reason: a known failure, listed in the merge job only\n');
    const merge = await runner.runAction(
      { 'merge-reports': 'shards', baseline: 'known.yaml', strict: 'true', 'node-version': '20' },
      { name: 'merge', workspace },
    );
    expect(merge.outputs.stepFailed, merge.log).toBeUndefined();
    expect(merge.outputs.verdict).toBe('conformant');
    expect(merge.log).toMatch(/Merged 3 shards of one run/);
    const merged = report(join(workspace, 'conformance-reports'));
    expect(merged.verdict.overall).toBe('conformant');
    expect(merge.outputs.gate).toBe('pass');
    expect(merged.run.strict).toBe(true);
    expect(merged.run.requireComplete).toBe(true);
    expect(merged.deviations.map((d) => [d.id, d.source, d.status])).toEqual([['AUTH-001', 'baseline', 'requirement-passes']]);
    expect(merged.run.shard).toBeUndefined();
    expect(merged.verdict.scope.mustTested).toBeGreaterThan(Math.max(...parts.map((p) => p.verdict.scope.mustTested)));
    expect(readFileSync(join(merge.githubPath, '..', 'summary.md'), 'utf8')).toMatch(/## Animal Store conformance: CONFORMANT/);
  }, 900_000);
});

// ---- Staging as deployed: TLS with a private CA, a gateway that wants a header, a baseline of one known bug. ----

describe('the Action against staging behind a gateway, with require-complete and a baseline', () => {
  const MAIN = 'staging-action-key-0123456789ab';
  const EXHAUST = 'staging-action-free-0123456789ab';
  const TOKEN = { name: 'X-Gateway-Token', value: 'gw-token-5e4d3c2b1a09f8e7' };
  // What createPet answering 200 fails (a team writes this with --update-baseline): the one known bug.
  const KNOWN = [
    'STA-001',
    'STA-009',
    'STA-014',
    'SCH-002',
    'SCH-005',
    'SCH-006',
    'SCH-007',
    'SCH-008',
    'AUTH-007',
    'INT-001',
    'INT-005',
    'CON-002',
    'STA-018',
  ];

  async function staging(faults: string[]) {
    const server = await startReferenceServer({
      rateWindowMs: 2_000,
      faults: faults as never,
      keys: [
        { key: MAIN, plan: 'enterprise', perMinute: 20_000, perDay: 10_000_000 },
        { key: EXHAUST, plan: 'free' },
      ],
      log: () => undefined,
    });
    const gateway = await startGateway(server.url, TOKEN, { tls: true });
    return { url: gateway.url, gateway, close: async () => (await gateway.close(), await server.close()) };
  }

  async function run(faults: string[], key = MAIN) {
    const front = await staging(faults);
    try {
      const workspace = mkdtempSync(join(work, 'ws-staging-'));
      cpSync(TEST_CA, join(workspace, 'staging-ca.pem'));
      writeFileSync(join(workspace, 'known.yaml'), KNOWN.map((id) => `- id: ${id}\n  reason: createPet answers 200 (ticket 42)\n`).join(''));
      const job = await runner.runAction(
        {
          target: front.url,
          'api-key': key,
          'exhaust-key': EXHAUST,
          plan: 'enterprise:20000:10000000',
          // Staging shortens its rate window to 2 s; the input says so, as a team's workflow would.
          'rate-window': '2',
          headers: `${TOKEN.name}: ${TOKEN.value}\n`,
          'ca-cert': 'staging-ca.pem',
          baseline: 'known.yaml',
          'node-version': '20',
        },
        { name: 'staging', workspace, env: { ASC_ONLY: 'deprecation', ASC_HEADER: 'X-Job: not-the-input' } },
      );
      const summary = readFileSync(join(job.githubPath, '..', 'summary.md'), 'utf8');
      const reports = readdirSync(join(workspace, 'conformance-reports'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
      // The runner hides ::add-mask:: lines and masks their value everywhere after; nothing else may hold a secret.
      const shown = [
        job.log
          .split('\n')
          .filter((line) => !line.startsWith('::add-mask::'))
          .join('\n'),
        summary,
        ...reports,
      ].join('\n');
      return { job, summary, shown, gatewaySeen: { ...front.gateway.seen } };
    } finally {
      await front.close();
    }
  }

  it('one known failure, baselined: gate=pass under require-complete; the token and the key in no output', async () => {
    const { job, summary, shown, gatewaySeen } = await run(['create-returns-200']);
    expect(job.outputs.stepFailed, job.log.slice(-4000)).toBeUndefined();
    expect(job.outputs.gate, job.outputs['gate-reason']).toBe('pass');
    expect(job.outputs.verdict).toBe('not-conformant');
    expect(job.outputs['gate-reason']).toMatch(/^every failure is a known failure of the baseline \(/);
    expect(job.log).toContain(`::add-mask::${TOKEN.value}`);
    expect(job.log).toMatch(/^::notice title=Gate pass::every failure is a known failure/m);
    expect(summary).toContain('**Gate: pass** (exit 0)');
    const merged = report(join(job.workspace, 'conformance-reports'));
    expect(merged.run.requireComplete).toBe(true);
    // Nothing of the job's env narrowed the run; the gateway forwarded, never refused.
    expect(merged.run.only ?? []).toEqual([]);
    expect(merged.run.network).toMatchObject({ headers: [TOKEN.name], caCert: true, tlsVerified: true });
    expect(gatewaySeen.refused).toBe(0);
    for (const secret of [TOKEN.value, MAIN, EXHAUST]) expect(shown.includes(secret), secret).toBe(false);
  }, 900_000);

  it('a second, unlisted fault: gate=fail, and the reason names what the baseline does not list', async () => {
    const { job, summary, shown } = await run(['create-returns-200', 'unknown-pet-200-null']);
    expect(job.outputs.gate).toBe('fail');
    expect(job.outputs.stepFailed).toBe('Gate on the verdict: exit 1');
    expect(job.outputs['gate-reason']).toMatch(/requirements? fails? that the baseline does not list: .*STA-004/);
    expect(job.log).toMatch(/^::error title=Gate fail::.*STA-004/m);
    expect(summary).toMatch(/\*\*Gate: fail\*\* \(exit 1\): `.*STA-004/);
    expect(shown.includes(TOKEN.value)).toBe(false);
  }, 900_000);

  it('a wrong key: INCOMPLETE, with a job summary and an annotation that say why', async () => {
    const { job, summary, shown } = await run(['create-returns-200'], 'a-wrong-key-0123456789abcdef');
    expect(job.outputs.verdict).toBe('incomplete');
    expect(job.outputs['exit-code']).toBe('2');
    expect(job.outputs['gate-reason']).toMatch(/^INCOMPLETE: ERR_/);
    expect(job.log).toMatch(/^::error title=Gate fail::INCOMPLETE: ERR_/m);
    expect(summary).toContain('## Animal Store conformance: INCOMPLETE');
    expect(summary).toMatch(/\*\*Gate: fail\*\* \(exit 2\): `INCOMPLETE: ERR_/);
    expect(shown.includes(TOKEN.value)).toBe(false);
  }, 600_000);
});
