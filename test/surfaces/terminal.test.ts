/**
 * The generic terminal surface over a command interpreter that is not the GDS: a tiny order desk
 * over the mini test domain (`LIST`, `CANCEL <order>`, anything else `INVALID FORMAT`). The
 * surface gives exactly one tool (one command line in, one screen out), wraps and pages long
 * displays, opens a session per episode, records what the entries did to the back-end, and refuses
 * a domain that offers no interpreter.
 */
import { describe, expect, it } from 'vitest';
import { Environment } from '../../src/env/environment.js';
import { BadInputError } from '../../src/spec/errors.js';
import type { Domain } from '../../src/spec/domain.js';
import { getSurface, surfaces } from '../../src/surfaces/index.js';
import { MORE_MARKER, interpreterOf, scroll, showScreen, terminalTool, wrapScreen, type CommandInterpreter, type TerminalHost } from '../../src/surfaces/terminal.js';
import { miniDomain, type MiniState } from '../support/mini-domain.js';

/** An order desk: 30 lines of orders for LIST, a cancel through the back-end, terminal-style errors. */
const desk: CommandInterpreter<MiniState> = {
  tool: { name: 'desk_command', description: 'Send one entry to the order desk.', examples: ['LIST', 'CANCEL O1'] },
  geometry: { width: 20, pageLines: 6 },
  maxLine: 40,
  run: async (line, ctx) => {
    const [verb, arg] = line.trim().toUpperCase().split(/\s+/);
    if (verb === 'LIST') return ctx.state.ids('orders').flatMap((id) => Array.from({ length: 10 }, (_, i) => `${id} ${ctx.state.get('orders', id)!.status} line ${i + 1}`)).join('\n');
    if (verb === 'CANCEL' && arg) {
      const out = await ctx.act('cancel_order', { order_id: arg, reason: 'desk' });
      return out.error ? 'UNABLE - NOT PENDING' : `${arg} CANCELLED - A VERY LONG CONFIRMATION LINE`;
    }
    return 'INVALID FORMAT';
  },
};
const deskDomain: Domain<MiniState> & TerminalHost<MiniState> = { ...miniDomain, name: 'desk', terminal: desk };

async function session() {
  const surface = getSurface('terminal');
  const env = new Environment(deskDomain, { now: '2026-10-01T09:00:00', surface });
  let n = 0;
  const send = async (command: string) => (await env.execute({ id: `c${n++}`, type: 'function', function: { name: 'desk_command', arguments: JSON.stringify({ command }) } }, 'assistant', { message_index: n })).output;
  return { env, send };
}

