/**
 * The one sanitiser for what reaches a terminal or a CI log. A target controls much of what the suite
 * prints (bodies quoted in failures, header values, error messages): raw, it could clear the screen,
 * write the clipboard (OSC 52), draw a hyperlink, print a fake verdict line, or write `::` or `##[`,
 * which GitHub Actions runs as a workflow command (`::` after a line's blanks, `##[command]` anywhere in
 * a line). Everything is shown, nothing is dropped: the dangerous characters appear escaped, e.g. `\x1b`.
 */

/** How much of one piece of target text a console line shows. */
export const SHOWN_CHARS = 400;

/**
 * C0 controls and DEL, C1 controls, line and paragraph separators, the bidirectional controls (which can
 * reorder what a reader sees), zero-width characters, the BOM, and lone surrogates.
 */
/* eslint-disable no-control-regex -- matching control characters is the point */
const UNSAFE =
  /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** The same, but newlines and tabs pass: for whole blocks of the suite's own output. */
const UNSAFE_IN_BLOCK =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * The marks of a workflow command, wherever they sit in a line: a colon followed by a colon (`::`, and
 * each but the last of `:::`), and a `#` followed by `#[` (`##[`). One character of lookahead: linear.
 */
const COMMAND_MARKS = /:(?=:)|#(?=#\[)/g;

/** Every `::` and `##[` made inert: the colon or `#` that starts it is shown escaped. */
function neutraliseCommand(line: string): string {
  return line.replace(COMMAND_MARKS, (mark) => (mark === ':' ? '\\x3a' : '\\x23'));
}

/**
 * One piece of text that came from a target (or may have), for a console line: one line, every control
 * character and escape sequence shown escaped, every `::` and `##[` neutralised, cut at `max` characters.
 * Text that may hold the API key is redacted before it comes here (the cut must not split the key).
 */
export function shownText(text: string, max = SHOWN_CHARS): string {
  let cut = text.length > max ? text.slice(0, max) : text;
  // Do not leave half a surrogate pair at the cut.
  if (cut.length < text.length && /[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  const shown = neutraliseCommand(cut.replace(UNSAFE, escapeChar));
  return cut.length < text.length ? `${shown}… (${text.length - cut.length} more characters)` : shown;
}

/**
 * A block of console output, as the sink writes it: line breaks kept, every other control character
 * shown escaped, and every workflow command mark (`::`, `##[`) in any line neutralised. The suite's own
 * annotations do not go through here (see ci-output.ts): they are built from shownText pieces instead.
 */
export function consoleSafe(block: string): string {
  return block.replace(UNSAFE_IN_BLOCK, escapeChar).split('\n').map(neutraliseCommand).join('\n');
}
