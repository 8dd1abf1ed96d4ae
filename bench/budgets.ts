/**
 * The deterministic performance budgets, checked in CI: bundle size per handler, and DynamoDB
 * calls per request per route (the median over the successful requests the integration tests
 * make — retries under deliberate contention raise a maximum, not the typical request).
 * Timing budgets live in the benchmark only (docs/performance.md).
 */
import { routes } from '#shared/routes';

/**
 * 350 KiB until customer tokens, files and carts: the guard's customer checks (every bundle) and the
 * file checks of order lines (the order writers) took the order functions 2–4 KiB past it; 360 until
 * order lines' customs fields (docs/shipping.md#customs) and proofs (an order's confirmation reads
 * its lines' approval markers and marks the jobs that wait for a proof) took orders.update from
 * 359.9 to about 363 KiB; 365 until tax categories and treatments (the checkout and the order
 * writers derive the sale's treatment: orders.update 369.2, carts.checkout 367.4 KiB). Most of a
 * bundle is zod (93 KiB) and the SDK; the next step is zod's `zod/mini` API (docs/performance.md).
 */
export const BUNDLE_BUDGET_KIB = 370;
/**
 * The functions that render invoice documents (routes flagged `documents`: the PDF, the XML, sending)
 * carry the renderers: pdfkit, the e-invoice library with its PDF/A writer, and two embedded
 * TrueType fonts (1.6 MiB of the figure, as base64). They load them only when a document is not
 * in S3 yet (docs/invoices-rendering.md); every other function stays within BUNDLE_BUDGET_KIB.
 */
export const DOCUMENT_BUNDLE_BUDGET_KIB = 4200;
/**
 * The functions that send mail (routes flagged `mail`) carry nodemailer's MIME composer and the SES
 * client (about 220 KiB, docs/mail.md); a mail route that also renders documents has the document
 * budget.
 */
export const MAIL_BUNDLE_BUDGET_KIB = 600;
/**
 * The functions that sign customer access tokens (routes flagged `signsTokens`: login, refresh)
 * carry jose's signing and key generation, the envelope encryption and the KMS client that open the
 * private key (about 30 KiB together); every other function verifies nothing or only in the authorizer.
 */
export const SIGNER_BUNDLE_BUDGET_KIB = 380;
/**
 * The functions that work with the files bucket (routes flagged `files`) carry the S3 client with
 * its request presigner and presigned-POST builder (about 200 KiB), and the upload the multipart
 * parser; the others never load S3.
 */
export const FILES_BUNDLE_BUDGET_KIB = 600;
/**
 * The file preflight worker (`worker.FilePreflight`, docs/files.md#preflight) carries pdf-lib to
 * read PDFs: its parser with the document API, which brings the standard fonts' metrics and the
 * PNG codec it cannot leave out (about 510 KiB of pdf-lib together), and the S3 client to read the
 * object: 890 KiB measured. It runs off the request path, where a larger cold start costs no client.
 */
export const PREFLIGHT_BUNDLE_BUDGET_KIB = 1000;
/** Workers with a budget of their own, by bundle id. */
const WORKER_BUNDLE_BUDGETS_KIB: Record<string, number> = { 'worker.FilePreflight': PREFLIGHT_BUNDLE_BUDGET_KIB };

/** The bundle budget of a function by its id (a route id, `worker.<id>`, `authorizer`, `audit.ship`). */
export function bundleBudgetOf(id: string): number {
  const route = routes.find((candidate) => candidate.id === id);
  if (route?.documents) return DOCUMENT_BUNDLE_BUDGET_KIB;
  if (route?.mail) return MAIL_BUNDLE_BUDGET_KIB;
  if (route?.signsTokens) return SIGNER_BUNDLE_BUDGET_KIB;
  if (route?.files) return FILES_BUNDLE_BUDGET_KIB;
  return WORKER_BUNDLE_BUDGETS_KIB[id] ?? BUNDLE_BUDGET_KIB;
}

