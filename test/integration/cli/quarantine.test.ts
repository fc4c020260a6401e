import { describe, expect, it } from 'vitest';
import { withinBound, type LogLine } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

const rig = useDaemonRig({ simulator: { seed: 5 } });

/** A value nested `levels` deep in arrays: deeper than SQLite's JSON keeps (1,000). */
function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let n = 0; n < levels; n++) value = [value];
  return value;
}

describe('a quarantined record is named (issue 37.3)', () => {
  it('one warn line with resource, _id and reason; status and trace list it', async () => {
    const { sim, f, start } = rig();
    const deep = await sim.control.createRecord('doctor', {
      lastName: 'Deep',
      notes: nested(1_001),
    });
    const id = String(deep['_id']);
    const daemon = start();
    const line: LogLine = await daemon.waitForLog(
      `quarantined doctor ${id}: the record nests 1002 levels deep; the database keeps JSON up to 1000 levels; it is not handed to the ERP (homecare-sync trace ${id})`,
    );
    expect(line).toMatchObject({ level: 'warn', resource: 'doctor', _id: id });
    expect(String(line['reason'])).toContain('levels deep');
    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'the daemon to stop')).toBe(0);
    const named = daemon
      .stdout()
      .split('\n')
      .filter((text) => text.includes(`"_id":"${id}"`) && text.includes('quarantined'));
    expect(named).toHaveLength(1);

    const status = await f.cli('status');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('quarantined records: 1');
    expect(status.stdout).toMatch(new RegExp(`\\n  doctor +${id} .*nests 1002 levels deep`));
    const json = JSON.parse((await f.cli('status', '--json')).stdout) as Record<string, unknown>;
    const listed = json['quarantinedRecords'] as Record<string, unknown>[];
    expect(listed.map((entry) => [entry['resource'], entry['id']])).toEqual([['doctor', id]]);
    expect(String(listed[0]?.['reason'])).toContain('levels deep');

    const trace = await f.cli('trace', id);
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stdout).toMatch(/quarantined .*nests 1002 levels deep/);
  }, 60_000);
});
