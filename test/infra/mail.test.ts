import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { mailEnv } from '#shared/mail/config';
import { routes, type RouteDefinition } from '#shared/routes';
import { SEND_MAIL_ACTIONS } from '#infra/grants';
import { isPlaceholderDomain, mailIdentityOf, stageConfig, stageNames } from '#infra/stages';
import { addressOf, allTemplates, buildStack, inMainTerms, logicalIdOf, resourceOf, TEST_MAIL_FROM } from './helpers';

/**
 * Who may send email: only the functions of routes flagged `mail: true`, only as the stage's sender
 * identity. No route of the table sends mail yet, so the stack gets a test route that does.
 */
const mailRoute: RouteDefinition = {
  id: 'mailtest.send',
  method: 'POST',
  path: '/v1/mail-test',
  handler: 'functions/mail-test/send.ts',
  tag: 'Mail test',
  summary: 'Sends a test mail',
  scopes: ['orders:write'],
  auth: 'key',
  mail: true,
};
const allWithMail = [...routes.filter((route) => !route.mail), mailRoute];
const built = buildStack('dev', { routes: allWithMail });
const { stack, template } = built;
const sender = TEST_MAIL_FROM;

interface Statement {
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}
const roleOf = (routeId: string): IConstruct => stack.api.functions.get(routeId)!.role!;
const statementsOf = (role: IConstruct): Statement[] =>
  Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: logicalIdOf(role) }] } })).flatMap(
    (policy) => policy.Properties.PolicyDocument.Statement as Statement[],
  );
const sesStatements = (statements: Statement[]): Statement[] =>
  statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('ses:')));

describe('mail grants', () => {
  it('lets the role of a `mail: true` route send as the stage sender identity with the stage configuration set, and nothing else of SES', () => {
    const sesArn = (...resource: unknown[]) => ({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ...resource]],
    });
    expect(sesStatements(statementsOf(roleOf(mailRoute.id)))).toEqual([
      {
        Effect: 'Allow',
        Action: SEND_MAIL_ACTIONS,
        // One identity and one configuration set, no wildcard: SES v2 SendEmail authorises the set a send names too.
        Resource: [sesArn(':configuration-set/', { Ref: logicalIdOf(stack.mail.configurationSet) }), sesArn(':identity/mail.test-shop.de')],
      },
    ]);
    expect([...SEND_MAIL_ACTIONS].sort()).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
  });

  it('gives no other role any SES action, in any template', () => {
    // Every mention of an SES action across the main and the nested templates is in the mail route's policy.
    const mailPolicies = new Set(
      Object.keys(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: logicalIdOf(roleOf(mailRoute.id)) }] } })),
    );
    const mentions = allTemplates(built).flatMap(({ stack: home, template: each }) =>
      Object.entries(each.toJSON().Resources as Record<string, unknown>)
        .filter(([, resource]) => /"ses:/.test(JSON.stringify(resource)))
        .map(([id]) => `${home.node.path}#${id}`),
    );
    expect(mentions).toEqual([...mailPolicies].map((id) => `${stack.node.path}#${id}`));
    expect(mailPolicies.size).toBe(1);
    // The mail route does not share its role with a route that does not send mail.
    for (const route of allWithMail.filter((candidate) => !candidate.mail)) {
      expect(roleOf(route.id), route.id).not.toBe(roleOf(mailRoute.id));
      expect(sesStatements(statementsOf(roleOf(route.id))), route.id).toEqual([]);
    }
  });

  it('names the sender and the configuration set only to the functions that send mail', () => {
    const mailFunction = stack.api.functions.get(mailRoute.id)!;
    const variablesOf = (routeId: string) =>
      resourceOf(built, stack.api.functions.get(routeId)!).Properties.Environment.Variables as Record<string, unknown>;
    expect(variablesOf(mailRoute.id)[mailEnv.mailFrom]).toBe(sender);
    // The function is in its route group's nested stack, which gets the set's name as a parameter.
    expect(inMainTerms(built, Stack.of(mailFunction), variablesOf(mailRoute.id)[mailEnv.configurationSet])).toEqual({
      Ref: logicalIdOf(stack.mail.configurationSet),
    });
    for (const route of allWithMail.filter((candidate) => !candidate.mail)) {
      expect(variablesOf(route.id)[mailEnv.mailFrom], route.id).toBeUndefined();
      expect(variablesOf(route.id)[mailEnv.configurationSet], route.id).toBeUndefined();
    }
    for (const fn of stack.workers.functions.values()) {
      const variables = resourceOf(built, fn).Properties.Environment.Variables as Record<string, unknown>;
      expect(variables[mailEnv.mailFrom], addressOf(fn)).toBeUndefined();
      expect(variables[mailEnv.configurationSet], addressOf(fn)).toBeUndefined();
    }
  });
});

describe('mail senders per stage', () => {
  it('refuses to configure any stage without a sender, naming the context value to set', () => {
    for (const name of stageNames) {
      expect(() => stageConfig(name), name).toThrow(/-c mailFrom=/);
      expect(() => stageConfig(name, { mailFrom: '  ' }), name).toThrow(/-c mailFrom=/);
    }
  });

  it('refuses placeholders: an address under a reserved domain no one can verify in SES', () => {
    for (const placeholder of [
      'invoices@prod.print-shop.example',
      'invoices@shop.test',
      'invoices@mail.invalid',
      'invoices@shop.localhost',
      'invoices@printer.local',
      'invoices@example.com',
      'billing@mail.example.org',
    ]) {
      expect(() => stageConfig('prod', { mailFrom: placeholder }), placeholder).toThrow(/placeholder.*-c mailFrom=/);
    }
    // Only whole labels count: a domain that merely contains one is a real domain.
    expect(isPlaceholderDomain('mail.test-shop.de')).toBe(false);
    expect(isPlaceholderDomain('examples.de')).toBe(false);
    expect(isPlaceholderDomain('my-example.com')).toBe(false);
  });

  it('takes the sender from context (`-c mailFrom=…`) and refuses one without a domain', () => {
    expect(stageConfig('prod', { mailFrom: ' billing@druckerei-schoen.de ' }).mailFrom).toBe('billing@druckerei-schoen.de');
    expect(mailIdentityOf('billing@mail.druckerei-schoen.de')).toBe('mail.druckerei-schoen.de');
    expect(() => stageConfig('prod', { mailFrom: 'billing' })).toThrow(/not a plain email address/);
    expect(() => mailIdentityOf('Shop <billing@druckerei-schoen.de>')).toThrow(/not a plain email address/);
  });
});
