import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';

/** Reading the project's Markdown pages as GitHub shows them: links, heading anchors, npm scripts named. */

export interface MarkdownLink {
  /** The page the link points to, relative to the linking page; '' for a link to a heading of the same page. */
  path: string;
  /** The heading anchor, without '#'; undefined when the link names none. */
  anchor: string | undefined;
  line: number;
}

const FENCE = /^\s*(```|~~~)/;

/** Each line outside fenced code blocks, with its 1-based number; lines inside a fence are blank. */
function proseLines(markdown: string): string[] {
  let inFence = false;
  return markdown.split('\n').map((line) => {
    if (FENCE.test(line)) {
      inFence = !inFence;
      return '';
    }
    return inFence ? '' : line;
  });
}

/** Relative links of a page (inline `[text](target)` outside code); web and mail addresses are left out. */
export function relativeLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(markdown).forEach((line, index) => {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] as string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf('#');
      links.push({
        path: hash === -1 ? target : target.slice(0, hash),
        anchor: hash === -1 ? undefined : target.slice(hash + 1),
        line: index + 1,
      });
    }
  });
  return links;
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of every heading of a page (outside code), a repeated heading numbered as GitHub does. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1] as string);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every npm script a page names (`npm run <name>`, `npm test`), code blocks included. */
export function npmScriptsNamed(markdown: string): string[] {
  const names = new Set<string>();
  for (const match of markdown.matchAll(/\bnpm run(?:\s+--silent)?\s+([a-z][\w-]*(?::[\w-]+)*)/g)) names.add(match[1] as string);
  if (/\bnpm test\b/.test(markdown)) names.add('test');
  return [...names];
}

/** Every Markdown page under docs/, in its purpose folders too, as repository-relative paths. */
export function docsPages(root: string): string[] {
  return readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name.split(sep).join('/')}`)
    .sort();
}
