// @vitest-environment node
/**
 * money.normalize writes any decimal string the way the database writes NUMERIC(20,4): the text the database
 * already answers is kept as it is, anything else is parsed and written again; both give the same string.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import * as money from '../../server/lib/money';

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const decimal = fc
  .tuple(fc.constantFrom('', '-', '+', ' '), digits(1, 18), fc.option(digits(1, 7)), fc.constantFrom('', ' '))
  .map(([sign, int, frac, tail]) => `${sign}${int}${frac === null ? '' : `.${frac}`}${tail}`);

it('gives what parsing and formatting give, for any decimal string', () => {
  fc.assert(fc.property(decimal, (s) => {
      expect(money.normalize(s)).toBe(money.format(money.parse(s)));
    }), { numRuns: 2000 });
});

it('keeps the database text, and writes every other form of the same amount like it', () => {
  expect(money.normalize('12.3400')).toBe('12.3400');
  expect(money.normalize('-0.5000')).toBe('-0.5000');
  expect(money.normalize('-0.0000')).toBe('0.0000');
  expect(money.normalize('007.5000')).toBe('7.5000');
  expect(money.normalize('12.34')).toBe('12.3400');
  expect(money.normalize('1.23456')).toBe('1.2346');
  expect(() => money.normalize('1e3')).toThrow(money.MoneyFormatError);
});
