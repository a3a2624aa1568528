/**
 * `servicegym run --domain airline --agent-model M --user-model M`: LLM agent against the LLM
 * user simulator on a domain's tasks, `--trials k` per task, `-j n` at once; a progress bar on
 * stderr, every episode streamed to the store, a summary with reward, partial score and
 * pass^1..k. `--resume RUN_ID` continues a run that died, without repeating finished episodes.
 *
 * `--personas impatient,vague,contradictory,off-policy` (ids from `src/users/personas.ts`, `+`
 * combines): every task runs once per persona — `--trials k` times per persona — with the
 * persona's instructions added to the user simulator's prompt; trial t plays persona t mod P, so
 * pass^k is across personas. Episode rows are labelled with the persona; a per-persona table is
 * printed. A resumed run must give the same personas.
 */
import type { Command } from 'commander';
import { LIVE_FLAG_HELP } from './live-flags.js';
import { addSurfaceFlags, surfaceFromFlags, surfaceOptionsConfig, tasksOnSurface } from './surface-flags.js';
import { datasetVariantConfig } from './dataset-variant.js';
import type { TaskEvaluation } from '../evaluation/types.js';
import { isSuccess } from '../evaluation/pass-k.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import type { RunStore } from '../store/store.js';
import { episodesPerTrial, excludedLines, runDomainTasks, strictTaskSelection } from '../run/task-run.js';
import { acquireRunLock, type RunLock } from '../store/run-lock.js';
import type { PaidCalls, RunAttempt } from '../run/receipt-accounting.js';
import type { EpisodeReplays } from '../run/episode-replay.js';
import { mergeUsage } from '../run/run-tasks.js';
import { mergeReportRows, reportRowOf, reportRowOfStored, type EpisodeReportRow } from '../run/report-rows.js';
import { parsePersonas, PERSONAS } from '../users/personas.js';
import type { FinishedEpisode } from '../run/run-tasks.js';
import type { DomainEpisodeRecord } from '../run/task-run.js';
import type { RunSummary } from '../run/summary.js';
import type { UsageByRole } from '../models/usage.js';
import { BadInputError } from '../spec/errors.js';
import { applyRunConfig, parseRunExtras, runExtrasMeta, selectRunTasks, withConfigBlame, withRunOptions } from './run-options.js';
import { LocalRateLimiter, parseRateLimit, RateLimitedModel } from '../models/rate-limit.js';
import { checkConcurrency, checkJudgeVotes, checkScreenshots, checkTemperature, checkThreads, checkTrials, FLAG_CHECKS, MAX_TRIALS, maxThreads } from './flag-checks.js';
import { cleanFloats } from '../util/round.js';
import { withDefaultDomainHint } from './domain-hint.js';
import { shellArg } from '../util/shell-arg.js';

export { MAX_TRIALS, maxThreads };

/**
 * `--threads n` checked: a whole number from 1 to {@link maxThreads}. Above 1 it is refused with
 * --queue (workers run the episodes then) and on a surface that drives a browser (one per
 * process, on its main thread).
 * @throws BadInputError naming the flag and why.
 */
