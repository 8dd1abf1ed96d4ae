import { describe, expect, it } from 'vitest';
import {
  deliveryStatusView,
  displayStatus,
  isDeliveryStatus,
  isInFlight,
  statusCodeView,
  statusFilterOptions,
  statusView,
} from '#admin/lib/delivery-status';

describe('admin delivery status', () => {
  it('splits pending into pending (not tried) and retrying (tried, more to come)', () => {
    expect(displayStatus({ status: 'pending', attempt_count: 0 })).toBe('pending');
    expect(displayStatus({ status: 'pending', attempt_count: 2 })).toBe('retrying');
    expect(displayStatus({ status: 'succeeded', attempt_count: 1 })).toBe('succeeded');
    expect(displayStatus({ status: 'failed', attempt_count: 8 })).toBe('failed');
    expect(displayStatus({ status: 'skipped', attempt_count: 0 })).toBe('skipped');
  });

  it('gives every status a label, a symbol and a tone, never colour alone', () => {
    const keys = ['pending', 'retrying', 'succeeded', 'failed', 'skipped'] as const;
    for (const key of keys) {
      const view = statusView(key);
      expect(view.label.length).toBeGreaterThan(0);
      expect(view.symbol.length).toBeGreaterThan(0);
      expect(view.description).toMatch(/\.$/);
    }
    expect(new Set(keys.map((key) => statusView(key).symbol)).size).toBe(keys.length);
    expect(deliveryStatusView({ status: 'pending', attempt_count: 3 })).toMatchObject({ label: 'Retrying', tone: 'warning' });
    expect(deliveryStatusView({ status: 'failed', attempt_count: 8 })).toMatchObject({ label: 'Failed', tone: 'danger' });
  });

  it('keeps refreshing only while a delivery is pending', () => {
    expect(isInFlight({ status: 'pending' })).toBe(true);
    for (const status of ['succeeded', 'failed', 'skipped'] as const) expect(isInFlight({ status })).toBe(false);
  });

  it('filters by the API’s statuses only', () => {
    expect(statusFilterOptions.map((option) => option.value)).toEqual(['', 'succeeded', 'pending', 'failed', 'skipped']);
    expect(isDeliveryStatus('pending')).toBe(true);
    expect(isDeliveryStatus('retrying')).toBe(false);
  });

  it('colours HTTP status codes by class and names a missing answer', () => {
    expect(statusCodeView(200)).toEqual({ text: '200', tone: 'success' });
    expect(statusCodeView(204)).toEqual({ text: '204', tone: 'success' });
    expect(statusCodeView(301)).toEqual({ text: '301', tone: 'warning' });
    expect(statusCodeView(500)).toEqual({ text: '500', tone: 'danger' });
    expect(statusCodeView(null)).toEqual({ text: 'No response', tone: 'danger' });
  });
});
