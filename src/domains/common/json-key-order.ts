/**
 * Key order that `JSON.parse` loses. A JavaScript object lists integer-like keys ("array
 * indices": `"0"` … `"4294967294"`) first, in ascending numeric order, whatever their order in
 * the text; a Python dict keeps the text order. tau2 prints such dicts in text order (e.g. the
 * retail variants of a product, keyed by 10-digit item ids), so a domain that must print them
 * identically recovers their order from the source text with {@link integerKeyOrders}.
 */

/** Whether JavaScript treats `key` as an array index (and so reorders it in objects). */
export function isArrayIndexKey(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}

/** Appends `seg` to a JSON pointer (`~` → `~0`, `/` → `~1`). */
function pointerJoin(parent: string, seg: string): string {
  return `${parent}/${seg.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

interface Frame {
  pointer: string;
  /** Keys of an object in text order; null for an array. */
  keys: Set<string> | null;
  /** Whether the next string in this object is a key. */
  expectKey: boolean;
  /** Index of the current element of an array. */
  index: number;
  indexLike: boolean;
}

/**
 * For every object in the JSON `text` that has at least one array-index-like key, its keys in
 * text order, by the object's JSON pointer (`/products/9523456873/variants`). `text` must be
 * valid JSON (parse it first); duplicate keys are listed once, at their first position (the
 * value of the last occurrence wins, as in both languages). One linear pass, no values built.
 */
export function integerKeyOrders(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const stack: Frame[] = [];
  let lastKey = '';
  const childPointer = (): string => {
    const top = stack.at(-1);
    if (!top) return '';
    return pointerJoin(top.pointer, top.keys ? lastKey : String(top.index));
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = text.indexOf('"', i + 1);
      let escaped = false;
      // A quote preceded by an odd number of backslashes is escaped: keep looking.
      for (;;) {
        let b = 0;
        while (text.charCodeAt(j - 1 - b) === 0x5c) b++;
        if (b > 0) escaped = true;
        if (b % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      const top = stack.at(-1);
      if (top?.keys && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        top.keys.add(key);
        if (!top.indexLike && isArrayIndexKey(key)) top.indexLike = true;
        top.expectKey = false;
        lastKey = key;
      }
      i = j + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push({ pointer: childPointer(), keys: c === 0x7b ? new Set() : null, expectKey: true, index: 0, indexLike: false });
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      const f = stack.pop()!;
      if (f.keys && f.indexLike) out.set(f.pointer, [...f.keys]);
      i++;
    } else if (c === 0x2c /* , */) {
      const top = stack.at(-1)!;
      if (top.keys) top.expectKey = true;
      else top.index++;
      i++;
    } else i++;
  }
  return out;
}

/** Python key order remembered per object (see {@link rememberKeyOrders}). */
const remembered = new WeakMap<object, string[]>();

/**
 * Remembers, for each object of `root` named by a pointer of `orders` (from
 * {@link integerKeyOrders} of the text `root` was parsed and normalised from), its keys in text
 * order. Pointers that do not lead to an object of `root` are skipped. Returns `root`.
 */
export function rememberKeyOrders<T>(root: T, orders: Map<string, string[]>): T {
  for (const [pointer, keys] of orders) {
    let cur: unknown = root;
    for (const seg of pointer.split('/').slice(1)) {
      const key = seg.replace(/~1/g, '/').replace(/~0/g, '~');
      cur = cur !== null && typeof cur === 'object' && Object.prototype.hasOwnProperty.call(cur, key) ? (cur as Record<string, unknown>)[key] : undefined;
    }
    if (cur !== null && typeof cur === 'object' && !Array.isArray(cur)) rememberKeyOrder(cur, keys);
  }
  return root;
}

/** Remembers `keys` as the Python (insertion) order of `obj`'s keys. */
export function rememberKeyOrder(obj: object, keys: readonly string[]): void {
  remembered.set(obj, [...keys]);
}

/**
 * `obj`'s keys in Python dict order: the remembered order (keys no longer present dropped),
 * then any other keys in JavaScript order. Without a remembered order, `Object.keys(obj)`
 * (which equals the Python order when no key is array-index-like).
 */
export function pythonKeyOrder(obj: object): string[] {
  const order = remembered.get(obj);
  const own = Object.keys(obj);
  if (!order) return own;
  const present = new Set(own);
  const out = order.filter((k) => present.has(k));
  if (out.length === own.length) return out;
  const listed = new Set(out);
  for (const k of own) if (!listed.has(k)) out.push(k);
  return out;
}
