// Runs W7 in its own process (so nothing else in the suite shares its heap or async hooks) and
// prints the rows as JSON. React picks its build from NODE_ENV at import time.
const { runTuiBench } = await import('./measure.mjs');
const rows = await runTuiBench({ runs: Number(process.env.W7_RUNS ?? 3), part: process.env.W7_PART });
process.stdout.write(`${JSON.stringify(rows)}\n`);
