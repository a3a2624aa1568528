/**
 * servicegym's GDS domain (the XA reservations terminal, October 2026): the generated schedule and
 * PNR store plus the task records; the documents the agent gets (command reference and IRROPS
 * policy); the tasks. The agent's one tool is the terminal: a command line in, a screen out.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CowDb } from '../../env/cow-db.js';
import type { Domain, LoadedDomain } from '../../spec/domain.js';
import { BadInputError } from '../../spec/errors.js';
import type { Task } from '../../spec/task.js';
import type { ToolContext, ToolDef } from '../../spec/tool.js';
import { readTextFile } from '../../util/json-file.js';
import { loadBuiltinTasks } from '../common/builtin-dataset.js';
import { validateAt } from '../common/tau2-folder.js';
import { scroll, showScreen, type TerminalGeometry } from '../../surfaces/terminal.js';
import { generateGds, SERVICEGYM_GDS_NOW } from './data/generate.js';
import { SEED_FLIGHTS, seedPnrs } from './data/seed-records.js';
import { interpret } from './entries.js';
import { GdsDbSchema, segKey, type GdsDb, type HistoryEntry } from './schema.js';
import { gdsStateOps, newSession, type GdsState, type GdsTables } from './state.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The terminal's geometry: 64 columns, 20 lines a page. */
export const GDS_GEOMETRY: TerminalGeometry = { width: 64, pageLines: 20 };

/** The task files, in order. */
export const GDS_TASK_FILES = [
  't12-irrops-rebook.json', 'g01-add-meal-ssr.json', 'g02-cancel-return.json', 'g03-accept-schedule-change.json', 'g04-split-itinerary-rebook.json',
  'g05-voluntary-change-refused.json', 'g06-queue-remark.json', 'g07-ignore-declined-sale.json', 'g08-phone-and-remark.json', 'g09-next-day-rebook.json',
];

/** The store: generated flights and PNRs, with the task flights replacing their route-days and the task PNRs added. */
export function servicegymGdsDb(seed = 2026): GdsDb {
  const gen = generateGds(seed);
  const routeDays = new Set(SEED_FLIGHTS.map((f) => `${f.from}${f.to}${f.date}`));
  const flights = Object.fromEntries(Object.entries(gen.flights).filter(([, f]) => !routeDays.has(`${f.from}${f.to}${f.date}`)));
  for (const f of SEED_FLIGHTS) flights[segKey(f.flight, f.date)] = f;
  const pnrs = { ...gen.pnrs };
  for (const p of seedPnrs()) {
    if (pnrs[p.locator]) throw new Error(`generated PNR ${p.locator} collides with a task PNR`);
    pnrs[p.locator] = p;
  }
  // Generated PNRs on a replaced flight lose that segment (the route-day now holds only task flights).
  for (const p of Object.values(gen.pnrs)) for (const k of Object.keys(p.segments)) if (!flights[k]) delete p.segments[k];
  return { flights, pnrs };
}

/**
 * The terminal tool: sends one entry to the reservation system and returns the screen (64 columns,
 * paged). Deliberate refusals are screen text (`INVALID FORMAT`, `UNABLE - NO SEATS`), as a
 * terminal answers; the call itself never fails.
 */
export const gdsTerminalTool: ToolDef<GdsState, { command: string }> = {
  name: 'gds_command',
  description: 'Send one entry to the XA reservations terminal and get the screen back (64 columns; long displays are paged: MD/MU/MT/MB scroll). The terminal is the only access to the reservation system; see the command reference for entries.',
  parameters: z.strictObject({ command: z.string().max(200).describe("One terminal entry, for example '*LKJ8TQ' or '120OCTJFKORD'.") }),
  kind: 'write',
  requestor: 'assistant',
  records: 'self',
  invoke: ({ command }, { state, now, record }) => {
    const s = state.session;
    const scrolled = scroll(command, s.pager, GDS_GEOMETRY);
    if (scrolled !== null) return scrolled;
    const committed = state.history.length;
    const screen = interpret(state, command, now);
    for (const entry of state.history.slice(committed)) recordCommit(entry, record);
    return showScreen(screen, s.pager, GDS_GEOMETRY);
  },
};

/** The back-end operation of each committed change, by the change's first word (see entries.ts). */
const OPERATIONS: Record<string, string> = { SOLD: 'sell_segment', XX: 'cancel_segment', HK: 'accept_schedule_change', SSR: 'add_ssr', RMK: 'add_remark', PHONE: 'add_phone', TKT: 'reissue_tickets' };

/**
 * An end transaction in the action log: one write per committed change (e.g. `sell_segment`,
 * `cancel_segment`, `reissue_tickets`), then `end_transaction` with the received-from — so
 * ordering and forbidden-write checks see what the terminal did to the PNR store.
 */
function recordCommit(entry: HistoryEntry, record: ToolContext<GdsState>['record']): void {
  for (const change of entry.changes) {
    const word = change.split(' ')[0];
    record({ name: OPERATIONS[word] ?? 'change_pnr', arguments: { locator: entry.locator, change }, result: 'OK', error: false, mutating: true });
  }
  record({ name: 'end_transaction', arguments: { locator: entry.locator, received_from: entry.received_from }, result: `OK ${entry.locator}`, error: false, mutating: true });
}

/** The GDS domain over a validated store. */
export function createGdsDomain(db: GdsDb, policy: string): Domain<GdsState> {
  const root = new CowDb<GdsTables>(db);
  return {
    name: 'gds',
    description: "servicegym's GDS training emulator: the XA reservations terminal (Sabre-style cryptic entries over a PNR store and schedule).",
    policy,
    tools: [gdsTerminalTool],
    initialState: () => ({ db: root.fork(), history: [], session: newSession() }),
    state: gdsStateOps,
    outputStyle: { ensureAscii: false },
  };
}

let cached: { db: GdsDb; policy: string; tasks: Task[] } | undefined;

/** The documents the agent gets: the IRROPS policy, then the command reference. */
export function gdsPolicy(): string {
  return `${readTextFile(path.join(HERE, 'data', 'irrops_policy.md'))}\n\n${readTextFile(path.join(HERE, 'data', 'command_reference.md'))}`;
}

/** Loads the dataset once per process. Throws BadInputError for a `dataDir`. */
export function loadServicegymGds(opts: { dataDir?: string } = {}): LoadedDomain<GdsState> {
  if (opts.dataDir) throw new BadInputError('the gds domain has no external dataset: run it without --data-dir');
  if (!cached) cached = { db: validateAt(GdsDbSchema, servicegymGdsDb(), 'servicegym gds dataset'), policy: gdsPolicy(), tasks: loadBuiltinTasks(path.join(HERE, 'tasks'), GDS_TASK_FILES) };
  return { domain: createGdsDomain(cached.db, cached.policy), mode: 'servicegym', policy: cached.policy, tasks: cached.tasks, source: 'builtin', now: SERVICEGYM_GDS_NOW };
}
