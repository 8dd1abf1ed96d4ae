/**
 * One API Gateway usage plan per plan, throttled from its per-minute figure — the coarse
 * backstop at the edge; the exact per-minute limit is counted in DynamoDB by the handlers. The
 * authorizer returns each account's usage identifier key (created and registered in its plan's
 * usage plan by `npm run accounts -- … --stage`), and the API reads keys from the authorizer.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import { plans, usagePlanName, usagePlanThrottle, type Plan } from '#shared/accounts/plans';
import type { StageConfig } from './stages';

export function addUsagePlans(scope: Construct, api: apigw.RestApi, stage: StageConfig): Record<Plan, apigw.UsagePlan> {
  const created = {} as Record<Plan, apigw.UsagePlan>;
  for (const [plan, perMinute] of Object.entries(plans) as [Plan, number][]) {
    created[plan] = new apigw.UsagePlan(scope, `UsagePlan${plan[0]!.toUpperCase()}${plan.slice(1)}`, {
      name: usagePlanName(stage.name, plan),
      description: `${plan}: ${perMinute} requests per minute per account (counted exactly by the handlers)`,
      throttle: usagePlanThrottle(perMinute),
      apiStages: [{ api, stage: api.deploymentStage }],
    });
  }
  return created;
}
