/**
 * The simulator in a child process of its own (see `startSimulatorProcess`), so that what the
 * platform does is neither on the measured event loop nor in its CPU and memory figures.
 */
import { startSimulator } from '../../src/simulator/index.js';

// A benchmark may ask for a large first tenant (`--articles <n>`), as `simulator --articles` does.
const articles = process.argv.indexOf('--articles');
const sizes = articles === -1 ? {} : { sizes: { articles: Number(process.argv[articles + 1]) } };
const simulator = await startSimulator({ variant: 'B', port: 0, host: '127.0.0.1', ...sizes });
process.send?.({ url: simulator.url, controlToken: simulator.controlToken });
// The benchmark owns this process: when it goes, so does the simulator.
process.on('disconnect', () => {
  void simulator.close().then(() => process.exit(0));
});
