import { sweepStagedPriceVersions, type PriceSweepResult } from '#shared/legacy-products/sweeper';

/** Schedule (EventBridge on AWS, a timer locally) → legacy price versions abandoned for over an hour are removed. */
export const handler = async (): Promise<PriceSweepResult> => sweepStagedPriceVersions();
