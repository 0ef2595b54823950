import { createHash } from 'node:crypto';
import { type SafeHtml, html, trusted } from './safe-html.ts';

/** What differs between the suite's HTML pages (the report, the matrix); the shell around it is one. */
export interface PageParts {
  readonly title: string;
  /** The generator meta element's content; absent: none. */
  readonly generator?: string;
  readonly styles: string;
  /** The page's one inline script: the Content-Security-Policy admits it by hash and nothing else. */
  readonly script: string;
  readonly mainClass?: string;
  /** What goes inside <main>. */
  readonly content: SafeHtml;
}

/**
 * One self-contained page: inline CSS and script, no network, no external font. Its
 * Content-Security-Policy admits only its own script, by hash, and no connection at all: even a
 * rendering bug could not make it run a target's script or phone home.
 */
export function htmlPage(parts: PageParts): SafeHtml {
  const scriptHash = createHash('sha256').update(parts.script).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const generator = parts.generator === undefined ? '' : html`<meta name="generator" content="${parts.generator}">\n`;
  const mainClass = parts.mainClass === undefined ? '' : html` class="${parts.mainClass}"`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
${generator}<title>${parts.title}</title>
<style>${trusted(parts.styles)}</style>
</head>
<body>
<main${mainClass}>
${parts.content}
</main>
<script>${trusted(parts.script)}</script>
</body>
</html>
`;
}
