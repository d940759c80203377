// @vitest-environment node
/**
 * The pieces answers written as text are made of: a string is written exactly as JSON.stringify writes it, and a
 * decimal loses its trailing zeros (and a point left bare) and nothing else, for any input.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { jsonString } from '../../server/lib/response-serializer';
import { trimDecimal } from '../../server/lib/settings';

// Plain text, and text full of what JSON must escape: quotes, backslashes, controls, line separators, lone surrogates.
const tricky = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', '\t', '\u0000', '\u001f', '\u007f', '\u2028', 'ñ', '😀', '\ud800', '\udfff', '/') });
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), tricky);

it('writes any string as JSON.stringify does', () => {
  fc.assert(
    fc.property(anyText, (s) => {
      expect(jsonString(s)).toBe(JSON.stringify(s));
    }),
    { numRuns: 5000 },
  );
  for (const s of ['', 'demo', 'Zoë "Z"', 'a\\b', 'line\nbreak', '\u2028', '\ud83d', '😀']) expect(jsonString(s)).toBe(JSON.stringify(s));
});

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), minLength: min, maxLength: max });
const decimal = fc
  .tuple(fc.constantFrom('', '-'), digits(1, 20), fc.option(digits(0, 8)))
  .map(([sign, int, frac]) => `${sign}${int}${frac === null ? '' : `.${frac}`}`);

it('drops the trailing zeros of a decimal and nothing else', () => {
  fc.assert(
    fc.property(decimal, (v) => {
      const t = trimDecimal(v);
      if (!v.includes('.')) expect(t).toBe(v);
      else if (/^-0\.?0*$/.test(v)) expect(t).toBe('0');
      else {
        // What is left is the start of the decimal, and what went were only zeros and the point they followed.
        expect(t).toMatch(/^-?\d+(\.\d*[1-9])?$/);
        expect(v.startsWith(t)).toBe(true);
        expect(v.slice(t.length)).toMatch(/^\.?0*$/);
      }
    }),
    { numRuns: 5000 },
  );
  expect(['12.50000000', '3.0000', '0.0000', '-0.0000', '-4.2500', '100', '10.01', '2000.'].map(trimDecimal)).toEqual([
    '12.5',
    '3',
    '0',
    '0',
    '-4.25',
    '100',
    '10.01',
    '2000',
  ]);
});
