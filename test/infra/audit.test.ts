import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes';
import { AUDIT_FILTER_PATTERN } from '#infra/audit';
import { addressOf, findAll, inMainTerms, logicalIdOf, resolveReference, sharedStack } from './helpers';

const built = sharedStack('dev');
const { stack, template } = built;

describe('audit shipping', () => {
  it('subscribes every API function (and the authorizer) to the audit shipper', () => {
    // The route functions' filters are in their route groups' nested stacks, beside their log groups; the authorizer's here.
    const filters = findAll(built, 'AWS::Logs::SubscriptionFilter');
    expect(filters).toHaveLength(routes.length + 1);
    const shipper = addressOf(stack.audit.shipper);
    const logGroups = new Set(findAll(built, 'AWS::Logs::LogGroup').map((logGroup) => logGroup.address));
    const subscribed = new Set<string>();
    for (const { stack: home, resource: filter, address } of filters) {
      expect(filter.Properties.FilterPattern, address).toBe(AUDIT_FILTER_PATTERN);
      expect(filter.Properties.FilterName, address).toBe('audit');
      // The destination is the shipper, in the main stack: a nested stack gets its ARN as a parameter.
      const destination = inMainTerms(built, home, filter.Properties.DestinationArn);
      expect(resolveReference(built, destination), address).toEqual({ address: shipper, attribute: 'Arn' });
      const logGroup = `${home.node.path}#${(filter.Properties.LogGroupName as { Ref: string }).Ref}`;
      expect(logGroups.has(logGroup), address).toBe(true);
      subscribed.add(logGroup);
    }
    const sources = [stack.api.authorizerFunction, ...stack.api.functions.values()];
    expect(sources.map((fn) => addressOf(fn.logGroup)).filter((logGroup) => !subscribed.has(logGroup))).toEqual([]);
  });

  it('creates the filters only after the shipper may be invoked by CloudWatch Logs', () => {
    // One shared permission (LogsInvoke) instead of one per log group: every filter waits for it, in a
    // nested stack through the nested stack's own dependency.
    const permission = logicalIdOf(stack.audit.shipper.node.findChild('LogsInvoke'));
    for (const { stack: home, resource: filter, address } of findAll(built, 'AWS::Logs::SubscriptionFilter')) {
      if (home === stack) {
        expect(filter.DependsOn, address).toContain(permission);
      } else {
        const nested = built.nested.find((candidate) => candidate.stack === home)!;
        expect(template.toJSON().Resources[nested.resourceId].DependsOn, address).toContain(permission);
      }
    }
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
