export type * from './spec.js';
export { outboundProblems, type MappingProblem } from './check.js';
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
} from './inboundMapping.js';
export {
  mapRecord,
  type Cell,
  type InputLine,
  type InputRecord,
  type MappedMessage,
  type Where,
} from './inbound.js';
export { pathText, type Segment } from './paths.js';
