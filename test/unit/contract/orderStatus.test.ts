import { describe, expect, it } from 'vitest';
import { canTransition, ORDER_STATUS } from '../../../src/contract/index.js';

const all = Object.values(ORDER_STATUS);
const { Created, Pending, Canceled, Deleted, Sent, Processed } = ORDER_STATUS;

/** The transition table of spec document 1, read independently of the implementation. */
function specAllows(from: number, to: number): boolean {
  if (from === Created) return true;
  if (from === Deleted) return false;
  if (to === Created || to === Deleted || to === Pending) return false;
  if (from === Canceled && to === Canceled) return false;
  return true;
}

describe('order status transitions', () => {
  it('agree with the spec table for every pair', () => {
    for (const from of all) {
      for (const to of all) {
        expect(canTransition(from, to).allowed, `${from} → ${to}`).toBe(specAllows(from, to));
      }
    }
  });

  it('explain a refusal in words a person understands', () => {
    expect(canTransition(Sent, Pending)).toEqual({
      allowed: false,
      reason: 'Sent → Pending is not allowed; only Created may become Pending',
    });
    expect(canTransition(Deleted, Processed)).toEqual({
      allowed: false,
      reason:
        'Deleted → Processed is not allowed; Deleted is an end status; no further change is possible',
    });
  });

  it('refuses values outside the enumeration', () => {
    expect(canTransition(Created, 11)).toEqual({
      allowed: false,
      reason: '11 is not an order status (-3 to 10)',
    });
  });
});
