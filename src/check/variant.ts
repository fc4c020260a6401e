import {
  VARIANTS,
  variantProbes,
  type ProbeAnswer,
  type Variant,
  type VariantProbe,
} from '../contract/index.js';
import type { CheckContext } from './context.js';
import type { CheckDefinition } from './runner.js';
import { fail, pass, warn, type Outcome } from './verdict.js';

/**
 * What an answer's status says of a path: 404 and 405 as HTTP means them; a 2xx, or a refusal of
 * the request or of the key's rights (400, 403, 409, 422), says the path takes GET. Others (401,
 * 408, 429, 5xx) say nothing about it.
 */
export function probeAnswerOf(status: number): ProbeAnswer | undefined {
  if (status === 404) return 'notFound';
  if (status === 405) return 'notAllowed';
  if ((status >= 200 && status < 300) || [400, 403, 409, 422].includes(status)) return 'served';
  return undefined;
}

/** One probe and what it got (undefined: nothing conclusive). */
export interface ProbeResult {
  probe: VariantProbe;
  status: number | string;
  answer: ProbeAnswer | undefined;
}

const EXPECTED_WORDS: Record<ProbeAnswer, string> = {
  served: 'serves it',
  notAllowed: 'answers 405 (other methods only)',
  notFound: 'answers 404',
};

/** `GET /erpOrder answered 405, variant B serves it`: what a variant expected and did not get. */
function difference(result: ProbeResult, variant: Variant): string {
  const path = result.probe.path.split('?')[0] ?? result.probe.path;
  const got = typeof result.status === 'number' ? `HTTP ${result.status}` : result.status;
  return `GET ${path} answered ${got}, variant ${variant} ${EXPECTED_WORDS[result.probe.expected[variant]]}`;
}

function mismatches(results: readonly ProbeResult[], variant: Variant): ProbeResult[] {
  return results.filter((r) => r.answer !== undefined && r.answer !== r.probe.expected[variant]);
}

/**
 * The verdict on the probes' answers against `platform.variant`: pass when they fit it alone,
 * fail naming the variant they fit when that is another, warn when they fit several or none
 * (the closest named).
 */
export function variantOutcome(results: readonly ProbeResult[], configured: Variant): Outcome {
  const conclusive = results.filter((r) => r.answer !== undefined).length;
  if (conclusive === 0) {
    const seen = results.map((r) => `${r.probe.path.split('?')[0]}: ${r.status}`).join('; ');
    return warn(
      `no probe answered conclusively (${seen})`,
      'run the check again when the platform answers',
    );
  }
  const fitting = VARIANTS.filter((v) => mismatches(results, v).length === 0);
  const agree = `${conclusive} of ${results.length} probes`;
  const [only] = fitting;
  if (fitting.length === 1 && only === configured) {
    return pass(
      `the platform behaves as variant ${configured}, as platform.variant says (${agree} agree)`,
    );
  }
  const firstDifference = mismatches(results, configured)[0];
  const why = firstDifference === undefined ? '' : `: ${difference(firstDifference, configured)}`;
  if (fitting.length === 1 && only !== undefined) {
    return fail(
      `the platform behaves as variant ${only}, platform.variant says ${configured}${why}`,
      `set platform.variant: ${only}`,
    );
  }
  if (fitting.length > 1) {
    return warn(
      `the answers fit variants ${fitting.join(' and ')}; platform.variant says ${configured} (${agree} answered)`,
      'run the check again when every probe answers',
    );
  }
  const [closest] = [...VARIANTS].sort(
    (a, b) => mismatches(results, a).length - mismatches(results, b).length,
  );
  const hint =
    'the platform may follow a description other than A, B and C: compare its documentation with docs/readme/pulling.md';
  if (closest === configured) {
    return warn(
      `the platform matches no variant exactly; closest is ${configured}, as configured${why}`,
      hint,
    );
  }
  return fail(
    `the platform matches no variant exactly; closest is ${closest ?? '?'}, platform.variant says ${configured}${why}`,
    hint,
  );
}

/** platform.variant: the GET probes that tell A, B and C apart (no write), against the config. */
async function variantCheckOutcome(context: CheckContext): Promise<Outcome> {
  const client = context.client();
  const probes = variantProbes(client.platformNow(), context.config.platform.paths);
  const results: ProbeResult[] = [];
  for (const probe of probes) {
    try {
      const { status } = await client.peek(probe.resource, probe.path);
      results.push({ probe, status, answer: probeAnswerOf(status) });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      results.push({
        probe,
        status: typeof code === 'string' ? code : 'failed',
        answer: undefined,
      });
    }
  }
  return variantOutcome(results, context.config.platform.variant);
}

export const variantCheck: CheckDefinition<CheckContext> = {
  id: 'platform.variant',
  needs: ['platform.key'],
  run: variantCheckOutcome,
};
