/**
 * Runs one `servicegym` command in this process and reports what it cost, for the scale benchmark:
 * `node bench/cli-child.mjs ARGS…` runs the built CLI as users run it (the bundled entry
 * dist/cli/bin.js, with ARGS as its command line), and `node --import tsx bench/cli-child.mjs ARGS…`
 * with SERVICEGYM_BENCH_SOURCE=1 the TypeScript sources (src/cli/bin.ts). It writes the command's
 * own output to /dev/null and, when the process exits, as the last line on stderr,
 * `{"code","seconds","cpu_ms","rss_before_mib","peak_rss_mib"}`: seconds and CPU milliseconds
 * (user + system) from just before the CLI's modules load to the exit, so loading them counts and
 * Node's own start does not (CPU time stays meaningful on a loaded machine, where wall time does not).
 */
const rssBefore = process.memoryUsage().rss;
process.stdout.write = () => true;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
process.argv = [process.argv[0], 'servicegym', ...process.argv.slice(2)];
process.on('exit', (code) => {
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  process.stderr.write(`\n${JSON.stringify({ code, seconds, cpu_ms: (cpu.user + cpu.system) / 1000, rss_before_mib: rssBefore / 2 ** 20, peak_rss_mib: process.resourceUsage().maxRSS / 1024 })}\n`);
});
await import(process.env.SERVICEGYM_BENCH_SOURCE === '1' ? '../src/cli/bin.ts' : '../dist/cli/bin.js');
