import type { ResourceName } from '../../contract/index.js';

/**
 * The order lines of the resources that have them: a CSV file writes one row per line (the
 * order's columns repeated), a mapping reads `<linesField>.x` once per line.
 */
export const ORDER_LINES: Partial<Record<ResourceName, string>> = {
  singleOrder: 'orderedArticleLines',
  directOrder: 'orderedArticleLines',
  erpOrder: 'erpOrderedArticleLines',
};
