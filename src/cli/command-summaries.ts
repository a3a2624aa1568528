/**
 * What the program's help (`servicegym --help`, `servicegym`, an unknown command's error) lists for
 * each command: its term (name, `[options]`, arguments) and its description, as commander's help
 * prints them for the command its module registers. With these, the program's help lists every
 * command without loading the modules of 20 commands (issue 17, start-up: `--help` loaded 58
 * files for this list). test/cli/command-summaries.test.ts checks each entry against its module:
 * change a command's arguments or description and update its entry here.
 */
export interface CommandSummary {
  /** As the help lists it: `name [options] <arg>`. */
  term: string;
  description: string;
}

/** By command name, in the order of `COMMANDS` (src/cli/main.ts). */
export const COMMAND_SUMMARIES: Readonly<Record<string, CommandSummary>> = {
  replay: {
    term: 'replay [options] [campaign]',
    description: "replay a campaign from its receipts, offline (default: the embedded seed experiment)",
  },
  campaign: {
    term: 'campaign [options] <campaign>',
    description: "run a campaign live against an OpenAI-compatible endpoint and record receipts",
  },
  'import-record': {
    term: 'import-record [options] <record>',
    description: "turn an experiment record (JSON) into a campaign folder plus a receipts cassette",
  },
  validate: {
    term: 'validate [options]',
    description: "run the oracle agent on every task and report any task that does not score 1 (checks the tasks, the domain and the evaluator)",
  },
  run: {
    term: 'run [options]',
    description: "run an LLM agent against the LLM user simulator on a domain's tasks and score every episode",
  },
  conformance: {
    term: 'conformance [options]',
    description: "replay tau2's gold actions and check outputs, DB diffs and hashes against a tau2 reference file",
  },
  lint: {
    term: 'lint [options]',
    description: "report facts about a dataset's tasks that change what its rewards mean (uncounted criteria, unchecked transfers, known-bad tasks)",
  },
  optimize: {
    term: 'optimize [options] <config>',
    description: "improve a prompt from failure trajectories, gated statistically, released to canary",
  },
  canary: {
    term: 'canary [options] <dir>',
    description: "promote or roll back an optimise run's canary prompt on real traffic outcomes",
  },
  prompts: {
    term: 'prompts [options]',
    description: "list prompt versions and their release state (from optimise runs in the store)",
  },
  view: {
    term: 'view [options]',
    description: "browse runs, episodes, comparisons and prompt releases in a local web viewer (read-only), or export it as a static site",
  },
  compare: {
    term: 'compare [options] <run-a> <run-b>',
    description: "compare run B with baseline run A: per-task success rates, the overall difference and pass^k against run-to-run noise, and every setting that differs",
  },
  'compare-surfaces': {
    term: 'compare-surfaces [options] <run-ids...>',
    description: "the same tasks run on different surfaces (e.g. --surface api and --surface pixels), side by side per task: successes, reward, partial, steps, seconds and image bytes per episode",
  },
  terminal: {
    term: 'terminal [options] <domain>',
    description: "open a domain's terminal surface at a prompt (e.g. the gds emulator); --task shows a task and scores the session on QUIT",
  },
  rescore: {
    term: 'rescore [options] <run-id>',
    description: "re-evaluate every stored episode of a run from its record alone and report any difference from the stored evaluation",
  },
  evaluate: {
    term: 'evaluate [options] <trajectory>',
    description: "score recorded trajectories (chat-completions messages, as run stores them; JSON or JSON Lines) by replaying their tool calls in a fresh environment",
  },
  'export-trajectories': {
    term: 'export-trajectories [options] <run-id>',
    description: "write a stored run's episodes as evaluate's input (JSON Lines of {task_id, trial, persona, surface, surface_options, dataset_variant, episode_id, messages}) to score them again or elsewhere",
  },
  import: {
    term: 'import',
    description: "import runs made by other tools",
  },
  worker: {
    term: 'worker [options]',
    description: "run episodes of distributed runs ('run --queue') and rollouts of 'optimize --queue' from a Redis queue; results go back to the one process that stores them",
  },
  'merge-shards': {
    term: 'merge-shards [options] <stores...>',
    description: "merge the stores of a sharded run (run --shard i/N) into one store",
  },
};
