/**
 * An episode's receipts on the way from a queue worker to the run's storing process. Every request
 * of a conversation repeats the conversation so far and the request's tool schemas: sent as they
 * are, an episode's result message grows with the square of its length, and the storing process
 * parses, hashes and encodes every copy again. Packed, each distinct request template (the request
 * without its messages) and each distinct message travel once. Unpacked, the requests of one run
 * share their template objects and those of one episode their message objects, so the store's
 * per-object caches (src/util/json-text.ts, src/store/receipt-tables.ts) serialise each once.
 * An unpacked request's `JSON.stringify` is byte-identical to the worker's.
 */
import type { ReceiptRow } from '../store/store.js';
import { requestParts, type RequestTemplate } from '../util/request-text.js';

/** A receipt as an episode's result carries it (the storing process numbers it). */
export type EpisodeReceipt = Omit<ReceiptRow, 'run_id' | 'seq'>;

/** A packed request: a template and the indexes of its messages, or (not a chat request) the request whole. */
export type PackedRequest = { template: number; messages: number[] } | { whole: unknown };

/** An episode's receipts, packed. */
export interface PackedReceipts {
  /** JSON text of each distinct request template: the request with `messages` null in its place (so keys keep their order). */
  templates: string[];
  /** Each distinct message object once. */
  messages: unknown[];
  /** The receipts in order, requests packed. */
  receipts: (Omit<EpisodeReceipt, 'request'> & { request: PackedRequest })[];
}

/**
 * `JSON.stringify({ ...request, messages: null })`: from the request's interned template
 * (src/util/request-text.ts: its tool schemas were serialized once, when a request first carried
 * them), or serialized here for a request that has none.
 */
function templateText(request: Record<string, unknown>, template: RequestTemplate | undefined): string {
  return template ? `${template.text.slice(0, template.slot)}null${template.text.slice(template.slot)}` : JSON.stringify({ ...request, messages: null });
}

/** Packs `receipts` (in order); messages are shared by identity, templates by their JSON text. */
export function packReceipts(receipts: readonly EpisodeReceipt[]): PackedReceipts {
  const templates: string[] = [];
  const templateIndex = new Map<string, number>();
  // Interned templates (compared by identity) -> index, so a template's text is made once per episode.
  const internedIndex = new Map<RequestTemplate, number>();
  const messages: unknown[] = [];
  const messageIndex = new Map<unknown, number>();
  const packed = receipts.map(({ request, ...rest }) => {
    const req = request as Record<string, unknown> | null;
    if (req === null || typeof req !== 'object' || Array.isArray(req) || !Array.isArray(req.messages)) return { ...rest, request: { whole: request } };
    const interned = requestParts(req)?.template;
    let template = interned && internedIndex.get(interned);
    if (template === undefined) {
      const text = templateText(req, interned);
      template = templateIndex.get(text);
      if (template === undefined) templateIndex.set(text, (template = templates.push(text) - 1));
      if (interned) internedIndex.set(interned, template);
    }
    const ids = (req.messages as unknown[]).map((m) => {
      let i = messageIndex.get(m);
      if (i === undefined) messageIndex.set(m, (i = messages.push(m) - 1));
      return i;
    });
    return { ...rest, request: { template, messages: ids } };
  });
  return { templates, messages, receipts: packed };
}

/** Most templates an {@link ReceiptUnpacker} keeps (a run has a few: one per agent/user/judge set-up). */
const KEPT_TEMPLATES = 64;

/** Unpacks the packed receipts of a run's episodes; parses each distinct template once per run. */
export class ReceiptUnpacker {
  private readonly templates = new Map<string, Record<string, unknown>>();

  /**
   * The receipts of `packed`, in order.
   * @throws Error when an index points outside the packed templates or messages (a malformed result).
   */
  unpack(packed: PackedReceipts): EpisodeReceipt[] {
    return packed.receipts.map(({ request, ...rest }) => {
      if ('whole' in request) return { ...rest, request: request.whole };
      const text = packed.templates[request.template];
      if (text === undefined || request.messages.some((i) => !(i >= 0 && i < packed.messages.length))) throw new Error(`a packed receipt of kind ${rest.kind} points outside its episode's templates or messages`);
      let template = this.templates.get(text);
      if (!template) {
        if (this.templates.size >= KEPT_TEMPLATES) this.templates.clear();
        this.templates.set(text, (template = JSON.parse(text) as Record<string, unknown>));
      }
      return { ...rest, request: { ...template, messages: request.messages.map((i) => packed.messages[i]) } };
    });
  }
}
