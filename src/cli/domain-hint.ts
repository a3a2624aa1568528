/**
 * A hint on a dataset that fails to load under the default domain: `--data-dir` given without
 * `--domain` reads the folder as the default domain (airline), so a retail or telecom folder fails
 * with an airline-shaped error (`db.json at $.flights: ... expected record`). The error then says
 * which domain the folder was read as and how to name another.
 */
import type { Command } from 'commander';
import { BadInputError } from '../spec/errors.js';

/**
 * `load` (a domain load of the command's `--domain` and `--data-dir`), with a BadInputError it
 * rejects with rethrown with the hint appended when `--domain` came from its default (not the
 * command line or a config file) and a `--data-dir` was given. Other errors pass unchanged.
 */
export async function withDefaultDomainHint<T>(cmd: Command, flags: { domain: string; dataDir?: string }, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (!(e instanceof BadInputError) || flags.dataDir === undefined || cmd.getOptionValueSource('domain') !== 'default') throw e;
    const { DOMAIN_PACKAGE_NAMES } = await import('../domains/catalog.js');
    const others = DOMAIN_PACKAGE_NAMES.filter((n) => n !== flags.domain).join(', ');
    throw new BadInputError(`${e.message}\n(${flags.dataDir} was read as the ${flags.domain} domain, the default: name its domain with --domain, one of ${others})`);
  }
}
