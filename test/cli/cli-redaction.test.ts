import { describe, expect, it } from 'vitest';
import { allFiles, runCli, startStandalone, tempDir } from './cli-helpers.ts';

const KEY = 'sk-live-Recognisable-7f3a9c2e51';
/** The key in the forms a careless log line might take. */
const FORMS = [KEY, KEY.toLowerCase(), KEY.toUpperCase(), encodeURIComponent(KEY), Buffer.from(KEY).toString('base64')];

describe('redaction: the API key appears in no report, bundle, console line or error', () => {
  it.each([
    // --certify implies --require-complete: the quick profile's partial run exits 1 without a failure.
    ['the right key (a partial quick run, with a certification bundle)', KEY, 'partial'],
    ['a wrong key (every request refused: failures full of evidence)', 'right-key-only-the-server-knows-42', 'not-conformant'],
  ] as const)('%s', async (_label, serverKey, overall) => {
    const { url } = await startStandalone(`${serverKey}:enterprise:100000:1000000`);
    const reports = tempDir('redaction-reports-');
    const bundle = tempDir('redaction-bundle-');
    const result = await runCli(['--target', url, '--profile', 'quick', '--report-dir', reports, '--certify', bundle], { API_KEY: KEY });
    expect(result.code).toBe(1);
    const outputs = [
      { path: 'stdout', text: result.stdout },
      { path: 'stderr', text: result.stderr },
      ...allFiles(reports),
      ...allFiles(bundle),
    ];
    expect(outputs.map((o) => o.path.replace(/.*\//, '')).sort()).toEqual(
      expect.arrayContaining(['conformance.html', 'conformance.json', 'junit.xml', 'exchanges.har', 'manifest.json', 'stdout']),
    );
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
  });
});
