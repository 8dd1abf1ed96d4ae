import { describe, expect, it } from 'vitest';
import { divideHalfUp, formatMinor, fromMinor, hasAtMostDecimals, toMinor } from '#shared/money';
import { taxOn } from '#shared/pricing/tax';
import { moneyInput } from '#shared/schemas/money';

describe('money', () => {
  it('converts 2-decimal amounts to minor units exactly, including ones binary floats cannot hold', () => {
    expect(toMinor(0.29)).toBe(29);
    expect(toMinor(12.34)).toBe(1234);
    expect(toMinor(1.1)).toBe(110);
    expect(toMinor(0)).toBe(0);
    expect(toMinor(-0.05)).toBe(-5);
    expect(toMinor(999999.99)).toBe(99999999);
    expect(fromMinor(1234)).toBe(12.34);
    expect(fromMinor(29)).toBe(0.29);
  });

  it('refuses more than 2 decimals instead of rounding', () => {
    expect(hasAtMostDecimals(1.005, 2)).toBe(false);
    expect(hasAtMostDecimals(0.001, 2)).toBe(false);
    expect(hasAtMostDecimals(Number.NaN, 2)).toBe(false);
    expect(hasAtMostDecimals(1.15, 4)).toBe(true);
    expect(() => toMinor(1.005)).toThrow(RangeError);
    expect(() => fromMinor(1.5)).toThrow(RangeError);
  });

  it('rounds half up, not half to even', () => {
    expect(divideHalfUp(5n, 10n)).toBe(1n);
    expect(divideHalfUp(15n, 10n)).toBe(2n);
    expect(divideHalfUp(25n, 10n)).toBe(3n);
    expect(divideHalfUp(24n, 10n)).toBe(2n);
    expect(divideHalfUp(0n, 7n)).toBe(0n);
    expect(() => divideHalfUp(-1n, 2n)).toThrow(RangeError);
  });

  it('computes tax half-up on the whole amount, with fractional rates', () => {
    expect(taxOn(1000, 19)).toBe(190);
    expect(taxOn(36500, 19)).toBe(6935);
    expect(taxOn(1, 50)).toBe(1); // 0.5 → 1
    expect(taxOn(1000, 7.7)).toBe(77);
    expect(taxOn(1234, 8.25)).toBe(102); // 101.805 → 102
    expect(taxOn(999, 0)).toBe(0);
  });

  it('formats minor units as exact decimal text', () => {
    expect(formatMinor(1234)).toBe('12.34');
    expect(formatMinor(5)).toBe('0.05');
    expect(formatMinor(-205)).toBe('-2.05');
  });

  it('validates request amounts as numbers with at most 2 decimals and turns them into minor units', () => {
    expect(moneyInput().parse(19.99)).toBe(1999);
    expect(moneyInput().safeParse(19.999).error?.issues[0]?.message).toBe('must have at most 2 decimals');
    expect(moneyInput().safeParse(-1).success).toBe(false);
    expect(moneyInput({ allowNegative: true }).parse(-0.5)).toBe(-50);
    expect(moneyInput().safeParse('12').success).toBe(false);
    expect(moneyInput().safeParse(1e12).success).toBe(false);
  });
});
