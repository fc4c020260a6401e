/**
 * Tool: the demo (`npm start`): the simulator, the daemon, a file-drop ERP and a stand-in ERP and
 * platform user that answer.
 */
export { startDemo, ERP_INTERVAL_MS, ACTIVITY_INTERVAL_MS } from './startDemo.js';
export type { DemoOptions, RunningDemo } from './startDemo.js';
export { DEFAULT_DEMO_PORT, demoConfigProblems } from './demoConfig.js';
export type { DemoFlags } from './demoConfig.js';
export { createStandInErp } from './standInErp.js';
export type { StandInErp, StandInErpOptions, TakenOrder } from './standInErp.js';
export { createPlatformActivity } from './platformActivity.js';
export type {
  PlatformActivity,
  PlatformActivityOptions,
  CreatedOrder,
} from './platformActivity.js';
