import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCliArgs, reproduceCommand } from '../../src/cli/args.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { tempDir } from '../support/cli.ts';
import { recordedArgs, referenceStartLine, shellWords as splitWords } from '../../src/cli/replay.ts';
import { readStandaloneConfig } from '../../src/reference/standalone.ts';

/** The printed command as a shell splits it, with API_KEY unset (the key lives in .env) unless `env` sets it. */
function shellWords(command: string, env: Record<string, string> = {}): string[] {
  const out = execFileSync('bash', ['-c', `set -- ${command.replace(/^npx animal-store-conformance/, '')}; printf '%s\\0' "$@"`], {
    env: { PATH: process.env.PATH ?? '', ...env },
  }).toString();
  return out.split('\0').slice(0, -1);
}

describe('the replay line works as printed', () => {
  it("names --hold-connection only when the run's hold is not its target's default, and replays it", () => {
    const dir = tempDir('replay-hold-');
    const holdOf = (flags: Record<string, string>) => {
      const original = loadConfig({ flags: { apiKey: 'key-0123456789abcdef', ...flags }, cwd: dir, env: {} });
      const command = reproduceCommand(original);
      const replayed = loadConfig({ flags: { ...parseCliArgs(shellWords(command)).flags, apiKey: 'key-0123456789abcdef' }, cwd: dir, env: {} });
      return { command, original: original.holdConnectionMs, replayed: replayed.holdConnectionMs };
    };
    const embedded = holdOf({});
    expect(embedded.command).not.toContain('--hold-connection');
    expect(embedded.replayed).toBe(embedded.original);
    const second = holdOf({ holdConnection: '1' });
    expect(second.command).toContain('--hold-connection 1');
    expect(second.replayed).toBe(1_000);
    const remote = holdOf({ target: 'https://staging.example/v1', holdConnection: '45' });
    expect(remote.command).not.toContain('--hold-connection');
    expect(remote.replayed).toBe(45_000);
  });

  it('round-trips every verdict-changing option, negative seeds and quoted values included, and never holds the key', () => {
    const dir = tempDir('replay-');
    writeFileSync(join(dir, '.env'), 'API_KEY=key-from-dotenv-0123456789\n');
    writeFileSync(join(dir, 'deviations file.yaml'), '- id: DEP-005\n  reason: planned\n');
    const flags = {
      target: 'https://staging.example/v1',
      profile: 'standard',
      seed: '-5',
      strict: true,
      requireComplete: true,
      readOnly: true,
      exhaust: false,
      only: 'auth,RATE-001',
      categoryIds: '7,8',
      timeout: '2500',
      expectedDeviations: join(dir, 'deviations file.yaml'),
      envFile: '.env',
    };
    const original = loadConfig({ flags, cwd: dir, env: {} });
    expect(original.apiKey).toBe('key-from-dotenv-0123456789');
    const command = reproduceCommand(original);
    expect(command).not.toContain('key-from-dotenv');
    expect(command).toContain('--seed=-5');
    const replayed = loadConfig({ flags: { ...parseCliArgs(shellWords(command)).flags, envFile: '.env' }, cwd: dir, env: {} });
    const verdictChanging = (c: typeof original) => ({
      target: c.target,
      apiKey: c.apiKey,
      profile: c.profile,
      seed: c.seed,
      strict: c.strict,
      requireComplete: c.requireComplete,
      readOnly: c.readOnly,
      exhaust: c.exhaust,
      only: c.only,
      categoryIds: c.categoryIds,
      timeoutMs: c.timeoutMs,
      expectedDeviations: c.expectedDeviations,
    });
    expect(verdictChanging(replayed)).toEqual(verdictChanging(original));
  });

  it('an empty --api-key (API_KEY unset in the shell) does not override the key from the --env-file', () => {
    const dir = tempDir('replay-env-');
    writeFileSync(join(dir, '.env'), 'API_KEY=key-from-dotenv-0123456789\nTARGET_BASE_URL=https://staging.example/v1\n');
    expect(loadConfig({ flags: { apiKey: '', envFile: '.env' }, cwd: dir, env: {} }).apiKey).toBe('key-from-dotenv-0123456789');
  });
});

