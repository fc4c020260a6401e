import { z } from 'zod';
import { isIsoDateTime } from '../query.js';

/**
 * Field helpers. The platform leaves most fields optional and may send null for an empty one,
 * so every field is optional and nullable unless the spec states a rule; unknown fields pass
 * through untouched (we forward what the platform sends, we do not prune it).
 */
export const str = z.string().nullish();
/** A field the spec types "date-time" (most date fields it leaves plain strings). */
export const dateTime = z
  .string()
  .refine(isIsoDateTime, 'must be an ISO 8601 date-time with a time zone')
  .nullish();
/**
 * A decimal number the platform sends as text (prices: `"25.47"`). Marked, so that formats that
 * write numbers their own way (CSV with a decimal comma) know it by the field, not by its look:
 * an article number such as `"100.2001"` is text and stays as it is.
 */
export const DECIMAL_TEXT = 'decimal-text';
export const decimalStr = z.string().meta({ format: DECIMAL_TEXT }).nullish();
export const num = z.number().nullish();
export const bool = z.boolean().nullish();
export const strings = z.array(z.string()).nullish();
export const numbers = z.array(z.number()).nullish();
/** Enumerations the platform may return by value or by name (e.g. therapyId). */
export const numOrStr = z.union([z.number(), z.string()]).nullish();
export const list = <T extends z.ZodType>(item: T) => z.array(item).nullish();
export const obj = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);
export const intIn = (min: number, max: number) => z.number().int().min(min).max(max).nullish();

/**
 * The first three entity base fields: all of them that master data and the entries inside a
 * record (a patient's payer, care givers, hospital stay) carry.
 */
export const idStampArchived = { _id: str, timestamp: str, archived: bool };

/** Entity base fields (spec document 2, "Shared conventions"). */
export const base = {
  ...idStampArchived,
  createdAt: str,
  createdBy: str,
  updatedAt: str,
  updatedBy: str,
};

/** Where an institution or a doctor's practice is and how it is reached, in the spec's order. */
export const officeContact = {
  address: str,
  postalCode: str,
  city: str,
  phone: str,
  fax: str,
  email: str,
};

/** The town of a person (patient, care giver, user) and how they are reached, in the spec's order. */
export const personContact = {
  postalCode: str,
  city: str,
  phone: str,
  mobilePhone: str,
  email: str,
  fax: str,
};

export const address = obj({
  gender: num,
  title: num,
  name: str,
  address: str,
  additionalAddress: str,
  additionalAddress2: str,
  postalCodeId: str,
  postalCode: str,
  city: str,
});

export const billingAddress = address.extend({ account: str });
export const trackingInfo = obj({ trackingLink: str, trackingCode: str });

export const quantityPerUnit = obj({
  _id: str,
  pcn: str,
  quantity: num,
  /** A string in responses; requests may send the number of the enumeration value. */
  unit: numOrStr,
  archived: bool,
});

export const attribute = obj({
  attributeTemplateId: str,
  name: str,
  dataType: num,
  value: z.unknown().optional(),
});

export const duration = obj({ amount: num, timePeriod: num });
