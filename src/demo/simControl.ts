import type { OrderResource } from './erpAnswers.js';

/** Creates a record as a platform user would, through the simulator's control API. */
export type CreateOnPlatform = (
  resource: OrderResource,
  record: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

/** `POST /__sim/records/<resource>` (docs/readme/simulator.md, "Control API"). */
export function controlApiCreator(
  simulatorUrl: string,
  controlToken: string,
  tenant: string,
): CreateOnPlatform {
  return async (resource, record) => {
    const response = await fetch(`${simulatorUrl}/__sim/records/${resource}`, {
      method: 'POST',
      headers: { 'sim-control-token': controlToken, 'content-type': 'application/json' },
      body: JSON.stringify({ tenant, record }),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(
        `the simulator refused to create a ${resource} (HTTP ${response.status}): ${text.slice(0, 300)}`,
      );
    }
    return JSON.parse(text) as Record<string, unknown>;
  };
}
