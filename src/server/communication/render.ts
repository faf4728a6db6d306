import {
  isTemplateVariable,
  TEMPLATE_VARIABLES,
  type TemplateLanguage,
  type TemplateVariable,
  VARIABLE_PATTERN,
} from '../../shared/contracts/communication.js';
import { escapeHtml } from './approval-notice.js';

/**
 * The template language (docs/decisions/201): a small, safe Markdown subset rendered to both an HTML
 * and a plain-text part, with `{{variables}}` filled in after parsing, so a value is always text (a
 * `<script>` or `**` in a first name stays what it is) and raw HTML in a template is never HTML.
 *
 * Blocks, separated by blank lines: paragraphs (a line break stays a line break), `#`/`##`/`###`
 * headings, `- ` lists, `---` rules. Inline: `**bold**`, `*italic*`, `[label](url)` with an http(s) or
 * mailto address (or a url variable), bare http(s) addresses, `\` escapes.
 */

export type TemplateValues = Partial<Record<TemplateVariable, string>>;

export interface RenderedParts {
  subject: string;
  html: string;
  text: string;
}

const OPEN = '\uE000';
const CLOSE = '\uE001';
const PLACEHOLDER = /\uE000(\d+)\uE001/g;
const ESCAPED = /\\([\\*_[\]()#\-`{}!.>])/g;
const ESC_OPEN = '\uE002';
const ESC_CLOSE = '\uE003';

// biome-ignore lint/suspicious/noControlCharactersInRegex: values must not break the mail's lines or header
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** A value of the map by its own property only: an inherited name (`constructor`) is no value. */
function ownValue(values: TemplateValues, name: TemplateVariable): string {
  const value = Object.hasOwn(values, name) ? values[name] : undefined;
  return typeof value === 'string' ? value : '';
}

interface Slots {
  names: TemplateVariable[];
}

/** Replaces `{{name}}` by numbered placeholders; unknown names stay as they are written. */
function withPlaceholders(source: string, slots: Slots): string {
  return source.replace(VARIABLE_PATTERN, (whole, name: string) => {
    if (!isTemplateVariable(name)) return whole;
    slots.names.push(name);
    return `${OPEN}${slots.names.length - 1}${CLOSE}`;
  });
}

/** Backslash escapes become placeholders too, so the inline rules never see them. */
function protectEscapes(source: string): string {
  return source.replace(ESCAPED, (_, ch: string) => `${ESC_OPEN}${ch.charCodeAt(0)}${ESC_CLOSE}`);
}
const ESCAPE_BACK = /\uE002(\d+)\uE003/g;

const SAFE_URL = /^(https?:\/\/|mailto:)[^\s<>"]+$/i;

/** What the inline rules fill placeholders from: the body's slots and the mail's values. */
interface SlotValues {
  slots: Slots;
  values: TemplateValues;
}

function slotValue(fill: SlotValues, index: number): string {
  const name = fill.slots.names[index];
  if (!name) return '';
  return ownValue(fill.values, name).replace(CONTROL, '');
}

function kindOf(fill: SlotValues, index: number) {
  const name = fill.slots.names[index];
  return name ? TEMPLATE_VARIABLES[name].kind : 'text';
}

/** A link target: a literal safe address or one url/email variable; anything else is no link. */
function linkTarget(raw: string, fill: SlotValues): string | null {
  const only = /^\uE000(\d+)\uE001$/.exec(raw.trim());
  if (only) {
    const i = Number(only[1]);
    const value = slotValue(fill, i);
    const kind = kindOf(fill, i);
    if (kind === 'email' && value) return `mailto:${value}`;
    return SAFE_URL.test(value) ? value : null;
  }
  const literal = raw.trim().replace(ESCAPE_BACK, (_, c: string) => String.fromCharCode(Number(c)));
  return SAFE_URL.test(literal) && !/\uE000/.test(literal) ? literal : null;
}

type Token =
  | { t: 'text'; v: string }
  | { t: 'strong'; children: Token[] }
  | { t: 'em'; children: Token[] }
  | { t: 'link'; href: string; children: Token[] };

const INLINE =
  /\*\*(?=\S)([\s\S]*?\S)\*\*|\*(?=[^\s*])([\s\S]*?[^\s*])\*|\[([^\]]+)\]\(([^()\s]+)\)|(https?:\/\/[^\s<>"\uE000]*[^\s<>".,;:!?)\]\uE000])/;

function tokenize(source: string, fill: SlotValues): Token[] {
  const out: Token[] = [];
  let rest = source;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push({ t: 'text', v: rest });
      break;
    }
    if (m.index > 0) out.push({ t: 'text', v: rest.slice(0, m.index) });
    if (m[1] !== undefined) out.push({ t: 'strong', children: tokenize(m[1], fill) });
    else if (m[2] !== undefined) out.push({ t: 'em', children: tokenize(m[2], fill) });
    else if (m[3] !== undefined) {
      const href = linkTarget(m[4] ?? '', fill);
      if (href) out.push({ t: 'link', href, children: tokenize(m[3], fill) });
      else out.push(...tokenize(m[3], fill));
    } else if (m[5] !== undefined) out.push({ t: 'link', href: m[5], children: [{ t: 'text', v: m[5] }] });
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

function unescapeLiteral(s: string): string {
  return s.replace(ESCAPE_BACK, (_, c: string) => String.fromCharCode(Number(c)));
}

