/** Money on screen (spec §3 Currency, §5): exact conversion, US grouping, the currency's digits and symbol side. */
import { describe, expect, it } from 'vitest';
import { convertAmount, formatDecimal, formatMoney, isNumericText, truncateDecimal } from '../../src/lib/money';
import { type Currency } from '../../src/schemas/common.schema';
import { DEFAULT_CURRENCY } from '../../src/schemas/values.schema';

const currency = (over: Partial<Currency>): Currency => ({ ...DEFAULT_CURRENCY, ...over });
const EUR = currency({ id: 2, code: 'EUR', name: 'Euro', symbol: '€', value: '0.92' });
const INR = currency({ id: 3, code: 'INR', name: 'Indian Rupee', symbol: '₹', value: '83.2' });
const SEK = currency({ id: 4, code: 'SEK', name: 'Swedish Krona', symbol: 'kr', symbol_position: 'R', value: '10.6' });
const JPY = currency({ id: 5, code: 'JPY', name: 'Yen', symbol: '¥', decimal_place: 0, value: '1' });
const KWD = currency({ id: 6, code: 'KWD', name: 'Kuwaiti Dinar', symbol: 'KD', decimal_place: 3, value: '1' });

describe('formatMoney', () => {
  it.each([
    ['1234.5', '$1,234.50'],
    ['0', '$0.00'],
    ['1000000', '$1,000,000.00'],
    ['999.999', '$1,000.00'],
    ['12.3456', '$12.35'],
    ['.5', '$0.50'],
    ['5.', '$5.00'],
    ['+7', '$7.00'],
    ['-5', '-$5.00'],
    ['-1234.567', '-$1,234.57'],
    ['  42.1  ', '$42.10'],
  ])('USD (the default) %s → %s', (amount, shown) => {
    expect(formatMoney(amount)).toBe(shown);
    expect(formatMoney(amount, DEFAULT_CURRENCY)).toBe(shown);
  });

  it.each([[undefined], [null], [''], ['abc'], ['12.3.4'], ['1e3'], ['1,000'], ['$5'], [Number.NaN], [Number.POSITIVE_INFINITY], [{}], [[]], [true]])(
    'a missing or non-numeric amount (%s) counts as 0',
    (amount) => {
      expect(formatMoney(amount)).toBe('$0.00');
      expect(formatMoney(amount, SEK)).toBe('0.00 kr');
    },
  );

  it('puts a right-hand symbol after the amount, and the minus sign in front', () => {
    expect(formatMoney('100', SEK)).toBe('1,060.00 kr');
    expect(formatMoney('-100', SEK)).toBe('-1,060.00 kr');
  });

  it('writes exactly decimal_place fraction digits: 0 and 3', () => {
    expect(formatMoney('1234.5', JPY)).toBe('¥1,235');
    expect(formatMoney('1234.49', JPY)).toBe('¥1,234');
    expect(formatMoney('1.2345', KWD)).toBe('KD1.235');
    expect(formatMoney('7', KWD)).toBe('KD7.000');
    expect(formatMoney('-0.0004', KWD)).toBe('KD0.000');
  });

  it('converts with the rate exactly, without float error', () => {
    expect(formatMoney('100', EUR)).toBe('€92.00');
    expect(formatMoney('19.99', INR)).toBe('₹1,663.17'); // 1663.168
    expect(formatMoney('1.005')).toBe('$1.01'); // a float rounds this down to 1.00
    expect(formatMoney('0.1', currency({ value: '3' }))).toBe('$0.30');
    expect(formatMoney('1000000', currency({ value: '0.00012345', decimal_place: 4 }))).toBe('$123.4500');
    expect(formatMoney('12345678901234567.89')).toBe('$12,345,678,901,234,567.89');
    expect(convertAmount('19.99', '83.2')).toBe('1663.168');
    expect(convertAmount('abc', '83.2')).toBe('0.0');
    expect(convertAmount('2.5', 'not a rate')).toBe('2.5');
  });

  it('accepts numbers as the decimals they print as', () => {
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
    expect(formatMoney(1e21)).toBe('$1,000,000,000,000,000,000,000.00');
    expect(formatMoney(-2.5)).toBe('-$2.50');
  });

  it('takes fraction digits, symbol and conversion options', () => {
    expect(formatMoney('1234.5678', DEFAULT_CURRENCY, { decimals: 3 })).toBe('$1,234.568');
    expect(formatMoney('1234.5', DEFAULT_CURRENCY, { decimals: 0 })).toBe('$1,235');
    expect(formatMoney('1234.5', EUR, { withoutSymbol: true })).toBe('1,135.74');
    expect(formatMoney('1234.5', EUR, { converted: true })).toBe('€1,234.50');
  });

  it('falls back to the default currency when none is known', () => {
    expect(formatMoney('3', null)).toBe('$3.00');
    expect(formatMoney('3', undefined)).toBe('$3.00');
  });

  it('groups like US English number formatting', () => {
    const intl = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let k = 0; k < 300; k++) {
      const int = Math.floor(rnd() * 10 ** Math.floor(rnd() * 12));
      const cents = Math.floor(rnd() * 100);
      const text = `${rnd() < 0.2 ? '-' : ''}${int}.${String(cents).padStart(2, '0')}`;
      expect(formatMoney(text, currency({ symbol: '' }))).toBe(intl.format(Number(text)).replace(/^-0\.00$/, '0.00'));
    }
  });
});

describe('truncateDecimal', () => {
  it.each([
    ['12.3456', 2, '12.34'],
    ['12.3499', 2, '12.34'],
    ['-12.3456', 2, '-12.34'],
    ['12.3', 2, '12.3'],
    ['12', 2, '12'],
    ['9.99', 0, '9'],
    ['0.0001', 2, '0.00'],
    ['-0.001', 2, '0.00'],
    ['abc', 2, '0'],
    [null, 2, '0'],
  ])('%s to %i decimals → %s', (value, n, out) => {
    expect(truncateDecimal(value, n)).toBe(out);
  });
});

describe('formatDecimal and isNumericText', () => {
  it('formats volumes with grouping and a fixed number of digits', () => {
    expect(formatDecimal('48650.0000')).toBe('48,650');
    expect(formatDecimal('1234.5678', 2)).toBe('1,234.57');
    expect(formatDecimal('x', 2)).toBe('0.00');
  });

  it('follows the numeric-text rule of spec §5', () => {
    for (const ok of ['1', '-1', '+1', '1.', '.5', '0.25', ' 3 ']) expect(isNumericText(ok)).toBe(true);
    for (const bad of ['', '.', '-', '1e3', '1,0', 'abc', '1.2.3']) expect(isNumericText(bad)).toBe(false);
    expect(isNumericText(5)).toBe(false);
  });
});
