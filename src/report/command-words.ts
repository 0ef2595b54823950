import { HarnessError } from '../errors.ts';

/**
 * Command lines as the report records them (run.command): split into words, and the line that starts an
 * embedded run's reference again. Pure, so the report and the command line share it.
 */

/** Splits a command line as a POSIX shell would for the forms reproduceCommand writes: '…', "…", bare words. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < command.length; i++) {
    const char = command[i] as string;
    if (char === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) throw new HarnessError('ERR_CONFIG', '--replay: the recorded command has an unclosed quote');
      word += command.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (char === '"') {
      const end = command.indexOf('"', i + 1);
      if (end === -1) throw new HarnessError('ERR_CONFIG', '--replay: the recorded command has an unclosed quote');
      word += command.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (char === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * The embedded reference of a run closes with it, so its curl lines point at a closed port: this line
 * starts the same reference (its faults and variants) on the same port, with $API_KEY accepted, so the
 * curl lines work as printed. Undefined for a remote target.
 */
export function referenceStartLine(run: { target: { url: string; embedded: boolean }; command: string }): string | undefined {
  if (!run.target.embedded) return undefined;
  let port: string;
  try {
    port = new URL(run.target.url).port;
  } catch {
    return undefined;
  }
  const words = shellWords(run.command);
  const valueOf = (flag: string) => {
    const at = words.findIndex((w) => w === flag || w.startsWith(`${flag}=`));
    if (at === -1) return undefined;
    return words[at]?.includes('=') ? words[at]?.slice(flag.length + 1) : words[at + 1];
  };
  const faults = valueOf('--reference-faults');
  const variants = valueOf('--reference-variants');
  return [
    `PORT=${port} REFERENCE_API_KEYS="$API_KEY:enterprise:1000000000:1000000000" npx animal-store-conformance reference`,
    ...(faults ? [`--faults ${faults}`] : []),
    ...(variants ? [`--variants ${variants}`] : []),
  ].join(' ');
}
