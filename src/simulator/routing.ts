import {
  ID_PLACEHOLDER,
  type BoundOperation,
  type Contract,
  type HttpMethod,
} from '../contract/index.js';

export type RouteMatch =
  | { kind: 'operation'; operation: BoundOperation; id: string | undefined }
  | { kind: 'methodNotAllowed'; allow: HttpMethod[] }
  | { kind: 'notFound' };

interface Shape {
  operation: BoundOperation;
  segments: readonly string[];
  /** Literal segments: `/patient/customerMapping` beats `/patient/{id}`. */
  score: number;
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

/** Every path shape an operation answers on; PUT /device also on its collection path. */
function shapesOf(operation: BoundOperation): Shape[] {
  const segments = segmentsOf(operation.pathTemplate);
  const score = segments.filter((s) => s !== ID_PLACEHOLDER).length;
  const shapes: Shape[] = [{ operation, segments, score }];
  if (operation.detail.idQueryParam !== undefined) {
    const collection = segments.filter((s) => s !== ID_PLACEHOLDER);
    shapes.push({ operation, segments: collection, score: collection.length });
  }
  return shapes;
}

function idIfMatches(shape: Shape, path: readonly string[]): string | undefined | false {
  if (shape.segments.length !== path.length) return false;
  let id: string | undefined;
  for (const [index, expected] of shape.segments.entries()) {
    const actual = path[index] ?? '';
    if (expected === ID_PLACEHOLDER) id = actual;
    else if (expected !== actual) return false;
  }
  return id;
}

/** Finds the contract operation a request names, reading every path from the contract. */
export class Router {
  private readonly shapes: Shape[];

  constructor(contract: Contract) {
    this.shapes = contract.operations.flatMap(shapesOf);
  }

  match(method: string, pathname: string): RouteMatch {
    let path: string[];
    try {
      path = segmentsOf(pathname).map(decodeURIComponent);
    } catch {
      // A malformed percent-escape names no operation of the contract: a 404, as the platform.
      return { kind: 'notFound' };
    }
    const candidates: Array<{ shape: Shape; id: string | undefined }> = [];
    for (const shape of this.shapes) {
      const id = idIfMatches(shape, path);
      if (id !== false) candidates.push({ shape, id });
    }
    if (candidates.length === 0) return { kind: 'notFound' };
    const best = Math.max(...candidates.map((c) => c.shape.score));
    const top = candidates.filter((c) => c.shape.score === best);
    const wanted = method === 'HEAD' ? 'GET' : method;
    const hit = top.find((c) => c.shape.operation.method === wanted);
    if (hit) return { kind: 'operation', operation: hit.shape.operation, id: hit.id };
    const allow = [...new Set(top.map((c) => c.shape.operation.method))].sort();
    return { kind: 'methodNotAllowed', allow };
  }
}
