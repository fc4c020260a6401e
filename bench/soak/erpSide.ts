/**
 * The fault loop's ERP side (issue 36): the ERP answers the orders it was handed as an ERP does
 * in ordinary work, and at random (seeded) repeats itself. Each answered single order goes
 * Processed → PartiallySent (a parcel) → Sent (two parcels, two rows of one export: an order
 * split over rows and files); a direct order gets Processed and a delivery (erpOrder) of two
 * lines and two parcels over four rows. At random the ERP exports a file again under a new name
 * (also an old one, after newer ones), writes a bad row and drops the fixed file again (the
 * bad row gone, the fixed one at the end: the lines shift), and an operator replays an archived
 * file (`inbox replay`). At the end every answered order must carry the last status the ERP
 * meant and its salesId, every parcel and line once, each value as the ERP wrote it.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReplayOutcome } from '../../src/operations/replay.js';
import { ORDER_STATUS } from '../../src/contract/index.js';

type Row = Record<string, unknown>;
type OrderResource = 'singleOrder' | 'directOrder';

const { Processed: PROCESSED, PartiallySent: PARTIALLY_SENT, Sent: SENT } = ORDER_STATUS;
const STATUS_HEADER = 'id,salesId,status,trackingInfo.0.trackingCode';
const DELIVERY_HEADER = [
  'salesId',
  'patientId',
  'outboundDate',
  'deliveryAddress.name',
  'deliveryAddress.address',
  'deliveryAddress.postalCode',
  'deliveryAddress.city',
  'erpOrderedArticleLines.articleDescription',
  'erpOrderedArticleLines.quantity',
  'erpOrderedArticleLines.deliveredQuantity',
  'trackingInfo.0.trackingCode',
  'annotation',
  'prescriptionStatus',
  'trackingLink',
  'therapyId',
  'completed',
].join(',');

/** What the ERP meant for one order, as it last said it. */
interface Answer {
  resource: OrderResource;
  salesId: string;
  status: number;
  parcels: string[];
  /** 0 Processed, 1 PartiallySent, 2 Sent (single orders only). */
  stage: number;
  /** The ERP order of a direct order: its lines and parcels. */
  delivery?: { salesId: string; lines: { text: string; quantity: number }[]; parcels: string[] };
}

/** An order handed to the ERP, by its newest outbox file. */
export interface HandedOrder {
  resource: OrderResource;
  id: string;
  record: Row;
}

export interface ErpRound {
  inbox: string;
  round: number;
  random: () => number;
  /** The orders the ERP holds that the platform still has in Created. */
  unanswered: readonly HandedOrder[];
  /** An operator's `inbox replay` of an archived file (its path). */
  replay(path: string): Promise<ReplayOutcome>;
}

export interface ErpFigures {
  files: number;
  rows: number;
  reExports: number;
  fixedFiles: number;
  badRows: number;
  replays: number;
  replaysRefused: number;
  ordersAnswered: number;
  parcels: number;
  lines: number;
}

interface Dropped {
  kind: string;
  name: string;
  text: string;
}

/** The file a bad row goes in, before the round's file is written. */
const NOT_YET: Dropped = { kind: 'orderStatus', name: '', text: '' };

function write(inbox: string, file: Dropped): void {
  mkdirSync(join(inbox, file.kind), { recursive: true });
  writeFileSync(join(inbox, file.kind, file.name), file.text);
  writeFileSync(join(inbox, file.kind, `${file.name}.done`), '');
}

