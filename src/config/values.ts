import { HarnessError } from '../errors.ts';
import { INT64_MAX, INT64_MIN } from '../text/json.ts';

/** The value checks of the configuration: each names where the value came from (`from`) when it is wrong. */

export function normaliseTarget(raw: string | undefined, from: string, warnings: string[]): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HarnessError('ERR_CONFIG', `${from} is not a URL: "${raw}" (expected e.g. https://staging.example.com/v1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HarnessError('ERR_CONFIG', `${from} must be an http(s) URL; got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new HarnessError('ERR_CONFIG', `${from} must not carry credentials; pass the key with --api-key or API_KEY`);
  }
  if (url.search || url.hash) {
    throw new HarnessError('ERR_CONFIG', `${from} must be a base URL without query or fragment`);
  }
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  if (!base.endsWith('/v1')) warnings.push(`the target's base path does not end in /v1: ${base} (VER-001 will fail)`);
  return base;
}

export function parseCategoryIds(raw: string | undefined, from: string): string[] | undefined {
  if (raw === undefined) return undefined;
  const ids = splitList(raw);
  if (ids.length === 0) throw new HarnessError('ERR_CONFIG', `${from} needs at least one id`);
  return ids.map((id) => {
    if (!/^-?\d+$/.test(id)) throw new HarnessError('ERR_CONFIG', `${from}: "${id}" is not an integer`);
    const value = BigInt(id);
    if (value < INT64_MIN || value > INT64_MAX) throw new HarnessError('ERR_CONFIG', `${from}: ${id} is outside int64`);
    return value.toString();
  });
}

export function splitList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The modulus a larger seed is reduced by: the Action's default seed is the workflow run's id reduced the same way. */
const SEED_MODULUS = 2147483647;

/**
 * A seed within ±2^31 is used as given; a larger whole number (a GitHub run id, ${{ github.run_id }}) is
 * reduced modulo 2^31 − 1, so `--seed "$GITHUB_RUN_ID"` runs the same cases as the Action's shards.
 */
export function parseSeed(text: string, from: string): number {
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new HarnessError('ERR_CONFIG', `${from} must be a whole number (e.g. a GitHub run id); got "${text}"`);
  }
  const value = Number(text);
  return Math.abs(value) > 2 ** 31 ? value % SEED_MODULUS : value;
}

export function parsePositiveInt(text: string, from: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1) throw new HarnessError('ERR_CONFIG', `${from} must be a positive integer; got "${text}"`);
  return value;
}

export function parseShard(text: string | undefined, from: string): string | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2])) {
    throw new HarnessError('ERR_CONFIG', `${from} must look like i/n with 1 <= i <= n; got "${text}"`);
  }
  return text;
}

/**
 * --implementation name@version: printable text on one line (no control, format or line-separator
 * characters), so a certificate's name reads the same in every output and adds no line to any of them.
 */
export function parseImplementation(text: string | undefined, from: string): string | undefined {
  if (text === undefined) return undefined;
  // Cc (controls), Cf (format: bidi overrides, zero-width), Zl/Zp (line and paragraph separators).
  if (text.trim() === '' || text.length > 200 || /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(text)) {
    throw new HarnessError('ERR_CONFIG', `${from} must be printable text on one line (name@version, at most 200 characters)`);
  }
  return text;
}

/** --implementation-digest sha256:<64 hex>, kept as the hex. */
export function parseImplementationDigest(text: string | undefined, from: string): string | undefined {
  if (text === undefined) return undefined;
  const match = /^sha256:([0-9a-f]{64})$/i.exec(text.trim());
  if (!match?.[1]) throw new HarnessError('ERR_CONFIG', `${from} must be sha256:<64 hex digits>; got "${text}"`);
  return match[1].toLowerCase();
}

/**
 * --shard-key: a secret of at least 32 printable characters (`openssl rand -hex 32`), for a shard (which
 * MACs its blob and record with it, bound to the run nonce it needs) or a merge (which authenticates them).
 * Never echoed: an error names where it came from only.
 */
export function parseShardKey(
  text: string | undefined,
  from: string,
  use: { shard: string | undefined; merging: boolean; runNonce: string | undefined },
): string | undefined {
  if (text === undefined) return undefined;
  if (!/^[\x21-\x7e]{32,}$/.test(text))
    throw new HarnessError('ERR_CONFIG', `${from} must be at least 32 printable characters without spaces (e.g. openssl rand -hex 32)`);
  if (!use.shard && !use.merging)
    throw new HarnessError('ERR_CONFIG', `${from} applies to a shard (--shard) or a merge (--merge-reports): a whole run has no shards to authenticate`);
  if (use.shard && use.runNonce === undefined)
    throw new HarnessError('ERR_CONFIG', `${from} needs --run-nonce on a shard: the MAC binds the shard to the nonce the merge issued`);
  return text;
}

/** A control character's name in a message: the common ones by what they are, the rest by code. */
function controlName(char: string): string {
  const names: Record<string, string> = { '\n': 'a line break', '\r': 'a carriage return', '\t': 'a tab', '\0': 'a NUL' };
  return names[char] ?? `the control character U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * A secret (a key, a header's value) with a control character in it — most often the line break a
 * `echo key > file` or a copied secret leaves at its end — is refused at start, by where it came from and
 * where the character sits, never echoing the value: sent, it fails every request with an opaque
 * transport error (undici refuses the header) or reaches the target as another key.
 */
export function refuseControlCharacters(value: string, from: string, what: string, options: { tab?: boolean } = {}): void {
  // A header's value may hold a tab (RFC 9110 allows HTAB); a key may not.
  // eslint-disable-next-line no-control-regex -- the control characters are what is looked for
  const found = (options.tab ? /[\0-\x08\x0a-\x1f\x7f]/ : /[\0-\x1f\x7f]/).exec(value);
  if (!found) return;
  const at = found.index === value.length - 1 ? 'at its end' : found.index === 0 ? 'at its start' : `at character ${found.index + 1}`;
  throw new HarnessError(
    'ERR_CONFIG',
    `${from}: the ${what} holds ${controlName(found[0])} ${at}; remove it (a trailing newline from a file or a pasted secret is the usual cause)`,
  );
}
