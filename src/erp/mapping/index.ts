export type * from './spec.js';
export { outboundProblems, type MappingProblem } from './checks.js';
export {
  columnsMapping,
  nestedObject,
  outboundMapping,
  outboundRows,
  rowObjects,
  type OutboundContext,
  type OutboundMapping,
  type OutField,
} from './outbound.js';
export {
  inboundMapping,
  withNamedColumns,
  type ColumnProblem,
  type Compiled,
  type InboundContext,
  type InboundMapping,
  type InField,
} from './inbound.js';
export {
  mapRecord,
  type Cell,
  type InputLine,
  type InputRecord,
  type MappedMessage,
  type Where,
} from './records.js';
export { pathText, type Segment } from './paths.js';
