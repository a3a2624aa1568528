/**
 * Replay: a {@link ChatModel} that serves recorded receipts and never touches the network.
 *
 * A request matches a receipt when the two request bodies are equal up to object key order
 * (canonical JSON). Identical requests are served in recorded order, each receipt at most once.
 * A miss throws {@link ReplayMissError} naming the closest recorded request of the same role and
 * the first JSON path at which they differ.
 */
import type { ModelRole } from '../spec/messages.js';
import type { Receipt } from '../spec/receipt.js';
import { ReplayMissError } from '../spec/errors.js';
import { canonicalJson, firstDifference, jsonDistance } from '../util/canonical.js';
import type { ChatModel, ChatRequestInput, ModelCallResult } from './chat-model.js';
import { withModel } from './chat-model.js';

/** A clock that only moves when told to: replay advances it by each receipt's recorded latency. */
export class VirtualClock {
  private seconds: number;
  constructor(startIso = '1970-01-01T00:00:00Z') {
    this.seconds = Date.parse(startIso) / 1000;
  }
  nowSeconds(): number {
    return this.seconds;
  }
  advance(seconds: number): void {
    this.seconds += seconds;
  }
}

/** A {@link ChatModel} answering from a cassette of receipts (see the module doc); never touches the network. */
export class ReplayModel implements ChatModel {
  readonly provider: string;
  readonly endpoint: string;
  readonly model: string;
  private readonly queues = new Map<string, number[]>();
  private readonly used: boolean[];

  /**
   * @param receipts the cassette, in recorded order
   * @param model the model name requests are sent with (normally the recorded one)
   * @param clock advanced by each served receipt's `elapsed_seconds`
   */
  constructor(
    private readonly receipts: Receipt[],
    model: string,
    private readonly clock?: VirtualClock,
  ) {
    this.model = model;
    this.provider = receipts[0]?.provider ?? 'replay';
    this.endpoint = receipts[0]?.endpoint ?? 'replay://';
    this.used = receipts.map(() => false);
    receipts.forEach((r, i) => {
      const key = canonicalJson(r.request);
      const q = this.queues.get(key);
      if (q) q.push(i);
      else this.queues.set(key, [i]);
    });
  }

  /** How many receipts have been served, per role and in all. */
  consumed(): { total: number; byRole: Partial<Record<ModelRole, number>> } {
    const byRole: Partial<Record<ModelRole, number>> = {};
    let total = 0;
    this.receipts.forEach((r, i) => {
      if (!this.used[i]) return;
      total++;
      byRole[r.kind] = (byRole[r.kind] ?? 0) + 1;
    });
    return { total, byRole };
  }

  async complete(input: ChatRequestInput, role: ModelRole): Promise<ModelCallResult> {
    const request = withModel(this.model, input);
    const key = canonicalJson(request);
    const queue = this.queues.get(key);
    const index = queue?.find((i) => !this.used[i]);
    if (index === undefined) throw this.miss(request, role, queue !== undefined);
    this.used[index] = true;
    const rec = this.receipts[index];
    this.clock?.advance(rec.elapsed_seconds);
    return {
      response: structuredClone(rec.response),
      elapsedSeconds: rec.elapsed_seconds,
      receipt: { ...structuredClone(rec), kind: role },
    };
  }

  private miss(request: unknown, role: ModelRole, exhausted: boolean): ReplayMissError {
    if (exhausted) {
      return new ReplayMissError(`replay: every recorded response to this ${role} request was already served (the run asked for it more often than the recording did)`);
    }
    let best = -1;
    let bestDist = Infinity;
    this.receipts.forEach((r, i) => {
      const penalty = r.kind === role ? 0 : 1e9;
      const d = jsonDistance(r.request, request) + penalty;
      if (d < bestDist) {
        bestDist = d;
        best = i;
      }
    });
    if (best < 0) return new ReplayMissError(`replay: no receipts recorded; cannot answer a ${role} request`);
    const rec = this.receipts[best];
    const path = firstDifference(rec.request, request) ?? '$';
    const [want, got] = excerpts(valueAt(rec.request, path), valueAt(request, path));
    return new ReplayMissError(
      `replay: no recorded response for this ${role} request. Closest recorded request: receipt #${best} (${rec.kind}); ` +
        `first difference at ${path}: recorded ${want}, requested ${got}`,
    );
  }
}

function valueAt(root: unknown, path: string): unknown {
  const segs = [...path.matchAll(/\.?([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g)].map((m) =>
    m[1] !== undefined ? m[1] : m[2] !== undefined ? Number(m[2]) : JSON.parse(`"${m[3]}"`),
  );
  let cur: any = root;
  for (const s of segs) cur = cur == null ? undefined : cur[s];
  return cur;
}

/** Short previews of two differing values; for strings, the text around the first differing character. */
function excerpts(a: unknown, b: unknown): [string, string] {
  if (typeof a === 'string' && typeof b === 'string') {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    const from = Math.max(0, i - 20);
    const cut = (s: string) => `${from > 0 ? '…' : ''}${JSON.stringify(s.slice(from, i + 20))}${s.length > i + 20 ? '…' : ''} (character ${i})`;
    return [cut(a), cut(b)];
  }
  return [preview(a), preview(b)];
}

function preview(v: unknown): string {
  if (v === undefined) return '(absent)';
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}