describe('the terminal surface', () => {
  it('is registered and gives the agent exactly one tool: a command line in, the screen out', () => {
    expect(surfaces.terminal).toBe(getSurface('terminal'));
    const tools = getSurface('terminal').tools(deskDomain);
    expect(tools.map((t) => [t.name, t.requestor, t.records])).toEqual([['desk_command', 'assistant', 'self']]);
    expect(tools[0]).toBe(terminalTool(desk));
    expect(tools[0].description).toContain('20 columns wide');
    expect(tools[0].description).toContain(MORE_MARKER);
    expect(tools[0].parameters.safeParse({ command: 'LIST' }).success).toBe(true);
    expect(tools[0].parameters.safeParse({ command: 'x'.repeat(41) }).success).toBe(false);
    expect(tools[0].parameters.safeParse({ command: 'LIST', other: 1 }).success).toBe(false);
  });

  it('refuses a domain that offers no command interpreter', () => {
    expect(interpreterOf(miniDomain)).toBeNull();
    expect(() => getSurface('terminal').tools(miniDomain)).toThrow(BadInputError);
    expect(() => getSurface('terminal').tools(miniDomain)).toThrow('the mini domain does not support the terminal surface: it offers no command interpreter');
    expect(() => new Environment(miniDomain, { now: '2026-10-01T09:00:00', surface: getSurface('terminal') })).toThrow(/does not support the terminal surface: it offers no command interpreter/);
  });

  it('must be opened, wraps to the width, pages long displays and scrolls through them', async () => {
    const { env, send } = await session();
    await expect(send('LIST')).rejects.toThrow(/not opened/);
    await env.open();
    const first = (await send('LIST')).split('\n');
    expect(first).toEqual(['O1 pending line 1', 'O1 pending line 2', 'O1 pending line 3', 'O1 pending line 4', 'O1 pending line 5', MORE_MARKER]);
    expect((await send('MD')).split('\n')[0]).toBe('O1 pending line 6');
    expect((await send('mb')).split('\n')).toEqual(['O3 pending line 6', 'O3 pending line 7', 'O3 pending line 8', 'O3 pending line 9', 'O3 pending line 10']);
    expect(await send('MD')).toBe('NO MORE - END OF DISPLAY');
    expect((await send('MT')).split('\n')[0]).toBe('O1 pending line 1');
    expect(await send('MU')).toBe('NO MORE - TOP OF DISPLAY');
    // Long lines are hard-wrapped at 20 columns.
    expect((await send('CANCEL O1')).split('\n')).toEqual(['O1 CANCELLED - A VER', 'Y LONG CONFIRMATION ', 'LINE']);
    expect(await send('FROB')).toBe('INVALID FORMAT');
    await env.close();
  });

  it('MD moves down by a full page and shows no line twice, whatever the display length; MB and MU stay on those pages', () => {
    const g = { width: 20, pageLines: 6 };
    for (const n of [1, 5, 6, 7, 11, 12, 13, 36]) {
      const text = Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');
      const pager = { lines: [] as string[], top: 0 };
      const pages = [showScreen(text, pager, g)];
      for (let s = scroll('MD', pager, g); s !== 'NO MORE - END OF DISPLAY'; s = scroll('MD', pager, g)) pages.push(s!);
      const shown = pages.flatMap((p) => p.split('\n').filter((l) => l !== MORE_MARKER));
      expect(shown, `${n} lines`).toEqual(text.split('\n'));
      expect(pages).toHaveLength(Math.ceil(n / 5));
      // MB shows the last page MD reached; MU from there the page above it.
      expect(scroll('MT', pager, g)).toBe(pages[0]);
      if (pages.length > 1) {
        expect(scroll('MB', pager, g)).toBe(pages.at(-1));
        expect(scroll('MU', pager, g)).toBe(pages.at(-2));
      }
    }
  });

  it('records what an entry did to the back-end, caused by the entry; the pager is per episode', async () => {
    const a = await session();
    const b = await session();
    await a.env.open();
    await b.env.open();
    await a.send('LIST');
    expect(await b.send('MD')).toBe('NOTHING TO SCROLL');
    expect(await a.send('CANCEL O3')).toMatch(/^O3 CANCELLED/);
    expect(await a.send('CANCEL O2')).toBe('UNABLE - NOT PENDING');
    expect(a.env.actionLog.map((x) => [x.name, x.error, x.mutating, x.cause?.tool_call_id])).toEqual([
      ['cancel_order', false, true, 'c1'],
      ['cancel_order', true, false, 'c2'],
    ]);
    expect(a.env.state.get('orders', 'O3')!.status).toBe('cancelled');
    expect(b.env.actionLog).toEqual([]);
    await a.env.close();
    await b.env.close();
  });
});

describe('wrapScreen', () => {
  it('drops ANSI escapes and control characters, counts code points, never splits a surrogate pair', () => {
    expect(wrapScreen('\u001b[31mRED\u001b[0m\u0007 ok\u0000', 64)).toEqual(['RED ok']);
    expect(wrapScreen('\u001b]0;title\u0007A\tB', 64)).toEqual(['A B']);
    expect(wrapScreen('ab😀cd', 3)).toEqual(['ab😀', 'cd']);
    expect(wrapScreen('x'.repeat(130), 64).map((l) => l.length)).toEqual([64, 64, 2]);
    expect(wrapScreen('a\r\n\nb', 64)).toEqual(['a', '', 'b']);
  });
});
