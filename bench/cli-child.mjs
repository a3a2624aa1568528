/**
 * Runs one `servicegym` command in this process and reports what it cost, for the scale benchmark:
 * `node bench/cli-child.mjs ARGS…` runs the built CLI (dist/cli/main.js, what users run), and
 * `node --import tsx bench/cli-child.mjs ARGS…` with SERVICEGYM_BENCH_SOURCE=1 the TypeScript
 * sources. It writes the command's own output to /dev/null and, as the last line on stderr,
 * `{"code","seconds","cpu_ms","rss_before_mib","peak_rss_mib"}` (seconds and CPU milliseconds,
 * user + system, of the command itself, without Node's start; CPU time stays meaningful on a
 * loaded machine, where wall time does not).
 */
const { main } = await import(process.env.SERVICEGYM_BENCH_SOURCE === '1' ? '../src/cli/main.ts' : '../dist/cli/main.js');

const rssBefore = process.memoryUsage().rss;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = () => true;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const code = await main(['node', 'servicegym', ...process.argv.slice(2)]);
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
process.stdout.write = write;
process.stderr.write(`\n${JSON.stringify({ code, seconds, cpu_ms: (cpu.user + cpu.system) / 1000, rss_before_mib: rssBefore / 2 ** 20, peak_rss_mib: process.resourceUsage().maxRSS / 1024 })}\n`);
process.exitCode = code;