/** Calls per request a route may typically make; routes not listed get the default. */
export const DEFAULT_CALLS_BUDGET = 4;
export const CALLS_BUDGET: Record<string, number> = {
  // Reads that also resolve a related record or a list page (index query + batch get + total).
  // Customers also read the account (the seller's country) and the page's default billing
  // addresses (one BatchGetItem): their tax treatment.
  'customers.list': 5,
  'products.list': 4,
  'orders.list': 5,
  // Cursor lists: one Query of the page (+ one BatchGetItem of its items for the events).
  'audit.list': 1,
  'events.list': 2,
  'events.get': 1,
  // The registration, the page's keys and items, and the total counted up to TOTAL_CAP keys.
  'webhooks.deliveries': 4,
  // The page's keys, its items and the total; a due-date bound reads one key range per priority
  // (up to 4 Queries, 4 counts and the BatchGetItem: 9), an order's jobs are 2 reads.
  'jobs.list': 4,
  // The machine, then its running job and its scheduled jobs' keys and items.
  'machines.queue': 3,
  // The job, the machines it leaves or starts on (one BatchGetItem), its order when the move
  // starts or closes it (a move to printing also its line's proof approval marker), and one transaction.
  'jobs.setStatus': 4,
  // Proofs (docs/proofs.md). Creation: an id, the order, then at once the document file, the lines'
  // approval markers and the order's jobs, the proofs they supersede, one transaction.
  'proofs.create': 7,
  // A decision: the proof with its record (one BatchGetItem), for an approval the order, the lines'
  // markers and their jobs, one transaction.
  'proofs.approve': 5,
  'proofs.requestChanges': 2,
  // The order and the page (keys, items, the count), the decision records.
  'proofs.list': 5,
  'proofs.get': 1,
  'proofs.revokeLink': 2,
  // The link, the proof with its record, then at once the order, the document file and the account (its settings too).
  'proof-links.get': 6,
  // The link, the decision (as proofs.approve), then the view (as proof-links.get).
  'proof-links.approve': 11,
  'proof-links.requestChanges': 8,
  // Writes: id allocation + one transaction (+ reads they need to validate against).
  'orders.create': 7,
  'orders.update': 6,
  // A line's artwork: the order, the files (one BatchGetItem), the line's approval marker, the
  // order's jobs (one BatchGetItem), one transaction.
  'orders.replaceLineFiles': 5,
  // The account (seller details), the order with its invoice mark (one BatchGetItem) or the
  // customer with addresses, the customer's details, an id, a ticket for the number's turn, the
  // number counter (its turn, strongly consistent), one transaction: 7 alone. Queued behind other
  // creates of the tenant, a create reads the counter a few times more while it waits
  // (shared/db/gap-free.ts: about log(place) + 3); the integration tests' bursts of 50 and 40
  // concurrent creates (test/integration/gap-free-numbers.test.ts) are about half of the creates
  // they make, so the median sits at 9–11.
  'invoices.create': 11,
  // The invoice, one transaction (a few more when payments race: each loser reads again).
  'invoices.pay': 2,
  'invoices.void': 2,
  // The invoice, the documents (in S3, not DynamoDB), one transaction.
  'invoices.send': 2,
  // The page's keys, its items and the total (a counter, or counted on the keys-only index); a page
  // by cursor reads its cursor invoice first (one GetItem), as the products' and customers' lists do.
  // A customer's list reads the customer too — with the cursor invoice, one BatchGetItem.
  'invoices.list': 4,
  'customers.invoices': 4,
  // A ticket, the number counter, in its turn the invoice (strongly consistent) and an id, one
  // transaction (credit note, number, invoice, events): 5 alone; more while queued, as
  // invoices.create (the tests' twenty at once on one invoice).
  'credit-notes.create': 11,
  // The credit note and its invoice, one transaction.
  'credit-notes.refund': 3,
  // The customer with addresses, the products, the account; an id, a ticket, the number counter,
  // one transaction: 7 alone; more while queued, as invoices.create (a burst of 30 in the tests).
  'quotes.create': 11,
  // The quote, its products (stock), the order's id and number, one transaction (quote, order, stock, events).
  'quotes.accept': 5,
  'quotes.update': 3,
  'quotes.reject': 2,
  'quotes.list': 3,
  'customers.quotes': 4,
  // The order with its shipping summary (one BatchGetItem), an id, the reservation's transaction and
  // the recording one; in live mode also the carrier settings and the account (the sender's address).
  'shipments.create': 6,
  // A status change: the shipment, the order with its summary (one BatchGetItem), one transaction;
  // the callback first finds the tenant's settings and the parcel's shipment, a cancel or a live
  // tracking refresh the carrier settings.
  'carriers.sendcloudWebhook': 5,
  'shipments.cancel': 5,
  'shipments.tracking': 5,
  'shipments.simulate': 4,
  // Customer accounts: the email's owner, its login, the lockout count, the session's family and token,
  // the signing keys (cached 5 minutes), the customer. A registration reads the owner and the login and
  // writes one code (+ 2 with an Idempotency-Key); its confirmation reads the code and the owner, then
  // either takes a customer id and writes one transaction (code, customer, marker, total, event,
  // login) or writes one (code, login, marker check) and reads the customer for the answer.
  'auth.register': 5,
  'auth.registerConfirm': 6,
  'auth.login': 8,
  'auth.refresh': 3,
  // The code, then one transaction: its use and the login's new password with its generations moved
  // (+ 2 with an Idempotency-Key: its record's put and completion).
  'auth.passwordResetConfirm': 4,
  // The login, then its one conditional update (new hash, generations moved) however many sessions
  // end (+ 2 with an Idempotency-Key).
  'auth.password': 4,
  // Carts (docs/carts.md): the cart (one GetItem), everything its lines name with the account (one
  // BatchGetItem; a replaced legacy table a second one), one conditional Put. A write answered with a
  // legacy line's missing cell also lists the cells priced (one Query). Merge reads both carts at once
  // and writes one transaction. Checkout: the cart, then the order's own creation (customer ∥ products
  // ∥ account, its id and number, one transaction with the cart's close): 7; a guest's customer is not
  // read but made with the order (its id, and its put in that transaction): 7 too. The concurrent
  // checkouts of one cart that lose to the first did all of that, then read the cart again and answer
  // the winner's order — the integration tests make ten of those, so they set the median.
  'carts.create': 3,
  'carts.get': 2,
  'carts.addItem': 3,
  'carts.updateItem': 3,
  'carts.removeItem': 3,
  'carts.checkout': 13,
  'cart.get': 2,
  'cart.addItem': 3,
  'cart.updateItem': 3,
  'cart.removeItem': 3,
  'cart.merge': 3,
  'cart.checkout': 7,
  // Uploads: the day's upload quota counter (one conditional ADD), the file id, the record (and the
  // order, when the file is for one). Completing: the file, its hold and its ready (or handed-over) write.
  'files.upload': 4,
  'files.createUpload': 4,
  'files.complete': 3,
  'legacy-products.create': Number.POSITIVE_INFINITY, // bulk import: one BatchWriteItem per 25 prices
  'legacy-products.prices': Number.POSITIVE_INFINITY,
};

/** No request path may ever scan the table. */
export const FORBIDDEN_COMMANDS = ['Scan', 'ParallelScan'];

export const callsBudget = (routeId: string): number => CALLS_BUDGET[routeId] ?? DEFAULT_CALLS_BUDGET;

export function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
}
