/**
 * The one sanitiser for what reaches a terminal or a CI log. A target controls much of what the suite
 * prints (bodies quoted in failures, header values, error messages): raw, it could clear the screen,
 * write the clipboard (OSC 52), draw a hyperlink, print a fake verdict line, or start a line with `::`,
 * which GitHub Actions runs as a workflow command. Everything is shown, nothing is dropped: the
 * dangerous characters appear escaped, e.g. `\x1b`.
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

/** A line whose first non-blank characters are `::` (GitHub Actions trims before it reads a command). */
const COMMAND_START = /^([ \t]*)::/;

/** `::` at the start made inert: the first colon is shown escaped. */
function neutraliseCommand(line: string): string {
  return line.replace(COMMAND_START, '$1\\x3a:');
}

/**
 * One piece of text that came from a target (or may have), for a console line: one line, every control
 * character and escape sequence shown escaped, a leading `::` neutralised, cut at `max` characters.
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
 * shown escaped, and every line that would start a workflow command neutralised. The suite's own
 * annotations do not go through here (see ci-output.ts): they are built from shownText pieces instead.
 */
export function consoleSafe(block: string): string {
  return block.replace(UNSAFE_IN_BLOCK, escapeChar).split('\n').map(neutraliseCommand).join('\n');
}
