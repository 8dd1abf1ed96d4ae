/**
 * The invoice-documents section: the deployed bundle of GET /v1/invoices/{id}/pdf invoked in-process
 * (with `Accept: application/pdf`) against DynamoDB Local and the S3 emulator — a fresh process's
 * first download (imports the renderer, renders the Factur-X PDF, stores it), then downloads
 * served from the bucket — and the same for a second invoice in the warm process (rendering
 * without the renderer's first import).
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Principal } from '#shared/auth/principal';
import { apiEvent, benchContext, type ProxyHandler } from './latency';
import { distribution, round } from './stats';

export interface DocumentFigures {
  firstRenderColdMs: number;
  renderWarmMs: number;
  cachedDownloadMs: { p50: number; p90: number; max: number };
  pdfBytes: number;
}

export async function benchInvoiceDocuments(bundleFile: (id: string) => string): Promise<DocumentFigures> {
  const { createAccount, resolveApiKey, setPlan, updateAccountSettings } = await import('#shared/accounts/service');
  const { AccountUpdateSchema } = await import('#shared/accounts/schema');
  const { createAddress, createCustomer } = await import('#shared/customers/service');
  const { AddressCreateSchema } = await import('#shared/customers/schema');
  const { createInvoice } = await import('#shared/invoices/service');
  const { InvoiceCreateSchema } = await import('#shared/invoices/schema');

  const created = await createAccount({ name: 'Bench Invoices', plan: 'enterprise' });
  await setPlan(created.account.id, 'enterprise', 10_000_000);
  await updateAccountSettings(
    created.account.id,
    AccountUpdateSchema.parse({
      company: {
        legal_name: 'Bench Druck GmbH',
        address: { name: 'Bench Druck GmbH', line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
        vat_id: 'DE123456789',
        iban: 'DE89370400440532013000',
        email: 'billing@bench.example',
        phone: '+49 30 1234567',
      },
    }),
  );
  const resolution = await resolveApiKey(created.keys.secret_test.key);
  if (resolution.status !== 'ok') throw new Error('bench key does not resolve');
  const principal: Principal = resolution.principal;
  const tenant = { accountId: principal.accountId, mode: principal.mode };
  const customer = await createCustomer(tenant, { name: 'Zofia Łódź-Müller', email: 'bench.invoice@example.com' });
  // An e-invoice needs the buyer's city and post code (BR-DE-8, -9): the default billing address.
  await createAddress(
    tenant,
    customer.id,
    AddressCreateSchema.parse({
      type: 'billing',
      name: 'Zofia Łódź-Müller',
      line1: 'ul. Piotrkowska 104',
      postal_code: '90-006',
      city: 'Łódź',
      country: 'PL',
    }),
  );
  const items = Array.from({ length: 20 }, (_, index) => ({ description: `Flyer A5, run ${index + 1}`, quantity: 500, unit_price: 0.12 }));
  const invoices = [
    await createInvoice(tenant, InvoiceCreateSchema.parse({ customer_id: customer.id, items })),
    await createInvoice(tenant, InvoiceCreateSchema.parse({ customer_id: customer.id, items })),
  ];

  const pdf = (await import(pathToFileURL(bundleFile('invoices.pdf')).href)).handler as ProxyHandler;
  const download = async (id: number): Promise<{ ms: number; bytes: number }> => {
    const event = apiEvent(principal, 'GET', '/v1/invoices/{id}/pdf', `/v1/invoices/${id}/pdf`, { id: String(id) });
    event.headers.Accept = 'application/pdf';
    event.headers.accept = 'application/pdf';
    const started = performance.now();
    const result = await pdf(event, benchContext('invoices.pdf'));
    const ms = performance.now() - started;
    if (result.statusCode !== 200 || !result.isBase64Encoded) throw new Error(`pdf: ${result.statusCode} ${result.body.slice(0, 200)}`);
    return { ms, bytes: Buffer.from(result.body, 'base64').length };
  };
  const first = await download(invoices[0]!.id);
  const cached: number[] = [];
  for (let i = 0; i < 30; i++) cached.push((await download(invoices[0]!.id)).ms);
  const warm = await download(invoices[1]!.id);
  const spread = distribution(cached);
  return {
    firstRenderColdMs: round(first.ms),
    renderWarmMs: round(warm.ms),
    cachedDownloadMs: { p50: round(spread.p50), p90: round(spread.p90), max: round(Math.max(...cached)) },
    pdfBytes: first.bytes,
  };
}
