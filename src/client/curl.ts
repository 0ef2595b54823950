/** The shell variable curl lines read the key from; the key itself never appears in them. */
export const API_KEY_VARIABLE = '$API_KEY';
/** The variable's name alone: a client of another key (the exhaustion key, a plan key) names its own. */
export const API_KEY_NAME = 'API_KEY';

export interface CurlRequest {
  method: string;
  url: string;
  /** Written literally (single-quoted). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Written inside double quotes so the shell expands them, e.g. { Authorization: 'Bearer $API_KEY' }.
   * The caller vouches that the text is valid inside double quotes and holds no secret.
   */
  shellHeaders?: Readonly<Record<string, string>>;
  body?: string;
  /** The request target, when it is not the url's path and query (curl's --request-target). */
  requestTarget?: string;
  /** The key: wherever it occurs in url, headers or body, the line says "$API_KEY" instead. */
  secret?: string;
  /** The variable the line reads the key from, by name (default API_KEY). */
  secretVariable?: string;
  /** Headers curl adds by itself that the request went without (`Host`): written `-H 'Host:'`, which removes one. */
  omitHeaders?: readonly string[];
}

/** Text inside single quotes is taken literally by POSIX shells; only ' itself needs the '\'' dance. */
export function singleQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

// Characters that keep their meaning inside double quotes (plus ! for interactive bash's history).
const DOUBLE_QUOTE_SPECIAL = /["\\$`!]/;

/** A shell word for `text`, with each occurrence of `secret` read from $API_KEY (or `variable`) at run time. */
export function shellWord(text: string, secret?: string, variable: string = API_KEY_NAME): string {
  const parts = secret ? text.split(secret) : [text];
  if (parts.length === 1) return singleQuote(text);
  // Braced where a following letter, digit or _ would otherwise extend the variable's name.
  const plain = `$${variable}`;
  const braced = `\${${variable}}`;
  if (!parts.some((p) => DOUBLE_QUOTE_SPECIAL.test(p))) {
    return `"${parts.reduce((word, part) => word + (/^\w/.test(part) ? braced : plain) + part)}"`;
  }
  // Literal parts that would need escaping stay single-quoted; the key is spliced in between.
  return parts.map((p) => (p === '' ? '' : singleQuote(p))).join(`"${plain}"`);
}

const TOKEN = /^[A-Za-z0-9!#%&*+.^_`|~-]+$/;

/** `Name: value` for -H; an empty value needs curl's `Name;` form, since `Name:` removes the header. */
function headerLine(name: string, value: string): string {
  return value === '' ? `${name};` : `${name}: ${value}`;
}

/**
 * "Reproduce with:" — one curl command line that sends the same request, the key taken from $API_KEY.
 * Every argument is quoted for POSIX shells, so arbitrary bodies (quotes, newlines, unicode) survive.
 */
export function toCurl(request: CurlRequest): string {
  const { secret, secretVariable } = request;
  const word = (text: string) => shellWord(text, secret, secretVariable);
  const method = TOKEN.test(request.method) ? request.method : singleQuote(request.method);
  const args = ['curl', '-sS', '-X', method, word(request.url)];
  if (request.requestTarget !== undefined) args.push('--request-target', word(request.requestTarget));
  for (const [name, value] of Object.entries(request.shellHeaders ?? {})) {
    args.push('-H', `"${name.replace(/["\\$`]/g, '\\$&')}: ${value}"`);
  }
  for (const name of request.omitHeaders ?? []) args.push('-H', singleQuote(`${name}:`));
  let contentType = false;
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (name.toLowerCase() === 'content-type') contentType = true;
    args.push('-H', word(headerLine(name, value)));
  }
  if (request.body !== undefined) {
    // curl adds a form Content-Type to --data-raw unless told not to; the request had none.
    if (!contentType) args.push('-H', singleQuote('Content-Type:'));
    args.push('--data-raw', word(request.body));
  }
  return args.join(' ');
}