describe('an embedded run: how to start the same reference again for its curl lines', () => {
  it('names the port, a key from $API_KEY, and the faults and variants of the run', () => {
    const run = {
      target: { url: 'http://127.0.0.1:43859/v1', embedded: true },
      command: 'npx animal-store-conformance --profile thorough --seed=7 --reference-faults location-missing,auth-none --reference-variants newest-first',
    };
    expect(referenceStartLine(run)).toBe(
      'PORT=43859 REFERENCE_API_KEYS="$API_KEY:enterprise:1000000000:1000000000" npx animal-store-conformance reference --faults location-missing,auth-none --variants newest-first',
    );
    expect(referenceStartLine({ ...run, command: 'npx animal-store-conformance --seed=7' })).toBe(
      'PORT=43859 REFERENCE_API_KEYS="$API_KEY:enterprise:1000000000:1000000000" npx animal-store-conformance reference',
    );
    expect(referenceStartLine({ ...run, target: { url: 'https://staging.example/v1', embedded: false } })).toBeUndefined();
  });

  it('the standalone reference takes the faults and variants a run named', () => {
    expect(readStandaloneConfig(['--faults', 'location-missing, auth-none', '--variants', 'newest-first'], {})).toMatchObject({
      faults: ['location-missing', 'auth-none'],
      variants: ['newest-first'],
    });
    expect(readStandaloneConfig([], {})).toMatchObject({ faults: [], variants: [] });
  });
});

describe('the recorded command line read back', () => {
  it('reads back the command lines the suite writes, without the keys', () => {
    expect(splitWords(`npx animal-store-conformance --target 'http://h/v1?a=b c' --api-key "$API_KEY" --seed=-5`)).toEqual([
      'npx',
      'animal-store-conformance',
      '--target',
      'http://h/v1?a=b c',
      '--api-key',
      '$API_KEY',
      '--seed=-5',
    ]);
    expect(
      recordedArgs(
        `npx animal-store-conformance --target http://h/v1 --api-key "$API_KEY" --exhaust-key "$EXHAUST_API_KEY" --profile standard --seed=7 --only auth --strict`,
      ),
    ).toEqual(['--target', 'http://h/v1', '--profile', 'standard', '--seed=7', '--strict']);
    expect(recordedArgs(`npx animal-store-conformance --target http://h/v1 --plan-key free="$FREE_PLAN_KEY" --plan-key=pro="$PRO_PLAN_KEY" --seed=7`)).toEqual([
      '--target',
      'http://h/v1',
      '--seed=7',
    ]);
  });

  it('repeats each --plan-key, its key read from the variable its curl lines name', () => {
    const env = { FREE_PLAN_KEY: 'free-key-0123456789', PRO_PLAN_KEY: 'pro-key-0123456789' };
    const flags = { target: 'https://staging.example/v1', apiKey: 'main-key-0123456789', planKey: [`free=${env.FREE_PLAN_KEY}`, `pro=${env.PRO_PLAN_KEY}`] };
    const original = loadConfig({ flags, cwd: tempDir('replay-plan-'), env: {} });
    const command = reproduceCommand(original);
    expect(command).toContain('--plan-key free="$FREE_PLAN_KEY" --plan-key pro="$PRO_PLAN_KEY"');
    expect(command).not.toContain('-key-0123456789');
    // What a shell makes of the line, with the variables set: the same plan keys.
    const words = shellWords(command, env);
    const replayed = loadConfig({ flags: { ...parseCliArgs(words).flags, apiKey: 'main-key-0123456789' }, cwd: tempDir('replay-plan-'), env: {} });
    expect(replayed.planKeys).toEqual(original.planKeys);
  });
});
