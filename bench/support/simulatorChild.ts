/**
 * The simulator in a child process of its own (see `startSimulatorProcess`), so that what the
 * platform does is neither on the measured event loop nor in its CPU and memory figures.
 */
import { startSimulator } from '../../src/simulator/index.js';

const simulator = await startSimulator({ variant: 'B', port: 0, host: '127.0.0.1' });
process.send?.({ url: simulator.url, controlToken: simulator.controlToken });
// The benchmark owns this process: when it goes, so does the simulator.
process.on('disconnect', () => {
  void simulator.close().then(() => process.exit(0));
});
