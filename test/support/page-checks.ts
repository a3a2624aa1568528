/**
 * Checks run inside a viewer page: WCAG contrast of every visible text against its effective
 * background (computed from the page's own colours), and clipping of the main containers.
 */
import type { Page } from 'playwright-core';

/** A text whose contrast is below its WCAG AA minimum. */
export interface ContrastFailure {
  text: string;
  fg: string;
  bg: string;
  ratio: number;
  min: number;
}

/**
 * Every visible element with its own text (outside visually-hidden helpers, SVG, and dimmed
 * cells, which WCAG exempts as inactive) whose contrast ratio is below 4.5:1 (3:1 for large text:
 * 24 px, or 18.66 px bold). The background is composed from the element's and its ancestors'
 * background colours, over the page's.
 */
export function contrastFailures(page: Page): Promise<ContrastFailure[]> {
  return page.evaluate(() => {
    type C = { r: number; g: number; b: number; a: number };
    const parse = (s: string): C | null => {
      const m = /rgba?\(([^)]+)\)/.exec(s);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const over = (top: C, under: C): C => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
    const lum = (c: C) => {
      const f = (v: number) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
    };
    const ratio = (x: C, y: C) => {
      const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p);
      return (a + 0.05) / (b + 0.05);
    };
    const rootBg = parse(getComputedStyle(document.documentElement).backgroundColor);
    const base: C = rootBg && rootBg.a > 0 ? { ...rootBg, a: 1 } : parse(getComputedStyle(document.body).backgroundColor)?.a ? { ...parse(getComputedStyle(document.body).backgroundColor)!, a: 1 } : { r: 255, g: 255, b: 255, a: 1 };
    const background = (el: Element): C => {
      const layers: C[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c.a > 0) {
          layers.push(c);
          if (c.a >= 1) break;
        }
      }
      return layers.reverse().reduce((acc, c) => over(c, acc), base);
    };
    const skip = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        if (e.classList.contains('visually-hidden') || e.closest('svg')) return true;
        if (Number(getComputedStyle(e).opacity) < 1) return true;
      }
      return false;
    };
    const out: { text: string; fg: string; bg: string; ratio: number; min: number }[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent!.trim()).map((n) => n.textContent!.trim()).join(' ');
      if (!own || el.getClientRects().length === 0 || skip(el)) continue;
      const style = getComputedStyle(el);
      if (style.visibility !== 'visible') continue;
      const fg = parse(style.color);
      if (!fg) continue;
      const bg = background(el);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const min = large ? 3 : 4.5;
      const r = ratio(over(fg, bg), bg);
      if (r < min) out.push({ text: own.slice(0, 60), fg: style.color, bg: `rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)})`, ratio: Math.round(r * 100) / 100, min });
    }
    return out;
  });
}

/** Main containers whose content is wider than their box (clipped or scrolled away), as `selector: scrollWidth > clientWidth`. */
export function clippedContainers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selectors = ['html', 'body', 'main', '.table-scroll', '.matrix-scroll', '.episode-grid > section', '.filters', '.stats', 'pre', '.release', '.transcript', '.evaluation'];
    const out: string[] = [];
    for (const sel of selectors) {
      document.querySelectorAll(sel).forEach((el, i) => {
        const h = el as HTMLElement;
        if (h.getClientRects().length === 0) return;
        if (h.scrollWidth > h.clientWidth + 1) out.push(`${sel}[${i}]: ${h.scrollWidth} > ${h.clientWidth}`);
      });
    }
    return out;
  });
}
