/**
 * The gateway's coarse backstop: one API Gateway usage plan per tier (shared/accounts/plans.ts),
 * throttled so that it never refuses what the tier's per-minute figure allows, and one without a
 * throttle of its own for figures above the last tier. Every account has four usage keys, one per
 * mode and key kind, each in the tier its figure needs (the accounts CLI creates and moves them:
 * scripts/aws/usage-keys.ts); the authorizer returns the key of the caller's mode and kind, and
 * the API reads keys from the authorizer. The exact per-minute limits are counted in DynamoDB by
 * the handlers.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import { USAGE_TIERS, usagePlanName, usagePlanThrottle, type UsageTier } from '#shared/accounts/plans';
import type { StageConfig } from './stages';

/**
 * Construct ids of the tiers that equal the three plans' figures: the usage plans that held each
 * plan's accounts before tiers existed keep their logical ids (and so their registered keys)
 * across the upgrade, until `accounts -- sync-usage-keys` gives every account its four keys.
 */
const keptIds: Partial<Record<UsageTier, string>> = { 100: 'UsagePlanStarter', 500: 'UsagePlanProfessional', 1000: 'UsagePlanEnterprise' };

export const ALL_TIERS: readonly UsageTier[] = [...USAGE_TIERS, 'unthrottled'];

export function addUsagePlans(scope: Construct, api: apigw.RestApi, stage: StageConfig): Map<UsageTier, apigw.UsagePlan> {
  const created = new Map<UsageTier, apigw.UsagePlan>();
  for (const tier of ALL_TIERS) {
    const id = keptIds[tier] ?? (tier === 'unthrottled' ? 'UsagePlanUnthrottled' : `UsagePlanTier${tier}`);
    created.set(
      tier,
      new apigw.UsagePlan(scope, id, {
        name: usagePlanName(stage.name, tier),
        description:
          tier === 'unthrottled'
            ? 'Usage keys above the last tier: only the stage throttle applies'
            : `Usage keys of figures up to ${tier} requests per minute (counted exactly by the handlers)`,
        ...(tier === 'unthrottled' ? {} : { throttle: usagePlanThrottle(tier) }),
        apiStages: [{ api, stage: api.deploymentStage }],
      }),
    );
  }
  return created;
}