function threadCount(flags: Record<string, any>, surface: { name: string; browser?: boolean }): number {
  const n = checkThreads(flags.threads);
  if (n > 1 && flags.queue !== undefined) throw new BadInputError(`--threads ${n} runs the episodes on threads of this process and --queue on queue workers; give one of them`);
  if (n > 1 && surface.browser) throw new BadInputError(`--threads ${n}: the ${surface.name} surface drives a browser, which runs on the main thread only; run it without --threads`);
  return n;
}

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
    .option('--resume <run-id>', 'continue this run: finished episodes are not run again')
    .option('--json', 'print the episodes and summary as JSON')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('-q, --quiet', 'no progress on stderr')
    .option('--run-id <id>', 'id of a new run (default: run-<domain>-<time>); the same on every shard of a sharded run')
    .option('--queue <url>', "run the episodes on workers ('servicegym worker') through this Redis, e.g. redis://127.0.0.1:6379; this process stores the results")
    .option('--queue-name <name>', 'BullMQ queue of the episodes (the workers use the same)', 'servicegym')
    .option('--rate-limit <calls-per-minute>', 'model calls per minute per provider, across the whole run: its episodes, its --threads or its --queue workers')
    .option('--threads <n>', 'run the episodes on n worker threads of this process, -j shared among them, the main thread storing them (for many fast episodes that keep one thread busy); not with --queue or a browser surface', '1')
    .option('--shard <i/N>', 'run only shard i of N of the episodes (deterministic split; needs --run-id); merge the shard stores with merge-shards')
    .action(withConfigBlame(async (flags, cmd: Command) => {
      // What a run needs before its first model call, loaded together (the files are read while
      // others compile); what only a resumed or sharded run needs, and the text report, when needed.
      const [
        { loadDomainAsync }, { RunStore }, { episodesPerTrial, excludedLines, runDomainTasks, strictTaskSelection }, { acquireRunLock }, { mergeUsage },
        { isScored, mergeReportRows, reportRowOf, withTasks }, { resolveLiveModelConfig, secretValues }, { createModel }, { surfaceOptionsOf }, { progressLogger, snakeKeys },
        { RunProgress, RunTally, reportedCost }, { endHint, episodeJsonText, failUnderMessage, latencyOf, passHatKStopNote, writeResults, writeRunJson },
      ] = await Promise.all([
        import('../domains/catalog.js'), import('../store/store.js'), import('../run/task-run.js'), import('../store/run-lock.js'), import('../run/run-tasks.js'),
        import('../run/report-rows.js'), import('../models/config.js'), import('../models/providers.js'), import('./surface-flags.js'), import('./output.js'),
        import('./run-progress.js'), import('./run-end.js'),
      ]);
      await applyRunConfig(cmd, flags, FLAG_CHECKS);
      const log = progressLogger(flags.quiet);
      const loaded = await withDefaultDomainHint(cmd, flags, () => loadDomainAsync(flags.domain, { dataDir: flags.dataDir, policy: flags.policyVariant, solo: flags.solo === true }));
      const strict = flags.strict === true;
      const extras = parseRunExtras(flags, loaded.policy);
      const surface = await surfaceFromFlags(flags, loaded);
      checkScreenshots(flags.screenshots);
      const { tasks: selected, excluded } = strictTaskSelection(loaded, selectRunTasks(loaded, flags.tasks, extras), strict);
      const tasks = tasksOnSurface(loaded, selected, surface, flags.tasks !== undefined);
      // Checked before the store is touched: a bad count must not leave an empty run behind.
      // Bounded: the run's episode list is built up front, so a count like 1e11 would exhaust memory.
      const trials = checkTrials(flags.trials);
      checkConcurrency(flags.concurrency);
      if (flags.queue !== undefined) (await import('../queue/redis-url.js')).checkRedisUrl(String(flags.queue));
      const threads = threadCount(flags, surface);
      const temperature = checkTemperature(flags.temperature);
      const personas = flags.personas !== undefined ? parsePersonas(flags.personas) : undefined;
      const rateLimit = parseRateLimit(flags.rateLimit);
      // In this thread: one limiter for every call (threads and queue workers take the rate from the run's manifest).
      const limiter = rateLimit !== undefined && flags.queue === undefined && threads === 1 ? new LocalRateLimiter(rateLimit) : undefined;
      const live = (model: string) => {
        const m = createModel('openai-compatible', { config: resolveLiveModelConfig({ ...flags, model }) });
        return limiter ? new RateLimitedModel(m, limiter) : m;
      };
      const agentModel = live(flags.agentModel);
      const userModel = live(flags.userModel);
      const judge = flags.judgeModel ? live(flags.judgeModel) : undefined;
      const judgeVotes = checkJudgeVotes(flags.judgeVotes);
      const store = RunStore.open(flags.db, { secrets: secretValues(), checkpointInBackground: true });
      let lock: RunLock | undefined;
      try {
        const sharding = flags.shard !== undefined ? await import('../queue/shard.js') : undefined;
        const shard = sharding?.parseShard(flags.shard);
        // An empty id would be stored as a run no command, URL or --resume can name.
        if (flags.runId !== undefined && flags.runId.trim() === '') throw new BadInputError(`--run-id names no run (got '${flags.runId}'); give an id, or leave the flag out for run-<domain>-<time>`);
        if (shard && !flags.runId && !flags.resume) throw new BadInputError('--shard needs --run-id NAME (the same on every shard), so that the shard stores merge into one run');
        let runId: string = flags.resume ?? flags.runId ?? `run-${flags.domain}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        // One process per run: a second --resume while the first is alive would overwrite its episodes.
        lock = acquireRunLock(flags.db, runId, { onTakeover: (m) => process.stderr.write(`servicegym: ${m}\n`) });
        let finished: FinishedEpisode[] = [];
        let kept: EpisodeReportRow[] = [];
        // A resumed run keeps the date it was started.
        let createdAt = new Date().toISOString();
        let unattached: UsageByRole = {};
        let attempts: RunAttempt[] = [];
        // A resumed run: its paid calls, and (one process) the stored calls of the episodes it runs again.
        let paid: PaidCalls | undefined;
        let replays: EpisodeReplays | undefined;
        // A new run never takes over a stored one: its episodes, receipts and summary would mix with
        // (or replace) those of the run already stored under that id.
        const existing = flags.resume ? undefined : store.getRun(runId);
        if (existing) {
          throw new BadInputError(`run '${runId}' is already in the store (started ${existing.created_at}); continue it with --resume ${shellArg(runId)}, or give another --run-id`, { file: flags.db });
        }
        if (flags.resume) {
          const stored = store.getRun(runId);
          if (!stored) throw new BadInputError(`no run '${runId}' in the store`, { file: flags.db });
          createdAt = stored.created_at;
          const started = (stored.summary ?? {}) as Record<string, unknown>;
          if (stored.kind !== 'run' || started.agent_model === 'oracle') {
            throw new BadInputError(`run '${runId}' was not started by 'servicegym run' (${stored.kind === 'run' ? 'it is a validate run' : `it is a ${stored.kind} run`}); only such runs can be resumed`, { file: flags.db });
          }
          const was = (stored.summary ?? {}) as Record<string, unknown>;
          const now: Record<string, unknown> = { domain: flags.domain, agent_model: agentModel.model, user_model: userModel.model, judge_model: judge?.model ?? null, trials, data: loaded.source, mode: loaded.mode, temperature, task_ids: tasks.map((t) => t.id).join(','), strict, max_steps: extras.maxSteps, prompt_sha256: runExtrasMeta(extras).prompt_sha256 };
          const differs = Object.keys(now).filter((k) => k in was && JSON.stringify(was[k]) !== JSON.stringify(now[k]) && !(k === 'domain' && stored.domain === now.domain));
          if (stored.domain !== flags.domain) differs.unshift('domain');
          if (differs.length) {
            throw new BadInputError(`run '${runId}' was started with other settings (${differs.map((k) => `${k}: ${JSON.stringify(k === 'domain' ? stored.domain : was[k])} vs ${JSON.stringify(now[k])}`).join('; ')}); resume it with the same flags`, { file: flags.db });
          }
          const [{ readEpisodeLogs }, { PaidCalls }, { reportRowOfStored }, { EpisodeReplays, storedCalls }] = await Promise.all([import('../store/run-log.js'), import('../run/receipt-accounting.js'), import('../run/report-rows.js'), import('../run/episode-replay.js')]);
          const storedRows = readEpisodeLogs(store, runId);
          const keptRows = storedRows.filter((e) => !e.record.termination.infra_error);
          // Calls of episodes killed before they were stored were paid for: they count as unattached
          // (until served again to their episode, below).
          const receipts = store.receipts(runId);
          paid = new PaidCalls(receipts, keptRows.map((e) => e.record));
          unattached = paid.unattached();
          attempts = Array.isArray(started.attempts) ? (started.attempts as RunAttempt[]) : [];
          kept = keptRows.map(reportRowOfStored);
          finished = storedRows.map((e) => {
            const r = e.record;
            return { taskId: r.task.id, trial: r.trial, termination: r.termination.reason as never, reward: e.reward, partial: e.partial, infraError: !!r.termination.infra_error, evaluationError: !!r.evaluation_error, usage: r.usage as UsageByRole };
          })
            .filter((e) => !e.infraError);
          // In one process, an episode that runs again is served the calls it stored (src/run/episode-replay.ts).
          if (!flags.queue && threads === 1) {
            const kept = new Set(finished.map((f) => `${f.taskId}\u0000${f.trial}`));
            replays = new EpisodeReplays(storedCalls(receipts, (taskId, trial) => !kept.has(`${taskId}\u0000${trial}`)));
          }
          const before = (store.getRun(runId)?.summary as { personas?: string[] } | null)?.personas ?? null;
          if (JSON.stringify(before) !== JSON.stringify(personas ?? null)) {
            throw new BadInputError(`run '${runId}' was started with personas ${before ? before.join(',') : '(none)'}; resume it with the same --personas`, { file: flags.db });
          }
          log(`resuming ${runId}: ${finished.length} finished episodes kept${replays?.size ? `; ${replays.size} episode(s) in flight continue from their stored calls` : ''}`);
        }
        attempts = [...attempts, { attempt: attempts.length + 1, pid: process.pid, started_at: new Date().toISOString(), first_receipt_seq: store.receiptCount(runId) }];
        const meta = { ...(shard ? { shard } : {}), agent_model: agentModel.model, user_model: userModel.model, judge_model: judge?.model ?? null, provider: agentModel.provider, tasks: tasks.length, task_ids: tasks.map((t) => t.id).join(','), trials, temperature, personas: personas ?? null, data: loaded.source, mode: loaded.mode, strict, surface: surface.name, ...surfaceOptionsConfig(flags), ...datasetVariantConfig(flags), screenshots: surface.images ? flags.screenshots : null, excluded_known_bad: excluded.map((k) => k.id), attempts, ...runExtrasMeta(extras) };
        log(`run ${runId} (resume a killed run with --resume ${shellArg(runId)})`);
        const runName = extras.name ?? `run ${flags.domain}`;
        store.saveRun({ id: runId, kind: 'run', name: runName, domain: flags.domain, created_at: createdAt, summary: meta, record: null });
        const bar = new RunProgress(new RunTally(reportedCost(mergeUsage([...finished.flatMap((f) => (f.usage ? [f.usage] : [])), unattached]))), flags.quiet === true);
        const only = shard ? sharding!.shardEpisodes(tasks, trials, personas, shard) : undefined;
        bar.start(only ? only.length : tasks.reduce((n, t) => n + trials * episodesPerTrial(t, personas), 0), finished.length);
        const maxCost = extras.maxCostUsd;
        const halt = () => (maxCost !== null && (bar.tally.costUsd ?? 0) >= maxCost ? `--max-cost $${maxCost} reached (provider-reported cost $${bar.tally.costUsd!.toFixed(4)})` : undefined);
        // Episodes leave memory once stored: the report keeps one row (and the model latency) per episode.
        const fresh: EpisodeReportRow[] = [];
        const latency = new Map<string, number>();
        // --json: an episode's entry in the report, serialized as the episode ends (while the run
        // waits on the model) rather than all at the end, keyed by task and trial.
        const jsonEpisode = (r: EpisodeReportRow) => ({ task_id: r.taskId, trial: r.trial, ...(personas ? { persona: r.persona } : {}), termination: r.termination, evaluation: cleanFloats(r.evaluation), infra_error: r.infraError ?? null, scored: isScored(r), ...(flags.resume ? { kept: !!r.kept } : {}) });
        const episodeKey = (r: EpisodeReportRow) => `${r.taskId}\u0000${r.trial}`;
        const jsonTexts = new Map<string, string>();
        const res: { summary: RunSummary; usage: UsageByRole; stopped?: string; halted?: { reason: string; notStarted: number }; rows?: EpisodeReportRow[]; records: DomainEpisodeRecord[] } = flags.queue || threads > 1
          ? await (await import('./run-queue.js')).runQueued({ // BullMQ and Redis are loaded only for --queue
              flags, loaded, tasks, trials, personas, strict, temperature, judgeVotes, maxSteps: extras.maxSteps ?? null, runId, store, finished, only,
              surface, surfaceOptions: surfaceOptionsOf(flags), imageDelivery: flags.screenshots, systemPrompt: extras.systemPrompt, threads,
              halt: maxCost !== null ? halt : undefined,
              onStored: (n, label, cost, row) => (bar.tally.addCost(cost), bar.tally.addScore(row), bar.count(n, label)),
            })
          : await runDomainTasks({
              loaded, tasks, trials, concurrency: Number(flags.concurrency), agent: 'llm', user: 'llm', agentModel, userModel, judge, judgeVotes,
              temperature, store, runId, finished, personas, strict, only, surface, imageDelivery: flags.screenshots, settings: extras.maxSteps ? { maxSteps: extras.maxSteps } : undefined,
              ...(extras.systemPrompt !== null ? { systemPrompt: extras.systemPrompt } : {}),
              halt,
              keepRecords: false,
              attempt: attempts[attempts.length - 1].attempt,
              replays,
              onProgress: (done, _total, rec) => {
                const row = reportRowOf(rec);
                fresh.push(row);
                if (flags.json) jsonTexts.set(episodeKey(row), episodeJsonText(jsonEpisode(row)));
                for (const [k, v] of latencyOf([rec])) latency.set(k, v);
                bar.episode(done, rec);
              },
            });
        bar.stop();
        // Stored calls served to this attempt's episodes are in their usage: no longer unattached, and counted once.
        const replayedUsage = replays?.servedUsage() ?? {};
        if (paid && replays?.servedSeqs.size) {
          unattached = paid.unattached(replays.servedSeqs);
          attempts[attempts.length - 1].replayed_calls = replays.servedSeqs.size;
          log(`${replays.servedSeqs.size} call(s) of ${replays.episodes} episode(s) in flight served from their stored receipts, not sent again`);
        }
        if (Object.keys(unattached).length) res.usage = mergeUsage([res.usage, unattached]);
        store.saveRun({ id: runId, kind: 'run', name: runName, domain: flags.domain, created_at: createdAt, summary: { ...meta, ...res.summary, tasks: tasks.length, usage: res.usage, ...(Object.keys(unattached).length ? { unattached_usage: unattached } : {}), ...(Object.keys(replayedUsage).length ? { replayed_usage: replayedUsage } : {}), ...(res.halted ? { halted: { reason: res.halted.reason, not_started: res.halted.notStarted } } : {}) }, record: null });
        // Stored: closed now, so that the store's last checkpoint (on its worker thread) runs while the report is printed.
        store.close();
        // Every episode of the run, the kept ones of a resumed run included.
        const rows = withTasks(mergeReportRows(tasks.map((t) => t.id), kept, res.rows ?? fresh), tasks);
        if (flags.json) writeRunJson((text) => process.stdout.write(text), { run_id: runId, name: runName, tags: extras.tags, strict, summary: cleanFloats(snakeKeys(res.summary)), usage: cleanFloats(res.usage), excluded_known_bad: excluded }, rows, (r) => (!r.kept && jsonTexts.get(episodeKey(r))) || episodeJsonText(jsonEpisode(r)));
        else {
          const [{ callsText, episodeTable, personaTable, summaryText, usageTable }, { painter }] = await Promise.all([import('./run-report.js'), import('./colour.js')]);
          const stopNote = passHatKStopNote(res.summary, rows, trials * Math.max(...tasks.map((t) => episodesPerTrial(t, personas))));
          process.stdout.write(`run ${runId}${strict ? ' (strict)' : ''}\n\n${episodeTable(rows, painter())}\n\n${personas ? `${personaTable(rows, personas)}\n\n` : ''}${excludedLines(excluded)}${summaryText(res.summary)}\n${stopNote ? `${stopNote}\n` : ''}${callsText(res.usage)}\n\n${usageTable(res.usage)}\n`);
        }
        if (extras.output) log(writeResults(extras.output, rows, { suite: runId, classname: `servicegym.${flags.domain}`, timestamp: createdAt }, res.rows ? latencyOf(res.records) : latency));
        if (res.stopped) process.stderr.write(`servicegym: the run stopped: the provider refused the credential (${res.stopped}); fix the key and continue with --resume ${shellArg(runId)}\n`);
        if (res.halted) process.stderr.write(`servicegym: the run stopped: ${res.halted.reason}; ${res.halted.notStarted} episode(s) not started; continue with --resume ${shellArg(runId)} and a higher --max-cost\n`);
        // A cap on provider-reported cost caps nothing when the provider reports none: say so rather than let the user believe it held.
        if (maxCost !== null && bar.tally.costUsd === null && rows.some((r) => !r.kept)) process.stderr.write(`servicegym: --max-cost $${maxCost} had no effect: the provider reported no cost for any call of this run (the cap counts provider-reported costs only)\n`);
        const failUnder = failUnderMessage(res.summary, extras.failUnder);
        if (failUnder) process.stderr.write(`servicegym: ${failUnder}\n`);
        if (!flags.quiet) process.stderr.write(`${endHint(runId, flags.db, res.summary.infraErrors > 0 || !!res.stopped || !!res.halted)}\n`);
        setExit(res.summary.infraErrors > 0 || res.stopped || res.halted || failUnder ? 1 : 0);
      } finally {
        lock?.release();
        store.close();
        await store.whenClosed();
      }
    }));
  addSurfaceFlags(withRunOptions(run));
}
