/** A minimal XML 1.0 well-formedness check that also returns the element tree, for junit.xml tests. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = '[A-Za-z_:][-A-Za-z0-9_.:]*';
const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9A-Fa-f]+);/g;
const INVALID_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const TAG = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*"[^"<]*")*)\\s*(/?)>`);
const ATTRIBUTE = new RegExp(`(${NAME})\\s*=\\s*"([^"<]*)"`, 'g');

function decode(text: string, where: string): string {
  if (text.replace(ENTITY, '').includes('&')) throw new Error(`bare & in ${where}`);
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9A-Fa-f]+);/g, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
}

/** Throws with the first problem found; returns the root element. */
export function parseXml(xml: string): XmlElement {
  if (INVALID_CHAR.test(xml)) throw new Error('a character XML 1.0 forbids');
  let rest = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (rest.length > 0) {
    if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      if (end < 0) throw new Error('unclosed comment');
      rest = rest.slice(end + 3);
      continue;
    }
    if (rest.startsWith('<')) {
      const match = TAG.exec(rest);
      if (!match) throw new Error(`malformed tag near ${JSON.stringify(rest.slice(0, 60))}`);
      const [whole, closing, name, attrText, selfClosing] = match as unknown as [string, string, string, string, string];
      rest = rest.slice(whole.length);
      if (closing) {
        const open = stack.pop();
        if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name ?? 'nothing'}>`);
        continue;
      }
      const attributes: Record<string, string> = {};
      for (const [, key, value] of attrText.matchAll(ATTRIBUTE)) {
        if (key! in attributes) throw new Error(`duplicate attribute ${key} on <${name}>`);
        attributes[key!] = decode(value!, `attribute ${key}`);
      }
      const element: XmlElement = { name, attributes, children: [], text: '' };
      const parent = stack.at(-1);
      if (parent) parent.children.push(element);
      else if (root) throw new Error('more than one root element');
      else root = element;
      if (!selfClosing) stack.push(element);
      continue;
    }
    const next = rest.indexOf('<');
    const text = next < 0 ? rest : rest.slice(0, next);
    rest = next < 0 ? '' : rest.slice(next);
    const parent = stack.at(-1);
    if (!parent) {
      if (text.trim()) throw new Error('text outside the root element');
      continue;
    }
    parent.text += decode(text, `<${parent.name}> text`);
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)?.name}> is not closed`);
  if (!root) throw new Error('no root element');
  return root;
}
