import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { USAGE, parseCliArgs } from '../../src/cli/args.ts';

interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Array<{ id?: string; run?: string; uses?: string; env?: Record<string, string> }> };
}

const action = parse(readFileSync(fileURLToPath(new URL('../../action.yml', import.meta.url)), 'utf8')) as Action;
const runStep = action.runs.steps.find((s) => s.id === 'run');

/** How each input reaches the CLI: a flag, or an environment variable the CLI reads. */
const INPUT_TO_CLI: Record<string, string> = {
  target: '--target',
  'api-key': 'API_KEY',
  'exhaust-key': 'EXHAUST_API_KEY',
  profile: '--profile',
  baseline: '--baseline',
  'require-complete': '--require-complete',
  'report-dir': '--report-dir',
};

describe('action.yml: the GitHub Action runs the real CLI', () => {
  it('is a composite action whose run step starts the package bin', () => {
    expect(action.runs.using).toBe('composite');
    expect(runStep?.run).toContain('src/bin/animal-store-conformance.js');
    expect(action.runs.steps.some((s) => s.uses?.startsWith('actions/upload-artifact@'))).toBe(true);
  });

  it('maps every input onto a flag the CLI parses or a variable it reads, and names the outputs', () => {
    expect(Object.keys(action.inputs).sort()).toEqual(Object.keys(INPUT_TO_CLI).sort());
    for (const [input, cli] of Object.entries(INPUT_TO_CLI)) {
      const script = `${runStep?.run ?? ''}\n${JSON.stringify(runStep?.env ?? {})}`;
      if (cli.startsWith('--')) {
        expect(USAGE, `${input} → ${cli}`).toContain(cli);
        expect(script, `${input} → ${cli}`).toContain(cli);
        // The flag parses (a value where it takes one).
        expect(() => parseCliArgs(cli === '--require-complete' ? [cli] : [cli, 'x'])).not.toThrow();
      } else {
        expect(runStep?.env?.[cli], `${input} → ${cli}`).toBe(`\${{ inputs.${input} }}`);
        expect(USAGE).toContain(cli);
      }
    }
    expect(Object.keys(action.outputs).sort()).toEqual(['report', 'verdict']);
    expect(runStep?.run).toContain('verdict=');
  });

  it('never puts the key on a command line', () => {
    expect(runStep?.run ?? '').not.toContain('api-key');
    expect(runStep?.run ?? '').not.toContain('inputs.api-key');
  });
});
