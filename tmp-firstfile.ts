import { startSimulator } from './src/simulator/index.js';
import { runJob } from './bench/cycle/job.js';
import { homecareSync } from './bench/cycle/programs.js';
import { ensureBuilt } from './bench/support/daemonCommand.js';

ensureBuilt(console.log);
const sim = await startSimulator({ variant: 'B', port: 0, host: '127.0.0.1' });
for (let round = 0; round < Number(process.argv[2] ?? 2); round++) {
  const figures = await runJob(sim, homecareSync);
  const list = sim.state.requests.list().filter((e) => !e.path.startsWith('/__sim'));
  const t0 = Date.parse(list[0]!.time);
  console.log(`first file ${figures.timeline.files[0]} ms, first patch ${figures.timeline.patches[0]}, ${figures.ordersPerSecond.toFixed(0)}/s`);
  for (const e of list.slice(0, 14)) console.log(`  ${Date.parse(e.time) - t0} ms ${e.method} ${e.path} ${JSON.stringify(e.query)} ${e.status}`);
}
await sim.close();
