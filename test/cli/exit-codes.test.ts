import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readReport, runCli, runMain, startStandalone, tempDir } from '../support/cli.ts';

describe('CLI: exit codes and one-line errors', () => {
  it('--help prints the usage and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--target <url>');
    expect(result.stdout).toMatch(/PARTIAL +0 +nothing failed/);
    expect(result.stdout).toMatch(/INCOMPLETE +2/);
  });

  it.each([
    ['a remote target without a key', ['--target', 'http://127.0.0.1:9/v1'], /API key is required/],
    ['a malformed URL', ['--target', 'not a url', '--api-key', 'k'], /not a URL/],
    ['an unknown profile', ['--profile', 'fastest'], /--profile must be one of/],
    ['an unknown flag', ['--frobnicate'], /unknown option --frobnicate/],
    ['a misspelt flag', ['--profle', 'quick'], /unknown option --profle; did you mean --profile\?/],
    ['a flag without its value', ['--target', '--api-key', 'k'], /--target needs a value \(<url>\)/],
    ['a bad value from the environment', [], /ASC_PROFILE \(environment\) must be one of/, { ASC_PROFILE: 'fastest' }],
    ['a negative timeout', ['--timeout=-1'], /--timeout must be a positive integer/],
    ['an --only that names nothing', ['--only', 'AUTH-999'], /--only names no requirement or area: AUTH-999/],
  ] as [string, string[], RegExp, Record<string, string>?][])(
    '%s: exit 2, one clear line on stderr, no stack trace, and a report still written',
    async (_label, args, message, env) => {
      const dir = tempDir('cli-config-');
      // In process: the bin's own exits are proven by --help above and the runs below.
      const result = await runMain([...args, '--report-dir', dir], env);
      expect(result.code).toBe(2);
      // Usage and configuration errors go to stderr: stdout stays for results.
      expect(result.stderr).toMatch(message);
      expect(result.stdout).not.toMatch(message);
      const output = result.stdout + result.stderr;
      expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
      const report = readReport(dir);
      expect(report.verdict.overall).toBe('incomplete');
      expect(report.harnessErrors[0]?.code).toBe('ERR_CONFIG');
    },
  );

  it('an unreachable target: exit 2 and a report that says why', async () => {
    const port = await closedPort();
    const dir = tempDir('cli-unreachable-');
    const result = await runCli(['--target', `http://127.0.0.1:${port}/v1`, '--api-key', 'k-unreachable', '--report-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot reach the target http:\/\/127\.0\.0\.1:\d+: connection refused/);
    const report = readReport(dir);
    expect(report.verdict.overall).toBe('incomplete');
    expect(report.harnessErrors[0]?.code).toBe('ERR_TARGET_UNREACHABLE');
  });

  it('the standalone reference with a wrong key: exit 2 after the preflight alone, the key refused in one line', async () => {
    const { url } = await startStandalone('right-key-0123456789:enterprise:100000:1000000');
    const dir = tempDir('cli-wrong-key-');
    const result = await runCli(['--target', url, '--api-key', 'wrong-key-0123456789', '--report-dir', dir]);
    expect(result.code).toBe(2);
    // Stopped by the preflight: no suite ran against a key the target refuses (counted, not timed).
    expect((readReport(dir) as ReturnType<typeof readReport> & { traffic: { requestCount: number } }).traffic.requestCount).toBeLessThanOrEqual(2);
    expect(result.stderr).toMatch(/the key was refused: GET .*\/pets\?limit=1 answered 401/);
    const report = readReport(dir);
    expect(report.verdict.overall).toBe('incomplete');
    expect(report.harnessErrors[0]?.code).toBe('ERR_KEY_REFUSED');
    expect(report.requirements.filter((r) => r.verdict === 'fail')).toEqual([]);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
