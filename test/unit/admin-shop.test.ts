/**
 * The admin panel's shop's-day rules: the moves it offers come from the API's own transition
 * tables, order and invoice filters in the address, and an order's events and status history.
 */
import { describe, expect, it } from 'vitest';
import { invoiceFiltersQuery, orderFiltersQuery, parseInvoiceFilters, parseOrderFilters } from '#admin/lib/routes';
import { describeEvent, eventOrderId, statusHistory } from '#admin/lib/order-events';
import {
  canMoveJob as panelCanMoveJob,
  formatDate,
  formatMoney,
  invoiceStatusView,
  isOverdueDate,
  jobActionLabel,
  ORDER_TRANSITIONS as panelOrderTransitions,
  SHIPMENT_TRANSITIONS as panelShipmentTransitions,
} from '#admin/lib/shop-status';
import { TRANSITIONS } from '#shared/orders/status';
import { canMoveJob } from '#shared/production/status';
import { SHIPMENT_TRANSITIONS } from '#shared/shipments/status';

describe('admin shop rules', () => {
  it("offers the moves of the API's own tables (the panel imports them, no copies)", () => {
    expect(panelOrderTransitions).toBe(TRANSITIONS);
    expect(panelCanMoveJob).toBe(canMoveJob);
    expect(panelShipmentTransitions).toBe(SHIPMENT_TRANSITIONS);
    expect(jobActionLabel('failed', 'queued')).toBe('Reprint');
    expect(jobActionLabel('on_hold', 'printing')).toBe('Resume (printing)');
    expect(jobActionLabel('queued', 'scheduled')).toBe('Schedule');
  });

  it('keeps order filters and the cursor in the address, dropping what is invalid', () => {
    expect(parseOrderFilters('?status=ready&customer=7&from=2026-11-01&to=2026-11-30&after=120')).toEqual({
      status: 'ready',
      customer_id: 7,
      created_from: '2026-11-01',
      created_to: '2026-11-30',
      after: 120,
    });
    expect(parseOrderFilters('?status=shipping&customer=x&from=2026-13-45&after=0')).toEqual({});
    expect(orderFiltersQuery({ status: 'pending', after: 9 })).toBe('?status=pending&after=9');
    expect(orderFiltersQuery({})).toBe('');
  });

  it('keeps invoice filters in the address; overdue stands alone, as the API wants', () => {
    expect(parseInvoiceFilters('?status=sent&page=2')).toEqual({ status: 'sent', page: 2 });
    expect(parseInvoiceFilters('?status=sent&overdue=1')).toEqual({ overdue: true, page: 1 });
    expect(parseInvoiceFilters('?status=late')).toEqual({ page: 1 });
    expect(invoiceFiltersQuery({ overdue: true, page: 1 })).toBe('?overdue=1');
  });

  it('shows overdue in words and colour, dates and money', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(isOverdueDate('2026-11-20', now)).toBe(true);
    expect(isOverdueDate('2026-11-21', now)).toBe(false);
    expect(isOverdueDate(null, now)).toBe(false);
    expect(invoiceStatusView({ status: 'sent', overdue: true }).label).toBe('Overdue');
    expect(invoiceStatusView({ status: 'paid', overdue: false }).label).toBe('Paid');
    expect(formatDate('2026-12-01')).toBe('1 Dec 2026');
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,234.50');
  });

  it('finds the order an event is about, and the order’s status history', () => {
    const order = (status: string) => ({ order: { id: 4, status } });
    expect(eventOrderId({ data: order('pending') })).toBe(4);
    expect(eventOrderId({ data: { production_job: { id: 1, order_id: 4 } } })).toBe(4);
    expect(eventOrderId({ data: { invoice: { id: 2, order_id: 4 } } })).toBe(4);
    expect(eventOrderId({ data: { shipment: { id: 3, order_id: 5 } } })).toBe(5);
    expect(eventOrderId({ data: { customer: { id: 4 } } })).toBeUndefined();
    const events = [
      { id: 'evt_3', type: 'order.updated', created_at: 't3', data: order('in_production') },
      { id: 'evt_1', type: 'order.created', created_at: 't1', data: order('pending') },
      { id: 'evt_2', type: 'order.updated', created_at: 't2', data: order('confirmed') },
      { id: 'evt_4', type: 'order.updated', created_at: 't4', data: order('in_production') },
      { id: 'evt_5', type: 'production.job.created', created_at: 't2', data: { production_job: { id: 1, order_id: 4 } } },
    ] as const;
    expect(statusHistory(events).map((step) => [step.status, step.at])).toEqual([
      ['pending', 't1'],
      ['confirmed', 't2'],
      ['in_production', 't3'],
    ]);
    expect(describeEvent({ type: 'invoice.paid', data: { invoice: { invoice_number: 'INV-2026-000001' } } })).toBe(
      'Invoice INV-2026-000001 paid',
    );
  });
});
