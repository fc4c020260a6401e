/** The child process of `floodInChild`: the flood, away from the process that probes /healthz. */
import { floodForParent } from './flood.js';

await floodForParent();
process.disconnect();
