/**
 * The warm-latency section: the deployed bundles of GET /v1/customers/{id}, GET /v1/products/{id}
 * and POST /v1/orders invoked in-process with real API Gateway events (the authorizer's context
 * included, so the rate limiter and the audit line run) against DynamoDB Local in memory, each
 * interleaved in blocks with its floor — the same DynamoDB call made raw on the same client
 * settings (GetItem; for the order, one TransactWriteItems of the same size).
 */
import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { pathToFileURL } from 'node:url';
import type { Principal } from '#shared/auth/principal';
import { apiEvent, benchContext, measure, type LatencyFigure, type ProxyHandler } from './latency';

type Item = Record<string, unknown>;

async function loadBundle(file: string): Promise<ProxyHandler> {
  return (await import(pathToFileURL(file).href)).handler as ProxyHandler;
}

export async function benchWarmLatency(bundleFile: (id: string) => string): Promise<LatencyFigure[]> {
  const { createAccount, resolveApiKey, setPlan } = await import('#shared/accounts/service');
  const { createCustomer } = await import('#shared/customers/service');
  const { createProduct } = await import('#shared/products/service');
  const { dynamo, dynamoBase } = await import('#shared/clients/dynamodb');
  const { tenantKeys } = await import('#shared/db/keys');
  const { tableName } = await import('#shared/db/table');

  const created = await createAccount({ name: 'Bench Shop', plan: 'enterprise' });
  // A very high custom limit: the limiter still runs (one reservation per 50 requests).
  await setPlan(created.account.id, 'enterprise', 10_000_000);
  const resolution = await resolveApiKey(created.keys.secret_test.key);
  if (resolution.status !== 'ok') throw new Error('bench key does not resolve');
  const principal: Principal = resolution.principal;
  const tenant = { accountId: principal.accountId, mode: principal.mode };
  const customer = await createCustomer(tenant, { name: 'Bench Customer', email: 'bench@example.com' });
  const { ProductCreateSchema } = await import('#shared/products/schema');
  const product = await createProduct(
    tenant,
    ProductCreateSchema.parse({
      name: 'Flyer A5',
      category: 'flyers',
      min_qty: 1,
      unit: 'piece',
      base_price: 0.2,
      price_tiers: [],
      options: [],
      setup_fee: 0,
      production_days: 2,
      stock: { tracked: false, quantity: 0, low_threshold: 0 },
    }),
  );

  const figures: LatencyFigure[] = [];
  const getCustomer = await loadBundle(bundleFile('customers.get'));
  figures.push(
    await measure(
      'GET /v1/customers/{id}',
      async () => {
        const result = await getCustomer(
          apiEvent(principal, 'GET', '/v1/customers/{id}', `/v1/customers/${customer.id}`, { id: String(customer.id) }),
          benchContext('customers.get'),
        );
        if (result.statusCode !== 200) throw new Error(result.body);
      },
      () => dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.customer(tenant, customer.id) })),
    ),
  );

  const getProduct = await loadBundle(bundleFile('products.get'));
  const productKey = tenantKeys.product(tenant, product.id);
  figures.push(
    await measure(
      'GET /v1/products/{id}',
      async () => {
        const result = await getProduct(
          apiEvent(principal, 'GET', '/v1/products/{id}', `/v1/products/${product.id}`, { id: String(product.id) }),
          benchContext('products.get'),
        );
        if (result.statusCode !== 200) throw new Error(result.body);
      },
      () => dynamo().send(new GetCommand({ TableName: tableName(), Key: productKey })),
    ),
  );

  // The floor of an order: one TransactWriteItems with as many items, of the same sizes, as an
  // order's own transaction (captured from this process's SDK client on an order created with
  // the domain function; the bundle has its own client).
  const createOrderHandler = await loadBundle(bundleFile('orders.create'));
  const orderBody = { customer_id: customer.id, items: [{ product_id: product.id, quantity: 500 }] };
  let captured: TransactWriteCommandInput['TransactItems'] | undefined;
  dynamoBase().middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { TransactItems?: TransactWriteCommandInput['TransactItems'] };
      if (input.TransactItems && !captured) captured = input.TransactItems;
      return next(args);
    },
    { step: 'initialize', name: 'benchCaptureTransaction' },
  );
  const postOrder = async () => {
    const result = await createOrderHandler(
      apiEvent(principal, 'POST', '/v1/orders', '/v1/orders', null, orderBody),
      benchContext('orders.create'),
    );
    if (result.statusCode !== 201) throw new Error(result.body);
  };
  const { createOrder } = await import('#shared/orders/service');
  const { OrderCreateSchema } = await import('#shared/orders/schema');
  await createOrder(tenant, OrderCreateSchema.parse(orderBody));
  const template = captured ?? [];
  if (template.length === 0) throw new Error('could not capture the order transaction');
  let counter = 0;
  const floorTransaction = () => {
    counter++;
    const items = template.map((entry, index) => {
      const put = entry.Put?.Item ?? entry.Update?.Key ?? entry.ConditionCheck?.Key ?? { pk: 'x', sk: 'x' };
      return { Put: { TableName: tableName(), Item: { ...(put as Item), pk: `BENCH#${counter}#${index}`, sk: 'FLOOR' } } };
    });
    return dynamo().send(new TransactWriteCommand({ TransactItems: items }));
  };
  const order = await measure('POST /v1/orders', postOrder, floorTransaction, { blocks: 10, perBlock: 20, warmup: 40 });
  figures.push({ ...order, name: `POST /v1/orders (transaction of ${template.length} items)` });
  return figures;
}
