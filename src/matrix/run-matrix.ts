import type { RejudgeOptions } from '../certificate/index.ts';
import { shownText } from '../text/console-text.ts';
import { parseArgs } from 'node:util';
import { HarnessError } from '../errors.ts';
import { buildMatrix } from './build-matrix.ts';
import type { MatrixInput } from './matrix-types.ts';
import { loadTrustedKeys, readInputs } from './verify-input.ts';
import { TRUST_WORDS, columnLabel, failsIn, shortFingerprint } from './labels.ts';
import { writeMatrix } from './write-matrix.ts';

/** A piece of an input (a path, a name, a problem quoting a bundle) on one line, escaped: it adds no line to the output. */
const one = (text: string) => shownText(text, 2000);

export const MATRIX_USAGE = `Usage: animal-store-conformance matrix <bundle-or-report>… --out <dir> [options]

Verifies each certification bundle, then writes one page comparing the implementations requirement by
requirement: <dir>/matrix.html (self-contained), matrix.json (spec/matrix.schema.json), matrix.md (a
summary for a README) and badges/<implementation>.svg. Bundles of one implementation at several
versions (--implementation name@version) show what changed between them, as \`compare\` says it.

  --out <dir>              where to write the matrix (required)
  --public-key <pem|dir>   a trusted signer's public key, or a directory of them (*.pem); repeatable
  --allow-unsigned         show unsigned bundles and bare conformance.json reports, marked as such
  --include-unverified     show inputs that do not verify, marked NOT VERIFIED (never counted or ranked)
  -h, --help               this text

Exit 0 when the matrix is written; 1 when an input does not verify (nothing is written unless
--include-unverified) or cannot be read at all; 2 on a usage error or inputs that do not compare.`;

/**
 * `matrix` as the command line runs it: returns the exit code. `rejudge`: what verify's re-judging holds
 * the tests to (RejudgeOptions), for bundles the project's tests make up.
 */
export async function runMatrix(argv: readonly string[], log: (line: string) => void, rejudge: RejudgeOptions = {}): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        out: { type: 'string' },
        'public-key': { type: 'string', multiple: true },
        'allow-unsigned': { type: 'boolean' },
        'include-unverified': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      log(MATRIX_USAGE);
      return 0;
    }
    if (!values.out) throw new HarnessError('ERR_CONFIG', 'matrix needs --out <dir>');
    if (positionals.length === 0) throw new HarnessError('ERR_CONFIG', 'matrix needs at least one bundle directory or conformance.json');
    const keys = loadTrustedKeys(values['public-key'] ?? []);
    const allowUnsigned = values['allow-unsigned'] === true;
    const includeUnverified = values['include-unverified'] === true;
    const outcomes = await readInputs(positionals, { keys, allowUnsigned, rejudge });

    const inputs: MatrixInput[] = [];
    let refused = 0;
    for (const outcome of outcomes) {
      if ('unreadable' in outcome) {
        refused += 1;
        log(`REFUSED ${one(outcome.source)}: ${one(outcome.unreadable)}`);
        continue;
      }
      const { input } = outcome;
      if (input.trust === 'not-verified') {
        log(`${includeUnverified ? 'NOT VERIFIED (shown, marked)' : 'REFUSED'} ${one(input.source)}: ${one(input.problems.join('; '))}`);
        if (!includeUnverified) {
          refused += 1;
          continue;
        }
      }
      inputs.push(input);
    }
    if (refused > 0 && !includeUnverified) {
      log(`matrix: ${refused} of ${outcomes.length} inputs refused; nothing written (--include-unverified shows the readable ones, marked)`);
      return 1;
    }
    if (inputs.length === 0) {
      log('matrix: no input can be shown; nothing written');
      return 1;
    }
    const matrix = buildMatrix(inputs, { generatedAt: new Date().toISOString(), outDir: values.out });
    const written = writeMatrix(matrix, inputs, values.out);
    for (const c of matrix.implementations)
      log(
        `${TRUST_WORDS[c.trust].padEnd(16)} ${one(columnLabel(c))}: ${c.verdictLabel}, ${c.mustTested} of ${c.mustInScope} MUSTs tested${c.signer ? `, key ${shortFingerprint(c.signer.fingerprint)}` : ''} (${one(c.source)})`,
      );
    const best = matrix.implementations.find((c) => c.key === matrix.ranking[0]);
    if (best) log(`best: ${one(columnLabel(best))} (${best.verdictLabel})`);
    const worst = matrix.requirements.find((r) => r.id === matrix.mostFailed[0]);
    if (worst) log(`most often failed: ${worst.id} ${worst.level}, ${failsIn(worst.counts.failing, worst.counts.of)}`);
    log(`wrote ${written.length} files: ${one(written.slice(0, 3).join(', '))}${written.length > 3 ? ` and ${written.length - 3} badges` : ''}`);
    return refused > 0 ? 1 : 0;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    log(`animal-store-conformance matrix: ${one(message ?? '')}`);
    return 2;
  }
}
