import type { FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';

/** `value` as an integer coefficient and a power of ten, exactly as its shortest decimal text reads. */
function decimal(value: number): [bigint, number] {
  const [coefficient = '0', exponent = '0'] = Math.abs(value).toString().split('e');
  const point = coefficient.indexOf('.');
  const fraction = point === -1 ? 0 : coefficient.length - point - 1;
  return [BigInt(coefficient.replace('.', '')), Number(exponent) - fraction];
}

/**
 * Whether `value` is a multiple of `divisor` as the decimals a model writes read: 1.15 is a
 * multiple of 0.01, though `1.15 / 0.01` is 114.99999999999999 in binary floating point (ajv's own
 * check; `@cfworker/json-schema` and zod compare decimals too). Exact, on `BigInt`.
 * @example isDecimalMultiple(1.15, 0.01) // true
 */
export function isDecimalMultiple(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor <= 0) return false;
  const [a, aExp] = decimal(value);
  const [b, bExp] = decimal(divisor);
  const shift = aExp - bExp;
  return shift >= 0 ? (a * 10n ** BigInt(shift)) % b === 0n : a % (b * 10n ** BigInt(-shift)) === 0n;
}

const multipleOf: SchemaValidateFunction = (divisor: number, value: number) => {
  if (isDecimalMultiple(value, divisor)) return true;
  multipleOf.errors = [
    { keyword: 'multipleOf', message: `must be multiple of ${divisor}`, params: { multipleOf: divisor } },
  ];
  return false;
};

/**
 * ajv's `multipleOf` keyword on {@link isDecimalMultiple}, with ajv's own message, so both JSON
 * Schema engines give the same verdict on decimals.
 */
export const decimalMultipleOf: FuncKeywordDefinition = {
  keyword: 'multipleOf',
  type: 'number',
  schemaType: 'number',
  validate: multipleOf,
};
