import { sweepPendingDeliveries } from '#events/sweeper';

/** Schedule (EventBridge on AWS, a timer locally) → pending deliveries whose message was lost are enqueued again. */
export const handler = async (): Promise<{ found: number; rearmed: number }> => sweepPendingDeliveries();
