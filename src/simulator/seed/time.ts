import type { SeedContext } from './context.js';
import { DAY_MS } from '../../shared/clock.js';

/** Records changed within the 30 days before `now`, so every `updatedAfter` window finds some. */
export const CHANGE_WINDOW_DAYS = 30;

export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

export function daysAfter(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** `YYYY-MM-DD`, the shape of the platform's plain date fields. */
export function dateOnly(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export interface ChangeTimes {
  createdAt: Date;
  updatedAt: Date;
}

/**
 * When a record was created and last changed. `changed: false` gives a record never edited
 * since creation (createdAt = updatedAt), as new records on the platform are.
 */
export function changeTimes(ctx: SeedContext, changed = ctx.faker.datatype.boolean(0.6)) {
  const from = daysBefore(ctx.now, CHANGE_WINDOW_DAYS);
  const updatedAt = ctx.faker.date.between({ from, to: ctx.now });
  const createdAt = changed ? ctx.faker.date.between({ from, to: updatedAt }) : updatedAt;
  return { createdAt, updatedAt } satisfies ChangeTimes;
}

/** Soft-delete marker and who changed the record when; editors are generated users. */
export function editorFields(ctx: SeedContext, archived: boolean, times = changeTimes(ctx)) {
  return {
    archived,
    createdAt: times.createdAt.toISOString(),
    createdBy: ctx.faker.helpers.arrayElement(ctx.refs.userIds),
    updatedAt: times.updatedAt.toISOString(),
    updatedBy: ctx.faker.helpers.arrayElement(ctx.refs.userIds),
  };
}

/**
 * The entity base fields after the record's own: `timestamp` equals `updatedAt`. `archived`
 * comes from the caller so tests can count on a few.
 */
export function auditFields(ctx: SeedContext, archived: boolean, times = changeTimes(ctx)) {
  const editors = editorFields(ctx, archived, times);
  return { timestamp: editors.updatedAt, ...editors };
}

/** Every tenth record from the eighth on is archived: a few, and at least one from eight up. */
export function isArchivedSlot(index: number): boolean {
  return index % 10 === 7;
}
