/** `servicegym import-record <record.json> --out <dir>`: an experiment record into a campaign folder. */
import type { Command } from 'commander';

/** Registers `servicegym import-record <record> --out <dir>`; exit 2 on a malformed record. */
export function registerImportRecord(program: Command, setExit: (code: number) => void): void {
  program
    .command('import-record')
    .description('turn an experiment record (JSON) into a campaign folder plus a receipts cassette')
    .argument('<record>', 'experiment record JSON file')
    .requiredOption('--out <dir>', 'campaign folder to write (new, empty, or an earlier import)')
    .option('--force', 'write into a non-empty folder that holds no earlier import')
    .action(async (file: string, flags: { out: string; force?: boolean }) => {
      const { importRecord } = await import('../campaign/import-record.js');
      const { counted } = await import('./output.js');
      const r = await importRecord(file, flags.out, { force: flags.force });
      process.stdout.write(`imported ${counted(r.cases, 'case')} and ${counted(r.receipts, 'receipt')} into ${r.outDir}\n${r.files.map((f) => `  ${f}`).join('\n')}\n`);
      setExit(0);
    });
}
