import { z } from 'zod';

/**
 * Value types of the config file that more than one schema uses (config/, erp/mapping/). A value
 * that came from `${VAR}` substitution is always a string, so a flag also takes its text form.
 */
export function booleanFromText(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

export const optionalFlag = z.preprocess(booleanFromText, z.boolean()).optional();

export const nonEmpty = z.string().min(1, 'must not be empty');
