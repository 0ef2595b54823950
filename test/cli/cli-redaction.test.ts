import { describe, expect, it, onTestFinished } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { allFiles, runCli, startStandalone, tempDir } from './cli-helpers.ts';

const KEY = 'sk-live-Recognisable-7f3a9c2e51';
/** The key in the forms a careless log line might take. */
const FORMS = [KEY, KEY.toLowerCase(), KEY.toUpperCase(), encodeURIComponent(KEY), Buffer.from(KEY).toString('base64')];

/** A reference that accepts any token and answers createPet with 200: failures whose evidence carries the key and its variants. */
async function faultyTarget(): Promise<string> {
  const server = await startReferenceServer({
    keys: [{ key: KEY, plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 }],
    faults: ['auth-any-token', 'create-returns-200'],
  });
  onTestFinished(() => server.close());
  return server.url;
}

describe('redaction: the API key appears in no report, bundle, console line or error', () => {
  it.each([
    // --certify implies --require-complete: a key too large to exhaust leaves the run partial, exit 1.
    [
      'the right key (a partial thorough run, with a certification bundle)',
      async () => (await startStandalone(`${KEY}:enterprise:100000:1000000`)).url,
      1,
      'partial',
    ],
    [
      'a wrong key (refused by the preflight)',
      async () => (await startStandalone('right-key-only-the-server-knows-42:enterprise:100000:1000000')).url,
      2,
      'incomplete',
    ],
    ['a faulty server (failures full of evidence)', faultyTarget, 1, 'not-conformant'],
  ] as const)('%s', async (_label, start, exitCode, overall) => {
    const url = await start();
    const reports = tempDir('redaction-reports-');
    const bundle = tempDir('redaction-bundle-');
    const plan = ['--plan', 'enterprise:100000:1000000'];
    const result = await runCli(['--target', url, ...plan, '--profile', 'thorough', '--report-dir', reports, '--certify', bundle], { API_KEY: KEY });
    expect(result.code, result.stdout).toBe(exitCode);
    const outputs = [{ path: 'stdout', text: result.stdout }, { path: 'stderr', text: result.stderr }, ...allFiles(reports), ...allFiles(bundle)];
    expect(outputs.map((o) => o.path.replace(/.*\//, '')).sort()).toEqual(
      expect.arrayContaining(['conformance.html', 'conformance.json', 'junit.xml', 'stdout']),
    );
    if (overall !== 'incomplete') expect(outputs.map((o) => o.path.replace(/.*\//, ''))).toEqual(expect.arrayContaining(['exchanges.har', 'manifest.json']));
    for (const { path, text } of outputs) {
      for (const form of FORMS) expect(text.includes(form), `${form} found in ${path}`).toBe(false);
    }
    const json = outputs.find((o) => o.path.endsWith('conformance.json'))?.text ?? '';
    expect((JSON.parse(json) as { verdict: { overall: string } }).verdict.overall).toBe(overall);
    // Failures carry their evidence, only redacted: Authorization reads "Bearer ***", curl uses $API_KEY.
    if (overall === 'not-conformant') {
      expect(json).toContain('Bearer ***');
      expect(json).toContain('$API_KEY');
      expect(result.stdout).toContain('Reproduce with: curl');
    }
    if (overall === 'incomplete') expect(result.stdout).toMatch(/the key was refused/);
  });
});
