// The model identifiers of API v1: the only values `model` accepts, in chat and in settings.
export const MODEL_IDS = [
  'vendor1-4o-mini',
  'vendor1-oss-120b',
  'vendor1-oss-20b',
  'vendor1-5.2',
  'vendor1-5.5',
  'vendor1-5.6-terra',
  'vendor1-5.6-luna',
  'vendor1-5-mini',
  'vendor1-5-nano',
  'vendor2-opus-4-8',
  'vendor2-opus-4-7',
  'vendor2-opus-4-6',
  'vendor2-sonnet-4-6',
  'vendor2-opus-4-5',
  'vendor2-haiku-4-5',
  'vendor2-sonnet-4-5',
  'vendor3-2.5-pro',
  'vendor3-3-flash',
  'vendor3-3.1-flash-lite',
  'vendor3-3.1-pro',
  'vendor3-3.5-flash',
  'vendor3-3.5-flash-lite',
  'vendor3-3.6-flash',
  'vendor4-3',
  'vendor4-3-mini',
  'vendor4-4',
  'vendor5-V3',
  'vendor5-R1',
  'vendor5-V4-Flash',
  'vendor6-4-Scout-17B-16E-Instruct',
  'vendor6-4-Maverick-17B-128E-Instruct-FP8',
  'vendor7-k2',
  'vendor8-medium-3.5',
  'vendor8-small-2603',
  'vendor9-5.2',
  'auto',
] as const;

export type ModelId = (typeof MODEL_IDS)[number];

/** The family of an identifier is its vendor word (`vendor2-opus-4-8` → `vendor2`); `auto` is its own. */
export function modelFamily(model: ModelId): string {
  return model.split('-')[0] ?? model;
}