function archivedFiles(inbox: string): string[] {
  try {
    return readdirSync(join(inbox, '.archive'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
  } catch {
    return [];
  }
}

const csv = (header: string, rows: readonly string[]) => `${[header, ...rows].join('\n')}\n`;

/** Rounds in names that sort as they came: the inbox takes a kind's files in name order. */
const pad = (round: number) => String(round).padStart(3, '0');

/** The ERP of one run: its answers, its repeats, and the check of what the platform holds. */
export function erpSide(seed: number) {
  const answers = new Map<string, Answer>();
  const dropped: Dropped[] = [];
  /** Orders whose row was bad, with the row the fixed file carries. */
  const toFix: { file: Dropped; rows: string[]; id: string; row: string }[] = [];
  /** The files whose `.error.json` the ERP's bad rows caused on purpose. */
  const badOnPurpose = new Set<string>();
  const figures: ErpFigures = {
    files: 0,
    rows: 0,
    reExports: 0,
    fixedFiles: 0,
    badRows: 0,
    replays: 0,
    replaysRefused: 0,
    ordersAnswered: 0,
    parcels: 0,
    lines: 0,
  };

  function drop(inbox: string, file: Dropped, rows: number): void {
    write(inbox, file);
    dropped.push(file);
    figures.files += 1;
    figures.rows += rows;
  }

  const parcel = (id: string, n: number) => `PK-${seed}-${id.slice(0, 8)}-${n}`;
  const statusRow = (id: string, answer: Answer, code = '') =>
    `${id},${answer.salesId},${answer.status},${code}`;

  /** New answers, two single orders and a direct one: Processed with a salesId; a delivery. */
  function answerNew(ctx: ErpRound, rows: string[], deliveries: string[]): void {
    const open = ctx.unanswered.filter((order) => !answers.has(order.id));
    const chosen = [
      ...open.filter((order) => order.resource === 'singleOrder').slice(0, 2),
      ...open.filter((order) => order.resource === 'directOrder').slice(0, 1),
    ];
    for (const order of chosen) {
      const salesId = `SO-${seed}-${order.id.slice(0, 8)}`;
      const answer: Answer = {
        resource: order.resource,
        salesId,
        status: PROCESSED,
        parcels: [],
        stage: 0,
      };
      answers.set(order.id, answer);
      figures.ordersAnswered += 1;
      const row = statusRow(order.id, answer);
      // Now and then the ERP's export has a bad row for it, fixed in the next round's drop.
      if (order.resource === 'singleOrder' && ctx.random() < 0.3) {
        rows.unshift(`${order.id},${salesId},drei,`);
        toFix.push({
          file: NOT_YET,
          rows: [],
          id: order.id,
          row,
        });
        figures.badRows += 1;
      } else rows.push(row);
      if (order.resource === 'directOrder') deliveries.push(...delivery(order, answer));
    }
  }

  /** A direct order's delivery: two lines and two parcels, a row for each pair. */
  function delivery(order: HandedOrder, answer: Answer): string[] {
    const salesId = `LS-${seed}-${order.id.slice(0, 8)}`;
    const lines = [
      { text: 'Saugkompresse steril 10 x 10 cm', quantity: 2 },
      { text: 'Fixiervlies 10 cm', quantity: 1 },
    ];
    const parcels = [parcel(order.id, 8), parcel(order.id, 9)];
    answer.delivery = { salesId, lines, parcels };
    figures.lines += lines.length;
    figures.parcels += parcels.length;
    const patientId = String(order.record.patientId);
    return lines.flatMap((line) =>
      parcels.map(
        (code) =>
          `${salesId},${patientId},2026-03-03T14:30:00Z,Erika Mustermann,Hauptstrasse 5,50667,Koeln,${line.text},${line.quantity},${line.quantity},${code},Lieferung,originalReceived,https://tracking.example.com/,3,true`,
      ),
    );
  }

  /** Single orders move on: a part shipment with its parcel, then the rest in two parcels. */
  function advance(ctx: ErpRound, rows: string[]): void {
    for (const [id, answer] of answers) {
      const fixing = toFix.some((fix) => fix.id === id);
      if (answer.resource !== 'singleOrder' || answer.stage >= 2 || fixing) continue;
      if (ctx.random() < 0.5) continue;
      answer.stage += 1;
      if (answer.stage === 1) {
        answer.status = PARTIALLY_SENT;
        const code = parcel(id, 1);
        answer.parcels.push(code);
        rows.push(statusRow(id, answer, code));
      } else {
        answer.status = SENT;
        const codes = [parcel(id, 2), parcel(id, 3)];
        answer.parcels.push(...codes);
        rows.push(...codes.map((code) => statusRow(id, answer, code)));
      }
      figures.parcels += answer.stage === 1 ? 1 : 2;
    }
  }

  /** The files with bad rows, dropped again fixed: the bad rows gone, the fixed ones at the end. */
  function dropFixed(ctx: ErpRound): void {
    const fixes = toFix.splice(0);
    for (const file of new Set(fixes.map((fix) => fix.file))) {
      const fixed = fixes.filter((fix) => fix.file === file).map((fix) => fix.row);
      const rows = fixes.find((fix) => fix.file === file)?.rows ?? [];
      const kept = [...rows.filter((row) => !row.includes(',drei,')), ...fixed];
      drop(ctx.inbox, { ...file, text: csv(STATUS_HEADER, kept) }, kept.length);
      figures.fixedFiles += 1;
    }
  }

  /** An earlier file (any: also one newer ones came after) exported again under a new name. */
  function reExport(ctx: ErpRound): number {
    if (dropped.length === 0 || ctx.random() >= 0.5) return 0;
    const earlier = dropped[Math.floor(ctx.random() * dropped.length)];
    if (earlier === undefined) return 0;
    const name = earlier.name.replace(/(\.\w+)$/, `-again-${pad(ctx.round)}$1`);
    write(ctx.inbox, { ...earlier, name });
    if (badOnPurpose.has(earlier.name)) badOnPurpose.add(name);
    figures.reExports += 1;
    return 1;
  }

  async function replay(ctx: ErpRound): Promise<void> {
    const archived = archivedFiles(ctx.inbox).filter((path) => /\.(csv|json)$/.test(path));
    if (archived.length === 0 || ctx.random() >= 0.4) return;
    const path = archived[Math.floor(ctx.random() * archived.length)];
    if (path === undefined) return;
    figures.replays += 1;
    const outcome = await ctx.replay(path);
    if (!outcome.ok) figures.replaysRefused += 1;
  }

  return {
    figures,
    badOnPurpose,
    /** The ERP's files of one round (before the pass that reads them); the number dropped. */
    async round(ctx: ErpRound): Promise<number> {
      const before = figures.files;
      await replay(ctx);
      dropFixed(ctx);
      const rows: string[] = [];
      const deliveries: string[] = [];
      advance(ctx, rows);
      answerNew(ctx, rows, deliveries);
      if (rows.length > 0) {
        const file: Dropped = {
          kind: 'orderStatus',
          name: `seed${seed}-round${pad(ctx.round)}-status.csv`,
          text: csv(STATUS_HEADER, rows),
        };
        drop(ctx.inbox, file, rows.length);
        for (const fix of toFix) {
          if (fix.file !== NOT_YET) continue;
          fix.file = file;
          fix.rows = rows;
          badOnPurpose.add(file.name);
        }
      }
      if (deliveries.length > 0) {
        const name = `seed${seed}-round${pad(ctx.round)}-deliveries.csv`;
        drop(
          ctx.inbox,
          { kind: 'erpOrder', name, text: csv(DELIVERY_HEADER, deliveries) },
          deliveries.length,
        );
      }
      const again = reExport(ctx);
      return figures.files - before + again;
    },
    /** The ERP's word against the platform's records: what is missing, doubled or altered. */
    check(orders: ReadonlyMap<string, Row>, erpOrders: readonly Row[]): string[] {
      const violations: string[] = [];
      for (const [id, answer] of answers) {
        if (toFix.some((fix) => fix.id === id)) continue;
        const order = orders.get(id);
        if (order?.status !== answer.status || order.salesId !== answer.salesId) {
          violations.push(
            `${answer.resource} ${id}: the ERP last meant status ${answer.status}, salesId ${answer.salesId}; the platform has status ${String(order?.status)}, salesId ${String(order?.salesId)}`,
          );
        }
        if (answer.resource === 'singleOrder') {
          const codes = ((order?.trackingInfo ?? []) as Row[]).map((entry) => entry.trackingCode);
          violations.push(...sameOnce(`singleOrder ${id} parcels`, codes, answer.parcels));
        }
        if (answer.delivery !== undefined) {
          violations.push(...deliveryViolations(answer.delivery, erpOrders));
        }
      }
      return violations;
    },
  };
}

/** Each expected value exactly once, nothing else. */
function sameOnce(what: string, found: readonly unknown[], expected: readonly unknown[]): string[] {
  const seen = found.map((value) => JSON.stringify(value)).sort();
  const wanted = expected.map((value) => JSON.stringify(value)).sort();
  return JSON.stringify(seen) === JSON.stringify(wanted)
    ? []
    : [`${what}: the ERP sent ${wanted.join(', ')}; the platform has ${seen.join(', ') || 'none'}`];
}

function deliveryViolations(
  delivery: NonNullable<Answer['delivery']>,
  erpOrders: readonly Row[],
): string[] {
  const found = erpOrders.filter((record) => record.salesId === delivery.salesId);
  const [erpOrder] = found;
  if (found.length !== 1 || erpOrder === undefined) {
    return [`erpOrder ${delivery.salesId}: ${found.length} on the platform (want 1)`];
  }
  const lines = ((erpOrder.erpOrderedArticleLines ?? []) as Row[]).map((line) => ({
    text: line.articleDescription,
    quantity: line.quantity,
    delivered: line.deliveredQuantity,
  }));
  const codes = ((erpOrder.trackingInfo ?? []) as Row[]).map((entry) => entry.trackingCode);
  return [
    ...sameOnce(
      `erpOrder ${delivery.salesId} lines`,
      lines,
      delivery.lines.map((line) => ({ ...line, delivered: line.quantity })),
    ),
    ...sameOnce(`erpOrder ${delivery.salesId} parcels`, codes, delivery.parcels),
  ];
}

export type ErpSide = ReturnType<typeof erpSide>;
