/**
 * `servicegym run --domain airline --agent-model M --user-model M`: LLM agent against the LLM
 * user simulator on a domain's tasks, `--trials k` per task, `-j n` at once; a progress bar on
 * stderr, every episode streamed to the store, a summary with reward, partial score and
 * pass^1..k. `--resume RUN_ID` continues a run that died, without repeating finished episodes.
 */
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { loadDomain } from '../domains/index.js';
import { DEFAULT_STORE_PATH, RunStore } from '../store/store.js';
import { runDomainTasks, selectTasks } from '../run/task-run.js';
import { resolveLiveModelConfig } from '../models/config.js';
import { OpenAICompatibleModel } from '../models/openai-adapter.js';
import type { FinishedEpisode } from '../run/run-tasks.js';
import { BadInputError } from '../spec/errors.js';
import { episodeTable, summaryText } from './run-report.js';
import { progressLogger } from './output.js';

export function registerRun(program: Command, setExit: (code: number) => void): void {
  program
    .command('run')
    .description("run an LLM agent against the LLM user simulator on a domain's tasks and score every episode")
    .option('--domain <name>', 'domain', 'airline')
    .option('--data-dir <dir>', "a tau2-bench domain folder; default: servicegym's own dataset")
    .option('--tasks <ids>', 'comma-separated task ids (default: all)')
    .option('--trials <k>', 'trials per task (pass^k needs k)', '1')
    .option('-j, --concurrency <n>', 'episodes at once', '4')
    .requiredOption('--agent-model <name>', 'model of the agent under test')
    .requiredOption('--user-model <name>', 'model of the user simulator')
    .option('--judge-model <name>', 'model judging NL assertions (without it they are "not judged")')
    .option('--base-url <url>', 'OpenAI-compatible base URL (else SERVICEGYM_BASE_URL / OPENAI_BASE_URL)')
    .option('--provider <label>', 'provider label for receipts')
    .option('--timeout <seconds>', 'per-attempt timeout in seconds')
    .option('--max-retries <n>', 'retries on 429/5xx/timeouts')
    .option('--temperature <t>', 'sampling temperature of agent and user', '0')
    .option('--resume <run-id>', 'continue this run: finished episodes are not run again')
    .option('--json', 'print the episodes and summary as JSON')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('-q, --quiet', 'no progress on stderr')
    .action(async (flags) => {
      const log = progressLogger(flags.quiet);
      const loaded = loadDomain(flags.domain, { dataDir: flags.dataDir });
      const tasks = selectTasks(loaded, flags.tasks?.split(',').map((s: string) => s.trim()).filter(Boolean));
      const trials = Number(flags.trials);
      const live = (model: string) => new OpenAICompatibleModel(resolveLiveModelConfig({ ...flags, model }));
      const agentModel = live(flags.agentModel);
      const userModel = live(flags.userModel);
      const judge = flags.judgeModel ? live(flags.judgeModel) : undefined;
      const store = RunStore.open(flags.db);
      try {
        let runId: string = flags.resume ?? `run-${flags.domain}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        let finished: FinishedEpisode[] = [];
        if (flags.resume) {
          if (!store.getRun(runId)) throw new BadInputError(`no run '${runId}' in the store`, { file: flags.db });
          finished = store.episodes(runId).map((e) => ({ taskId: e.task_id, trial: e.trial, termination: e.termination as never, reward: e.reward, partial: e.partial, infraError: !!(e.result as any)?.infra_error }))
            .filter((e) => !e.infraError);
          log(`resuming ${runId}: ${finished.length} finished episodes kept`);
        }
        const meta = { agent_model: agentModel.model, user_model: userModel.model, judge_model: judge?.model ?? null, provider: agentModel.provider, tasks: tasks.length, trials, data: loaded.source, mode: loaded.mode };
        store.saveRun({ id: runId, kind: 'run', name: `run ${flags.domain}`, domain: flags.domain, created_at: new Date().toISOString(), summary: meta, record: null });
        const bar = flags.quiet ? undefined : new cliProgress.SingleBar({ format: 'servicegym: {bar} {value}/{total} episodes | {task}', stream: process.stderr, noTTYOutput: true, notTTYSchedule: 5000 }, cliProgress.Presets.shades_classic);
        bar?.start(tasks.length * trials - finished.length, 0, { task: '' });
        const res = await runDomainTasks({
          loaded, tasks, trials, concurrency: Number(flags.concurrency), mode: 'llm', agentModel, userModel, judge,
          temperature: Number(flags.temperature), store, runId, finished,
          onProgress: (done, _total, rec) => bar?.update(done, { task: `${rec.taskId}#${rec.trial} ${rec.episode.termination}` }),
        });
        bar?.stop();
        store.saveRun({ id: runId, kind: 'run', name: `run ${flags.domain}`, domain: flags.domain, created_at: new Date().toISOString(), summary: { ...meta, ...res.summary, tasks: tasks.length, usage: res.usage }, record: null });
        if (flags.json) process.stdout.write(JSON.stringify({ run_id: runId, summary: res.summary, usage: res.usage, episodes: res.records.map((r) => ({ task_id: r.taskId, trial: r.trial, termination: r.episode.termination, evaluation: r.evaluation, infra_error: r.infraError ?? null })) }, null, 2) + '\n');
        else process.stdout.write(`run ${runId}\n\n${episodeTable(res.records)}\n\n${summaryText(res.summary)}\n`);
        setExit(res.summary.infraErrors > 0 ? 1 : 0);
      } finally {
        store.close();
      }
    });
}