/** Text with placeholders to HTML: literal text escaped, values escaped, url/email values linked. */
function textHtml(v: string, fill: SlotValues, inLink: boolean): string {
  let html = '';
  let last = 0;
  for (const m of v.matchAll(PLACEHOLDER)) {
    html += escapeHtml(unescapeLiteral(v.slice(last, m.index))).replaceAll('\n', '<br>\n');
    const i = Number(m[1]);
    const value = slotValue(fill, i);
    const kind = kindOf(fill, i);
    const href =
      kind === 'email' && value ? `mailto:${value}` : kind === 'url' && SAFE_URL.test(value) ? value : null;
    html += href && !inLink ? `<a href="${escapeHtml(href)}">${escapeHtml(value)}</a>` : escapeHtml(value);
    last = (m.index ?? 0) + m[0].length;
  }
  html += escapeHtml(unescapeLiteral(v.slice(last))).replaceAll('\n', '<br>\n');
  return html;
}

function textPlain(v: string, fill: SlotValues): string {
  return unescapeLiteral(v.replace(PLACEHOLDER, (_, i: string) => slotValue(fill, Number(i))));
}

function toHtml(tokens: Token[], fill: SlotValues, inLink = false): string {
  return tokens
    .map((tk): string => {
      if (tk.t === 'text') return textHtml(tk.v, fill, inLink);
      if (tk.t === 'strong') return `<strong>${toHtml(tk.children, fill, inLink)}</strong>`;
      if (tk.t === 'em') return `<em>${toHtml(tk.children, fill, inLink)}</em>`;
      return `<a href="${escapeHtml(tk.href)}">${toHtml(tk.children, fill, true)}</a>`;
    })
    .join('');
}

function toPlain(tokens: Token[], fill: SlotValues): string {
  return tokens
    .map((tk): string => {
      if (tk.t === 'text') return textPlain(tk.v, fill);
      if (tk.t === 'strong' || tk.t === 'em') return toPlain(tk.children, fill);
      const label = toPlain(tk.children, fill);
      const target = tk.href.replace(/^mailto:/i, '');
      return label === target || label === tk.href ? label : `${label} (${target})`;
    })
    .join('');
}

type Block =
  | { t: 'p'; text: string }
  | { t: 'h'; level: 1 | 2 | 3; text: string }
  | { t: 'ul'; items: string[] }
  | { t: 'hr' };

function blocksOf(source: string): Block[] {
  const blocks: Block[] = [];
  let para: string[] = [];
  let list: string[] | null = null;
  const flush = () => {
    if (para.length) blocks.push({ t: 'p', text: para.join('\n') });
    if (list) blocks.push({ t: 'ul', items: list });
    para = [];
    list = null;
  };
  for (const line of source.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed) {
      flush();
      continue;
    }
    const heading = /^(#{1,3})\s+(.*)$/.exec(trimmed);
    const item = /^[-*]\s+(.*)$/.exec(trimmed);
    if (/^-{3,}$/.test(trimmed)) {
      flush();
      blocks.push({ t: 'hr' });
    } else if (heading) {
      flush();
      blocks.push({ t: 'h', level: heading[1]!.length as 1 | 2 | 3, text: heading[2]! });
    } else if (item && !para.length) {
      if (!list) list = [];
      list.push(item[1]!);
    } else {
      if (list) flush();
      para.push(line.trimEnd());
    }
  }
  flush();
  return blocks;
}

/** Renders a body (Markdown subset) to HTML and text with the values filled in. */
export function renderBody(body: string, values: TemplateValues): { html: string; text: string } {
  const slots: Slots = { names: [] };
  const source = protectEscapes(withPlaceholders(body.replace(/\r\n?/g, '\n'), slots));
  const fill: SlotValues = { slots, values };
  const html: string[] = [];
  const text: string[] = [];
  for (const b of blocksOf(source)) {
    switch (b.t) {
      case 'p': {
        const tokens = tokenize(b.text, fill);
        html.push(`<p>${toHtml(tokens, fill)}</p>`);
        text.push(toPlain(tokens, fill));
        break;
      }
      case 'h': {
        const tokens = tokenize(b.text, fill);
        html.push(`<h${b.level + 1}>${toHtml(tokens, fill)}</h${b.level + 1}>`);
        text.push(toPlain(tokens, fill));
        break;
      }
      case 'ul': {
        const items = b.items.map((i) => tokenize(i, fill));
        html.push(`<ul>${items.map((tk) => `<li>${toHtml(tk, fill)}</li>`).join('')}</ul>`);
        text.push(items.map((tk) => `- ${toPlain(tk, fill)}`).join('\n'));
        break;
      }
      case 'hr':
        html.push('<hr>');
        text.push('----');
        break;
    }
  }
  return { html: html.join('\n'), text: text.join('\n\n') };
}

/** A subject: plain text, values filled in, no line breaks. */
export function renderSubject(subject: string, values: TemplateValues): string {
  return subject
    .replace(VARIABLE_PATTERN, (whole, name: string) =>
      isTemplateVariable(name) ? ownValue(values, name) : whole,
    )
    .replace(/[\r\n]+/g, ' ')
    .replace(CONTROL, '')
    .trim();
}

/** The one branded frame every template mail's HTML part sits in. */
export function frameHtml(
  subject: string,
  brandName: string,
  language: TemplateLanguage,
  bodyHtml: string,
): string {
  const e = escapeHtml;
  return `<!doctype html>
<html lang="${e(language)}"><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="margin:0;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:8px;padding:24px">
<tr><td><h1 style="font-size:22px;margin:0 0 16px">${e(brandName)}</h1>
${bodyHtml}
</td></tr></table></td></tr></table>
</body></html>`;
}

export function renderTemplate(
  template: { subject: string; body: string; language: TemplateLanguage },
  values: TemplateValues,
): RenderedParts {
  const subject = renderSubject(template.subject, values);
  const { html, text } = renderBody(template.body, values);
  return { subject, html: frameHtml(subject, values.brand_name ?? '', template.language, html), text };
}
