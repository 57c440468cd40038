// Runs one workload once in a fresh process and prints its memory as JSON: `node bench/memory-child.mjs adk W1`.
const [implName, what] = process.argv.slice(2);
const impl = await import(`./impls/${implName}.mjs`);
const idleRss = process.memoryUsage().rss;
let run;
if (what === 'W1') run = impl.stream(20_000);
else if (what === 'session') run = impl.session?.(10_000);
if (!run) {
  console.log(JSON.stringify({ unsupported: true }));
  process.exit(0);
}
const out = await run();
const peakRss = process.resourceUsage().maxRSS * 1024;
console.log(JSON.stringify({ out, idleRss, peakRss, heapUsed: process.memoryUsage().heapUsed }));
