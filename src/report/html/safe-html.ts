/**
 * HTML built only through the `html` tag: every interpolated string is escaped, so text from the target
 * (pet names, headers, bodies, error messages) can never become markup. Markup is a SafeHtml value.
 */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = string | number | boolean | SafeHtml | null | undefined | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * C0 controls (but tab and newlines), DEL, C1 controls (U+009B is a terminal's CSI when the page is
 * printed) and the bidirectional overrides (which reorder what a reader sees), shown as \\uXXXX:
 * visible in any font, and inert.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are stripped from the page
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

function showControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(showControls(String(value)));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Markup the suite itself wrote (the stylesheet, the script); never text from a target. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** `when` ? the markup : nothing. */
export function when(condition: boolean, build: () => SafeHtml): SafeHtml | undefined {
  return condition ? build() : undefined;
}
