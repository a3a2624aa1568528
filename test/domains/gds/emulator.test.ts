/**
 * The GDS emulator as a terminal user meets it: displays, availability, sells, cancels, SSRs,
 * schedule changes, received-from and end transaction, ignore, ticketing, errors that read like a
 * terminal's, 64-column screens and paging.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../../src/domains/index.js';
import { Environment } from '../../../src/env/environment.js';
import type { GdsState } from '../../../src/domains/gds/index.js';
import { helpScreen, parseReference } from '../../../src/domains/gds/help.js';
import { ROOT } from '../../support/paths.js';

const REFERENCE = path.join(ROOT, 'src', 'domains', 'gds', 'data', 'command_reference.md');

const loaded = loadDomain('gds');
function terminal() {
  const env = new Environment<GdsState>(loaded.domain, { now: loaded.now!, idSeed: '' });
  let n = 0;
  const send = async (command: string) => (await Promise.resolve(env.execute({ id: `t${n++}`, type: 'function', function: { name: 'gds_command', arguments: JSON.stringify({ command }) } }))).output;
  return { env, send, pnr: (loc: string) => env.state.db.get('pnrs', loc)! };
}

describe('the XA terminal', () => {
  it('retrieves a PNR and shows its itinerary, SSRs and tickets in 64 columns', async () => {
    const t = terminal();
    const screen = await t.send('*lkj8tq');
    expect(screen.split('\n')[0]).toBe('LKJ8TQ');
    expect(screen).toContain('  1 XA 204Y 20OCT 2 JFKORD UN2  0800  0945');
    expect(screen).toContain('SSR WCHR XA HK1 XA204 20OCT/OKAFOR/ADA MRS');
    expect(screen.split('\n').every((l) => l.length <= 64)).toBe(true);
    expect(await t.send('*ZZZZZZ')).toBe('NO RECORD');
  });

  it('shows availability with seats per class, cancelled flights marked CNLD', async () => {
    const t = terminal();
    const screen = await t.send('120OCTJFKORD');
    expect(screen.split('\n')).toEqual([
      '20OCT TUE   JFK/ORD',
      '1 XA 204  CNLD  JFKORD 0800 0945 738',
      '2 XA 206  F1 A0 J4 C2 Y0 B0 M0 H0 Q0  JFKORD 1030 1215 738',
      '3 XA 208  F0 A0 J1 C0 Y0 B0 M2 H0 Q1  JFKORD 1300 1445 738',
      '4 XA 210  F2 A0 J4 C0 Y9 B9 M9 H9 Q9  JFKORD 1600 1745 738',
    ]);
  });

  it('keeps changes pending until end transaction, which needs a received-from', async () => {
    const t = terminal();
    await t.send('*LKJ8TQ');
    await t.send('120OCTJFKORD');
    expect(await t.send('02Y2')).toBe('UNABLE - NO SEATS');
    expect(await t.send('02M1')).toBe('UNABLE - FLIGHT NOT OPERATING');
    expect(await t.send('02M3')).toBe('  2 XA 208M 20OCT 2 JFKORD SS2  1300  1445');
    expect(await t.send('01Q3')).toBe('DUPLICATE SEGMENT - CANCEL FIRST');
    expect(t.pnr('LKJ8TQ').segments['XA208-2026-10-20']).toBeUndefined();
    expect(await t.send('*ABC123')).toBe('FINISH OR IGNORE - CHANGES PENDING');
    expect(await t.send('E')).toBe('NEED RECEIVED FROM');
    await t.send('6AGENT');
    expect(await t.send('E')).toBe('OK 1400 LKJ8TQ');
    expect(t.pnr('LKJ8TQ').segments['XA208-2026-10-20']).toMatchObject({ status: 'HK', cls: 'M', count: 2 });
    expect(t.env.state.db.get('flights', 'XA208-2026-10-20')!.seats.M).toBe(0);
    expect(await t.send('*R')).toBe('NO PNR IN WORK AREA');
  });

  it('ignore discards every pending change', async () => {
    const t = terminal();
    await t.send('*LKJ8TQ');
    await t.send('X2');
    await t.send('5SHOULD NOT STAY');
    expect(await t.send('I')).toBe('IGD');
    expect(t.pnr('LKJ8TQ').segments['XA611-2026-10-24']).toBeDefined();
    expect(t.pnr('LKJ8TQ').remarks).not.toContain('SHOULD NOT STAY');
    expect(t.env.state.db.touched().size).toBe(0);
  });

  it('cancelling a segment takes its SSRs along; SSRs go on active segments only', async () => {
    const t = terminal();
    await t.send('*LKJ8TQ');
    expect(await t.send('3WCHR/1-1.1')).toBe('UNABLE - SEGMENT 1 NOT ACTIVE');
    await t.send('X1');
    expect(await t.send('3WCHR/5-1.1')).toBe('INVALID SEGMENT NUMBER');
    expect(await t.send('3WCHR/1-9.1')).toBe('INVALID NAME NUMBER');
    const screen = await t.send('*R');
    expect(screen).not.toContain('XA204');
    expect(screen).toContain('SSR WCHR XA HK1 XA611 24OCT/OKAFOR/ADA MRS');
  });

  it('accepts a schedule change (TK to HK) and refuses one on a confirmed segment', async () => {
    const t = terminal();
    await t.send('*HNF2PC');
    expect(await t.send('.1HK')).toBe('  1 XA 330Y 23OCT 5 BOSORD HK1  1115  1320');
    expect(await t.send('.1HK')).toBe('INVALID ACTION CODE');
  });

  it('reissues tickets only through WTKT, and only on end transaction', async () => {
    const t = terminal();
    await t.send('*LKJ8TQ');
    expect(await t.send('WTKT')).toBe('OK - 2 TICKET(S) REISSUED - PENDING END');
    expect(t.pnr('LKJ8TQ').tickets.every((x) => x.status === 'OPEN')).toBe(true);
    await t.send('6AGENT');
    await t.send('E');
    expect(t.pnr('LKJ8TQ').tickets.map((x) => x.status)).toEqual(['EXCHANGED', 'EXCHANGED', 'OPEN', 'OPEN']);
  });

  it('answers malformed entries like a terminal', async () => {
    const t = terminal();
    for (const bad of ['', 'HELLO', '1XXOCTJFKORD', '0', 'X', '3WCHR', '*R1', 'DROP TABLE pnrs']) expect(await t.send(bad)).toMatch(/^(INVALID FORMAT|NO PNR IN WORK AREA|NO AVAILABILITY DISPLAYED)/);
    expect(await t.send('131FEBJFKORD')).toBe('INVALID DATE');
    expect(await t.send('02M3')).toBe('NO PNR IN WORK AREA');
  });

  it("HELP lists the command reference like a host's help, HELP <entry> explains one, and neither touches the work area", async () => {
    const t = terminal();
    await t.send('*LKJ8TQ');
    await t.send('5PAX ADVISED');
    const index = await t.send('HELP');
    const lines = index.split('\n');
    expect(lines[0]).toBe('XA RESERVATIONS TERMINAL - HELP');
    expect(lines.every((l) => l.length <= 64)).toBe(true);
    expect(index).toContain('X{N}         CANCEL SEGMENT N (ALSO X1-2 OR X1/3); ITS SSRS GO');
    expect(index).toContain('‡ MORE - MD TO MOVE DOWN');
    const rest = await t.send('MD');
    // MD moves down a full page: the two screens together are the list, no line twice.
    expect([...lines.slice(0, -1), ...rest.split('\n')]).toEqual(helpScreen().split('\n'));
    expect(rest).toContain('IR           IGNORE AND REDISPLAY THE PNR AS IT WAS');
    expect(rest).toContain('SCROLL       MD DOWN  MU UP  MT TOP  MB BOTTOM');
    // Every entry of the reference is in the list.
    const all = `${index}\n${rest}`;
    for (const s of parseReference(fs.readFileSync(REFERENCE, 'utf8')).filter((x) => !/ERROR/.test(x.title))) for (const e of s.entries) expect(all).toContain(e.entry);
    expect(await t.send('HELP X')).toBe(['X{N}         CANCEL SEGMENT N (ALSO X1-2 OR X1/3); ITS SSRS GO', '             WITH IT; A SEGMENT SOLD IN THIS TRANSACTION IS JUST', '             WITHDRAWN', '             E.G. X1'].join('\n'));
    expect(await t.send('help x1')).toBe(await t.send('HELP X'));
    expect((await t.send('HELP E')).split('\n').filter((l) => /^\S/.test(l)).map((l) => l.split(/\s{2,}/)[0])).toEqual(['E', 'ER']);
    expect((await t.send('HELP *I')).split('\n')[0]).toBe('*I           ITINERARY ONLY');
    expect((await t.send('HELP 120OCTJFKORD')).split('\n')[0]).toBe('1DDMMMXXXYYY AVAILABILITY ON A DATE FROM XXX TO YYY, ONE');
    expect(await t.send('HELP SSR')).toContain('SSR CODES: WCHR WHEELCHAIR (CAN CLIMB STAIRS)');
    // The index names each section as the terminal accepts it (HELP ERRORS, as the README says).
    const sectionsLine = rest.split('\n').slice(-2).join(' ');
    expect(sectionsLine).toContain('HELP DISPLAYS, HELP CHANGES, HELP ENDING, HELP ERRORS FOR A SECTION');
    for (const [, word] of sectionsLine.matchAll(/HELP ([A-Z]+)(?=,| FOR A SECTION)/g)) expect(await t.send(`HELP ${word}`), word).not.toMatch(/^NO HELP/);
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('`HELP ERRORS` the');
    expect(await t.send('HELP ERROR')).toBe(await t.send('HELP ERRORS'));
    const errors = await t.send('HELP ERRORS');
    expect(errors.split('\n')[0]).toBe('ERROR RESPONSES');
    expect(errors).toContain('NEED RECEIVED FROM\n             ENTER 6... BEFORE E');
    expect(await t.send('HELP ZZZ')).toBe('NO HELP FOR ZZZ - ENTER HELP FOR THE ENTRY LIST');
    expect(await t.send('HELPX')).toBe('INVALID FORMAT');
    // The work area is as it was: the pending remark is still there and the transaction ends.
    await t.send('6AGENT');
    expect(await t.send('E')).toBe('OK 1400 LKJ8TQ');
    expect(t.pnr('LKJ8TQ').remarks).toContain('PAX ADVISED');
  });

  it("every example the reference gives is an entry the terminal knows", async () => {
    for (const s of parseReference(fs.readFileSync(REFERENCE, 'utf8'))) {
      for (const e of s.entries.filter((x) => x.example)) expect(await terminal().send(e.example!), e.entry).not.toMatch(/^INVALID FORMAT/);
    }
  });

  it('pages long displays with a continuation marker and MD/MU/MT/MB', async () => {
    const t = terminal();
    await t.send('*LKJ8TQ');
    for (let i = 0; i < 30; i++) await t.send(`5REMARK NUMBER ${i} ABOUT THIS BOOKING`);
    const first = (await t.send('*R')).split('\n');
    expect(first).toHaveLength(20);
    expect(first[19]).toBe('‡ MORE - MD TO MOVE DOWN');
    const second = await t.send('MD');
    expect(second.split('\n')[0]).toContain('REMARK NUMBER');
    expect(await t.send('MB')).toContain('RECEIVED FROM - SYS');
    expect(await t.send('MD')).toBe('NO MORE - END OF DISPLAY');
    expect((await t.send('MT')).split('\n')[0]).toBe('LKJ8TQ');
    expect(await t.send('MU')).toBe('NO MORE - TOP OF DISPLAY');
  });

  it('shows the history of end transactions with the received-from', async () => {
    const t = terminal();
    await t.send('*BZT7KX');
    await t.send('X1');
    await t.send('6AGENT');
    await t.send('ER');
    expect((await t.send('*H')).split('\n')).toEqual(['BZT7KX HISTORY', 'RCVD-AGENT 2026-10-19 14:00', '  XX XA611 M 24OCT ORDJFK 1']);
  });

  it('cancelling a segment sold in this transaction withdraws the sale and its SSR: the history and the action log hold the net change', async () => {
    const t = terminal();
    for (const c of ['*LKJ8TQ', '120OCTJFKORD', '02Y4', '3WCHR/2-1.1', 'X2', '02M3', 'X1', '3WCHR/1-1.1', '6AGENT', 'E']) await t.send(c);
    await t.send('*LKJ8TQ');
    expect((await t.send('*H')).split('\n')).toEqual(['LKJ8TQ HISTORY', 'RCVD-AGENT 2026-10-19 14:00', '  SOLD XA208 M 20OCT JFKORD 2', '  SSR WCHR XA208 20OCT 1.1', '  XX XA204 Y 20OCT JFKORD 2']);
    expect(t.env.actionLog.map((a) => a.name)).toEqual(['sell_segment', 'add_ssr', 'cancel_segment', 'end_transaction']);
    // XA210's seats were never taken.
    expect(t.env.state.db.get('flights', 'XA210-2026-10-20')!.seats.Y).toBe(9);
  });
});
