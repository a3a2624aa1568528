/**
 * Command lines servicegym prints for the user to copy (`open it: servicegym view --db ...`,
 * `continue it with --resume ...`): every value goes in as one POSIX shell word, so a store path
 * with a space or a run id with a quote pastes back as the same argument.
 */

/** Characters a shell word may hold unquoted (no globbing, expansion, word splitting or comment). */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * `value` as one POSIX shell word: unchanged when it holds only plain characters, else in single
 * quotes (a quote in it written `'\''`); the empty string is `''`.
 */
export function shellArg(value: string): string {
  return PLAIN.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
