/**
 * servicegym's GDS domain (the XA reservations terminal, October 2026): the generated schedule and
 * PNR store plus the task records; the documents the agent gets (command reference and IRROPS
 * policy); the tasks. The agent works on the terminal surface: one command line in, a screen out.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CowDb } from '../../env/cow-db.js';
import type { Domain, LoadedDomain } from '../../spec/domain.js';
import { BadInputError } from '../../spec/errors.js';
import type { Task } from '../../spec/task.js';
import type { ToolDef } from '../../spec/tool.js';
import { readTextFile } from '../../util/json-file.js';
import { loadBuiltinTasks } from '../common/builtin-dataset.js';
import { validateAt } from '../common/tau2-folder.js';
import { terminalTool, type CommandInterpreter, type TerminalGeometry, type TerminalHost } from '../../surfaces/terminal.js';
import { generateGds, SERVICEGYM_GDS_NOW } from './data/generate.js';
import { SEED_FLIGHTS, seedPnrs } from './data/seed-records.js';
import { interpret } from './entries.js';
import { GdsDbSchema, segKey, type GdsDb } from './schema.js';
import { gdsOperations, recordCommit } from './operations.js';
import { gdsOracleEntries } from './oracle.js';
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
 * The XA reservations terminal as a command interpreter for the terminal surface: one entry runs
 * against the episode's session and store (`interpret`) and each end transaction it caused is
 * recorded as the host operations it committed (operations.ts). Deliberate refusals are display
 * text (`INVALID FORMAT`, `UNABLE - NO SEATS`), as a terminal answers; an entry never fails. The
 * oracle's entries for a task are its script in oracle.ts.
 */
export const gdsInterpreter: CommandInterpreter<GdsState> = {
  tool: {
    name: 'gds_command',
    description: 'Send one entry to the XA reservations terminal and get the screen back. The terminal is the only access to the reservation system; see the command reference for entries.',
    examples: ['*LKJ8TQ', '120OCTJFKORD'],
  },
  geometry: GDS_GEOMETRY,
  maxLine: 200,
  run: (command, { state, now, record }) => {
    const committed = state.history.length;
    const screen = interpret(state, command, now);
    for (const entry of state.history.slice(committed)) recordCommit(entry, record);
    return screen;
  },
  oracle: (task) => gdsOracleEntries(task),
  uncommitted: ({ session }) =>
    session.changes.length && session.area
      ? `PNR ${session.area.locator} HAS ${session.changes.length} PENDING CHANGE(S) NOT ENDED (${session.changes.map((c) => c.text).join('; ')}): NOT COMMITTED - END WITH E OR ER FIRST; LEAVING THE TERMINAL IGNORES THEM`
      : null,
};

/** The terminal tool (`gds_command`: one entry in, the 64-column screen out), the terminal surface's only tool for the GDS. */
export const gdsTerminalTool: ToolDef<GdsState, { command: string }> = terminalTool(gdsInterpreter);

/**
 * The GDS domain over a validated store. Its tools: the terminal entry (`gds_command`, what the
 * terminal surface fronts through `terminal`, the interpreter; `rescore` runs a stored episode's
 * entries again through it) and the host's operations (operations.ts: `sell_segment`, ...,
 * `end_transaction`), which are the tasks' gold actions and what the gold replay runs. The
 * terminal surface, the dataset's own, offers the agent only the entry; the API surface offers
 * both, so the same tasks measure an agent on cryptic entries against one on the host's JSON
 * operations.
 */
export function createGdsDomain(db: GdsDb, policy: string): Domain<GdsState> & TerminalHost<GdsState> {
  const root = new CowDb<GdsTables>(db);
  return {
    name: 'gds',
    description: "servicegym's GDS training emulator: the XA reservations terminal (Sabre-style cryptic entries over a PNR store and schedule).",
    policy,
    tools: [gdsTerminalTool as ToolDef<GdsState>, ...gdsOperations],
    terminal: gdsInterpreter,
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
  return { domain: createGdsDomain(cached.db, cached.policy), mode: 'servicegym', policy: cached.policy, tasks: cached.tasks, source: 'builtin', now: SERVICEGYM_GDS_NOW, surface: 'terminal' };
}
