/**
 * `servicegym terminal <domain> [--task ID]`: the terminal surface of a domain opened for a person
 * at a prompt — the same session and tool an agent gets (one entry per line, the screen back; the
 * domain must offer a command interpreter, see `src/surfaces/terminal.ts`), which is how
 * users learn the emulator and rehearse a task. With `--task`, the task's work item is shown first
 * and, on leaving (`QUIT` or end of input), the session is scored like an episode: the tau2-style
 * reward, the partial score and the failed checks that count (`src/evaluation/counted.ts`: outside
 * `--strict` the gold-action check is a diagnostic, not listed). `--strict` scores as `validate
 * --strict` does.
 *
 * Exit rule, as `validate`'s: 0 when the scored session reaches reward 1 (or without `--task`);
 * 1 when its reward is below 1 or not judged, so a script can tell a failed rehearsal; 2 for bad
 * input (an unknown domain or task).
 */
import readline from 'node:readline';
import type { Command } from 'commander';
import type { ChatMessage } from '../spec/messages.js';
import type { Task } from '../spec/task.js';

function workItem(task: Task): string {
  const ins = task.user_scenario.instructions;
  const text = typeof ins === 'string' ? ins : [ins.reason_for_call, ins.known_info].filter(Boolean).join(' ');
  return `TASK ${task.id}: ${text}`;
}

/** Runs the prompt until QUIT or end of input; returns the exit code. */
async function session(domainName: string, taskId: string | undefined, strict: boolean, input: NodeJS.ReadableStream, out: NodeJS.WritableStream): Promise<number> {
  const { loadDomainAsync } = await import('../domains/catalog.js');
  const { Environment } = await import('../env/environment.js');
  const { evaluateTask } = await import('../evaluation/compose.js');
  const { countedFailures } = await import('../evaluation/counted.js');
  const { taskInitialState } = await import('../evaluation/initial-state.js');
  const { selectTasks } = await import('../run/task-run.js');
  const { checkSurfaceSupports, loadSurface } = await import('../surfaces/catalog.js');
  const loaded = await loadDomainAsync(domainName);
  const surface = await loadSurface('terminal');
  await checkSurfaceSupports(surface, loaded.domain); // BadInputError naming the surfaces the domain supports
  const { interpreterOf } = await import('../surfaces/terminal.js');
  const [tool] = surface.tools(loaded.domain);
  const interp = interpreterOf(loaded.domain)!;
  const task = taskId ? selectTasks(loaded, [taskId])[0] : undefined;
  const envOpts = { now: loaded.now ?? '1970-01-01T00:00:00', idSeed: '' };
  const state = task ? await taskInitialState(loaded.domain, task, envOpts) : undefined;
  const env = new Environment(loaded.domain, { ...envOpts, surface, ...(state !== undefined ? { state } : {}), ...(task ? { task } : {}) });
  await env.open();
  const messages: ChatMessage[] = [{ role: 'system', content: loaded.policy }, { role: 'user', content: task ? workItem(task) : 'terminal session' }];
  out.write(`${loaded.domain.description}\n${task ? `${workItem(task)}\n` : ''}One entry per line; QUIT to leave.\n> `);
  const rl = readline.createInterface({ input, terminal: false });
  try {
    let n = 0;
    for await (const raw of rl) {
      const line = raw.trim();
      if (/^(QUIT|EXIT)$/i.test(line)) break;
      if (!line) {
        out.write('> ');
        continue;
      }
      const id = `human_${n++}`;
      const call = { id, type: 'function' as const, function: { name: tool.name, arguments: JSON.stringify({ command: line }) } };
      const entry = await env.execute(call, 'assistant', { message_index: messages.length });
      messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      messages.push({ role: 'tool', tool_call_id: id, content: entry.output });
      out.write(`${entry.output}\n> `);
    }
    // QUIT or end of input (Ctrl-D): what was never committed is not in the store the session is
    // scored on, as a host ignores an open transaction when the terminal is left; say so.
    const open = interp.uncommitted?.(env.state);
    if (open) out.write(`\nWARNING: ${open}${task ? ' (SCORED WITHOUT THEM)' : ''}`);
  } finally {
    rl.close();
    await env.close();
  }
  out.write('\n');
  if (!task) return 0;
  messages.push({ role: 'assistant', content: 'Session ended.' });
  const ev = await evaluateTask({ loaded, task, trace: { messages, actionLog: env.actionLog, termination: 'agent_stop', finalState: env.state }, env: envOpts, strict });
  const failed = countedFailures(ev, task);
  out.write(`${task.id}: reward ${ev.reward ?? 'not judged'}, partial ${(ev.partial * 100).toFixed(0)}%${strict ? ' (strict)' : ''}\n${failed.map((c) => `  failed ${c.id}: ${c.evidence}`).join('\n')}${failed.length ? '\n' : ''}`);
  return ev.reward === 1 ? 0 : 1;
}

/** Registers `terminal` on the program; `setExit` receives the exit code. */
export function registerTerminal(program: Command, setExit: (code: number) => void): void {
  program
    .command('terminal')
    .description("open a domain's terminal surface at a prompt (e.g. the gds emulator); --task shows a task and scores the session on QUIT")
    .argument('<domain>', 'a domain whose agent works through a terminal (gds)')
    .option('--task <id>', 'show this task and score the session when it ends')
    .option('--strict', 'with --task: score strictly, as validate --strict (ACTION in the reward basis: the host operations committed must be the gold ones)')
    .addHelpText('after', '\nExit status: 0 when the scored session reaches reward 1 (always 0 without --task); 1 when its reward is below 1 or not judged; 2 for an unknown domain or task.\nAt the prompt the domain\'s own entries apply; the gds terminal lists them on HELP and explains one on HELP <entry> (e.g. HELP X).')
    .action(async (domain: string, flags: { task?: string; strict?: boolean }) => {
      setExit(await session(domain, flags.task, flags.strict === true, process.stdin, process.stdout));
    });
}
