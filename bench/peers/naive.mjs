// The raw reference of the order-cycle benchmark: the same job with nothing kept but the files.
// Every SCHEDULE_SECONDS it lists the created single orders, writes each to OUTBOX/<_id>.json
// (fsync'd, like the daemon's files) and PATCHes it to status 1, four at a time.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';

const { SIM_URL, API_KEY, OUTBOX, SCHEDULE_SECONDS = '1' } = process.env;
const headers = { 'service-api-key': API_KEY, 'content-type': 'application/json' };
const DAY_MS = 86_400_000;

async function writeSynced(path, text) {
  const file = await open(path, 'w');
  try {
    await file.writeFile(text);
    await file.sync();
  } finally {
    await file.close();
  }
}

async function handle(order) {
  await writeSynced(join(OUTBOX, `${order._id}.json`), JSON.stringify(order));
  const answer = await request(`${SIM_URL}/singleOrder/${order._id}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ status: 1 }),
  });
  await answer.body.dump();
}

async function poll() {
  const since = new Date(Date.now() - 30 * DAY_MS).toISOString();
  const answer = await request(`${SIM_URL}/singleOrder?status=created&updatedAfter=${since}`, {
    headers,
  });
  const orders = await answer.body.json();
  for (let next = 0; next < orders.length; next += 4) {
    await Promise.all(orders.slice(next, next + 4).map(handle));
  }
}

for (;;) {
  const started = Date.now();
  await poll().catch((error) => console.error(error));
  await new Promise((resolve) =>
    setTimeout(resolve, Math.max(0, Number(SCHEDULE_SECONDS) * 1000 - (Date.now() - started))),
  );
}
