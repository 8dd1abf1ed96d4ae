/**
 * Files that belong to orders: orders name files on their lines (shared/files/line-files.ts), so
 * files do not read orders; where a file's rule needs its order — attaching a file to an order, an
 * order's files, deleting a file while its order is in production — this layer reads the order
 * and hands the files' rules its facts.
 */
import type { Principal, Tenant } from '#shared/auth/principal';
import type { MultipartFile, OrderFacts } from '#shared/files/service';
import * as files from '#shared/files/service';
import type { FileUpload, FileView } from '#shared/files/schema';
import { readOrder } from '#shared/orders/repository';

type Caller = Pick<Principal, 'kind' | 'customerId' | 'plan'>;

/** The facts of the tenant's order `id`, or undefined when it has none. */
export async function orderFacts(tenant: Tenant, id: number): Promise<OrderFacts | undefined> {
  const order = await readOrder(tenant, id);
  return (
    order && {
      id: order.id,
      order_number: order.order_number,
      status: order.status,
      customer_id: order.customer.id,
      file_ids: order.items.flatMap((line) => line.file_ids),
    }
  );
}

const factsOf = (tenant: Tenant, id: number | undefined) => (id === undefined ? Promise.resolve(undefined) : orderFacts(tenant, id));

/** `POST /v1/files`: the upload, for an order of the caller's when it names one. */
export const uploadFile = async (tenant: Tenant, caller: Caller, upload: MultipartFile): Promise<FileView> =>
  files.uploadFile(tenant, caller, upload, await factsOf(tenant, upload.orderId));

/** `POST /v1/files/uploads`: a presigned upload, for an order of the caller's when it names one. */
export const startUpload = async (tenant: Tenant, caller: Caller, input: FileUpload) =>
  files.startUpload(tenant, caller, input, await factsOf(tenant, input.order_id));

/** `GET /v1/orders/{id}/files`. */
export const orderFiles = async (tenant: Tenant, caller: Caller, orderId: number): Promise<FileView[]> =>
  files.orderFiles(tenant, caller, orderId, await orderFacts(tenant, orderId));

/** `DELETE /v1/files/{id}`. */
export const deleteFile = (tenant: Tenant, caller: Caller, id: number) =>
  files.deleteFile(tenant, caller, id, (orderId) => orderFacts(tenant, orderId));
