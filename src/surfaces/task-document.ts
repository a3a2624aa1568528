/**
 * Task documents (a call script) as PDF: laid out once on US Letter pages (612x792 pt, Helvetica,
 * 54 pt margins, lines wrapped to the text width), written with pdf-lib with fixed metadata so
 * the same document gives the same bytes, and handed to the agent either as the text extracted
 * from that PDF or as page images rendered from the same layout (Liberation Sans, metric-compatible
 * with Helvetica, at 96 dpi).
 */
import { inflateSync } from 'node:zlib';
import type { PDFFont } from 'pdf-lib';
import { newEpisodeContext } from './browser-pool.js';
import type { TaskDocument } from './pixel-app.js';

/** One placed run of text: `x`, `top` and `size` in points from the page's top-left. */
export interface PlacedText {
  x: number;
  top: number;
  size: number;
  bold: boolean;
  text: string;
}

/** A laid-out document: its PDF bytes and its pages' placed text. */
export interface LaidOutDocument {
  fileName: string;
  pdf: Uint8Array;
  pages: PlacedText[][];
}

const PAGE = { width: 612, height: 792, margin: 54 };
const FIXED_DATE = new Date('2026-01-01T00:00:00Z');

/** Greedy word wrap of `text` to `width` points with `font` at `size`. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  if (text === '') return [''];
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > width) {
      out.push(line);
      line = word;
    } else line = next;
  }
  out.push(line);
  return out;
}

/** Lays `doc` out and writes its PDF (deterministic bytes). */
export async function layOutDocument(doc: TaskDocument): Promise<LaidOutDocument> {
  // pdf-lib loads with the first document, not with every command that can reach this surface.
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  for (const set of [pdf.setCreationDate, pdf.setModificationDate]) set.call(pdf, FIXED_DATE);
  pdf.setTitle(doc.title);
  pdf.setProducer('servicegym');
  pdf.setCreator('servicegym');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const pages: PlacedText[][] = [[]];
  let top = PAGE.margin;
  const place = (text: string, size: number, isBold: boolean) => {
    const lead = size * 1.35;
    if (top + lead > PAGE.height - PAGE.margin) {
      pages.push([]);
      top = PAGE.margin;
    }
    pages[pages.length - 1].push({ x: PAGE.margin, top, size, bold: isBold, text });
    top += lead;
  };
  place(doc.title, 15, true);
  top += 6;
  for (const l of doc.lines) {
    const size = l.size ?? 11;
    const font = l.bold ? bold : regular;
    for (const part of wrap(l.text, font, size, PAGE.width - 2 * PAGE.margin)) place(part, size, l.bold === true);
  }
  for (const items of pages) {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    for (const it of items) {
      if (it.text) page.drawText(it.text, { x: it.x, y: PAGE.height - it.top - it.size, size: it.size, font: it.bold ? bold : regular, color: rgb(0, 0, 0) });
    }
  }
  return { fileName: doc.fileName, pdf: await pdf.save({ useObjectStreams: false }), pages };
}

/** Decodes one PDF string operand: `<hex>` or `(literal)` with its escapes. */
function pdfString(op: string): string {
  if (op.startsWith('<')) {
    const hex = op.slice(1, -1).replace(/\s/g, '');
    return Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex').toString('latin1');
  }
  return op
    .slice(1, -1)
    .replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, e: string) => ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' })[e] ?? String.fromCharCode(parseInt(e, 8)));
}

/**
 * The text of a PDF's content streams: every `Tj` / `TJ` string in order, one line per text
 * operation, pages separated by a blank line. Handles Flate-encoded and plain streams with
 * simple (single-byte) fonts, as pdf-lib's standard fonts write them; not a general extractor.
 */
export function extractPdfText(bytes: Uint8Array): string {
  const buf = Buffer.from(bytes);
  const text = buf.toString('latin1');
  const pages: string[] = [];
  const streamRe = /<<((?:(?!>>\s*stream)[\s\S])*)>>\s*stream\r?\n/g;
  for (let m = streamRe.exec(text); m; m = streamRe.exec(text)) {
    const dict = m[1];
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    let body = buf.subarray(start, end);
    if (/\/FlateDecode/.test(dict)) {
      try {
        body = inflateSync(body);
      } catch {
        continue;
      }
    }
    const ops = body.toString('latin1');
    if (!/\b(Tj|TJ)\b/.test(ops)) continue;
    const lines: string[] = [];
    const opRe = /(<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\))\s*Tj|\[((?:<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\)|[-\d.\s])*)\]\s*TJ/g;
    for (let o = opRe.exec(ops); o; o = opRe.exec(ops)) {
      if (o[1]) lines.push(pdfString(o[1]));
      else lines.push((o[2].match(/<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\)/g) ?? []).map(pdfString).join(''));
    }
    pages.push(lines.join('\n'));
  }
  return pages.join('\n\n');
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The HTML of one laid-out page at 96 dpi (1 pt = 4/3 px). */
export function pageHtml(items: readonly PlacedText[]): string {
  const px = (pt: number) => (pt * 4) / 3;
  const spans = items
    .map((it) => `<div style="position:absolute;left:${px(it.x)}px;top:${px(it.top)}px;font-size:${px(it.size)}px;font-weight:${it.bold ? 700 : 400};white-space:pre">${esc(it.text)}</div>`)
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;background:#fff;color:#000;font-family:'Liberation Sans',Arial,Helvetica,sans-serif}</style></head><body>${spans}</body></html>`;
}

/**
 * The pages as PNG images (816x1056 px), rendered in a fresh context of the shared browser that is
 * closed afterwards. Never in the streamed session's context: closing a page of another size there
 * resets the session page's emulated screen (Chromium then lays it out at the window's size).
 */
export async function renderPages(doc: LaidOutDocument): Promise<Uint8Array[]> {
  const context = await newEpisodeContext({ viewport: { width: (PAGE.width * 4) / 3, height: (PAGE.height * 4) / 3 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  try {
    const out: Uint8Array[] = [];
    for (const items of doc.pages) {
      await page.setContent(pageHtml(items), { waitUntil: 'load' });
      out.push(new Uint8Array(await page.screenshot({ type: 'png', timeout: 60_000 })));
    }
    return out;
  } finally {
    await context.close();
  }
}
