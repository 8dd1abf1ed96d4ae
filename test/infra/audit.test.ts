import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes';
import { AUDIT_FILTER_PATTERN } from '#infra/audit';
import { buildStack } from './helpers';

const { stack, template } = buildStack('dev');

describe('audit shipping', () => {
  it('subscribes every API function (and the authorizer) to the audit shipper', () => {
    const filters = Object.values(template.findResources('AWS::Logs::SubscriptionFilter'));
    expect(filters).toHaveLength(routes.length + 1);
    for (const filter of filters) expect(filter.Properties.FilterPattern).toBe(AUDIT_FILTER_PATTERN);
    const shipperId = stack.getLogicalId(stack.audit.shipper.node.defaultChild as never);
    expect(filters.every((filter) => JSON.stringify(filter.Properties.DestinationArn).includes(shipperId))).toBe(true);
  });

  it('retries a failed shipment and keeps what still fails in a queue with an alarm', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { MaximumRetryAttempts: 2 });
    const invokeConfig = Object.values(template.findResources('AWS::Lambda::EventInvokeConfig'))[0]!;
    expect(JSON.stringify(invokeConfig.Properties.DestinationConfig.OnFailure)).toContain(
      stack.getLogicalId(stack.audit.failures.node.defaultChild as never),
    );
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.some((alarm) => String(alarm.Properties.AlarmName).includes('audit-shipping-failures'))).toBe(true);
  });
});
