/**
 * `servicegym run --domain airline --agent-model M --user-model M`: LLM agent against the LLM
 * user simulator on a domain's tasks, `--trials k` per task, `-j n` at once; a progress bar on
 * stderr, every episode streamed to the store, a summary with reward, partial score and
 * pass^1..k. `--resume RUN_ID` continues a run that died, without repeating finished episodes,
 * with the settings it was started with (src/cli/run-stored-settings.ts).
 *
 * `--personas impatient,vague,contradictory,off-policy` (ids from `src/users/personas.ts`, `+`
 * combines): every task runs once per persona — `--trials k` times per persona — with the
 * persona's instructions added to the user simulator's prompt; trial t plays persona t mod P, so
 * pass^k is across personas. Episode rows are labelled with the persona; a per-persona table is
 * printed. A resumed run must give the same personas.
 */
import type { Command } from 'commander';
import { LIVE_FLAG_HELP } from './live-flags.js';
import { addSurfaceFlags } from './surface-flags.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import { PERSONAS } from '../users/personas.js';
import { withRunOptions } from './run-options.js';
import { withConfigBlame } from './config-file.js';
import { MAX_TRIALS, maxThreads } from './flag-checks.js';

export { MAX_TRIALS, maxThreads };

/** Registers `servicegym run`; exit 0, 1 when an episode failed for infrastructure reasons, 2 on bad input. */
export function registerRun(program: Command, setExit: (code: number) => void): void {
  const run = program
    .command('run')
    .description("run an LLM agent against the LLM user simulator on a domain's tasks and score every episode")
    .option('--domain <name>', 'domain', 'airline')
    .option('--data-dir <dir>', "a tau2-bench domain folder; default: servicegym's own dataset")
    .option('--policy-variant <name>', "a policy variant of the domain (telecom: workflow); default: the domain's main policy")
    .option('--solo', "tau2's solo mode (telecom): no customer; the agent gets the task's ticket and both tool sets")
    .option('--tasks <ids>', "comma-separated task ids or globs, e.g. 'T0*,T15' (default: all)")
    .option('--trials <k>', 'trials per task (pass^k needs k); with --personas, per task and persona', '1')
    .option('--personas <ids>', `run every task once per persona, e.g. impatient,vague,contradictory,off-policy ('+' combines; known: ${Object.keys(PERSONAS).join(', ')})`)
    .option('-j, --concurrency <n>', "episodes at once; each waits on model calls, so this bounds the requests in flight to the provider (raise it as far as the provider's rate limit allows)", '4')
    .option('--agent-model <name>', 'model of the agent under test (required: this flag or "agent-model" in the --config file)')
    .option('--user-model <name>', 'model of the user simulator (required: this flag or "user-model" in the --config file)')
    .option('--judge-model <name>', 'model judging NL assertions (without it they are "not judged") and transcript rules that state an assertion (without it their patterns decide)')
    .option('--judge-votes <n>', 'judge calls per transcript rule; the majority decides', '3')
    .option('--base-url <url>', 'OpenAI-compatible base URL (else SERVICEGYM_BASE_URL / OPENAI_BASE_URL)')
    .option('--provider <label>', 'provider label for receipts')
    .option('--timeout <seconds>', LIVE_FLAG_HELP.timeout)
    .option('--max-retries <n>', LIVE_FLAG_HELP.maxRetries)
    .option('--max-retry-after <seconds>', LIVE_FLAG_HELP.maxRetryAfter)
    .option('--call-deadline <seconds>', LIVE_FLAG_HELP.callDeadline)
    .option('--body-timeout <seconds>', LIVE_FLAG_HELP.bodyTimeout)
    .option('--screenshots <where>', 'where a model gets tool-result images: tool_result (in the tool message) or user_message (a user message after it)', 'tool_result')
    .option('--temperature <t>', 'sampling temperature of agent and user', '0')
    .option('--strict', "strict evaluation: ACTION in every reward basis, a transfer must be a real call; the dataset's known-bad tasks are left out and listed")
    .option('--resume <run-id>', 'continue this run: the flags not given take its stored settings (those given must match them); finished episodes are not run again')
    .option('--json', 'print the episodes and summary as JSON')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('-q, --quiet', 'no progress on stderr')
    .option('--run-id <id>', 'id of a new run (default: run-<domain>-<time>); the same on every shard of a sharded run')
    .option('--queue <url>', "run the episodes on workers ('servicegym worker') through this Redis, e.g. redis://127.0.0.1:6379; this process stores the results")
    .option('--queue-name <name>', 'BullMQ queue of the episodes (the workers use the same)', 'servicegym')
    .option('--rate-limit <calls-per-minute>', 'model calls per minute per provider, across the whole run: its episodes, its --threads or its --queue workers')
    .option('--threads <n>', 'run the episodes on n worker threads of this process, -j shared among them, the main thread storing them (for many fast episodes that keep one thread busy); not with --queue or a browser surface', '1')
    .option('--shard <i/N>', 'run only shard i of N of the episodes (deterministic split; needs --run-id); merge the shard stores with merge-shards')
    // The action's modules (src/cli/run-command.ts and what it imports) load only when run runs.
    .action(withConfigBlame(async (flags, cmd: Command) => (await import('./run-command.js')).runCommand(flags, cmd, setExit)));
  addSurfaceFlags(withRunOptions(run));
}
