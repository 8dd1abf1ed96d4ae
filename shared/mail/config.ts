/**
 * The mail module's environment. Kept apart from shared/config.ts, which every bundle carries (as
 * shared/crypto/env.ts is): only the functions that send mail read these, and the route bundles
 * have bytes to spare only in the dozens (bench/budgets.ts).
 */
import { join } from 'node:path';
import { config } from '#shared/config';

export const mailEnv = {
  /**
   * The sender of every email. On AWS an address of the stage's verified SES identity, set by CDK
   * on exactly the functions of `mail: true` routes (infra/stages.ts `mailFrom`, infra/stack.ts).
   */
  mailFrom: 'MAIL_FROM',
  /**
   * The SES configuration set every send names (suppression of bounces and complaints, their
   * events to the stage's notification topic: infra/mail.ts). Set by CDK next to MAIL_FROM; unset
   * locally, where nothing is sent.
   */
  configurationSet: 'MAIL_CONFIGURATION_SET',
  /**
   * Set: emails are written as `.eml` files into this folder instead of going to SES. The local
   * runner sets `<DATA_DIR>/mail` (local-aws/engines.ts); never set on AWS.
   */
  mailDir: 'MAIL_DIR',
} as const;

export interface MailConfig {
  /** Empty when MAIL_FROM is not set (sendMail then refuses to call SES). */
  mailFrom: string;
  /** Empty when unset: SES sends without a configuration set. */
  configurationSet: string;
  /** Empty on AWS: send through SES. */
  mailDir: string;
}

/**
 * Read on every send, not cached: a send costs far more than two variable reads, and tests and the
 * local runner change the environment. Local mode without MAIL_DIR still writes files
 * (`<DATA_DIR or .data>/mail`), so no local run can reach SES.
 */
export function mailConfig(): MailConfig {
  const { localMode } = config();
  return {
    mailFrom: process.env[mailEnv.mailFrom] ?? '',
    configurationSet: process.env[mailEnv.configurationSet] ?? '',
    mailDir: process.env[mailEnv.mailDir] || (localMode ? join(process.env.DATA_DIR || '.data', 'mail') : ''),
  };
}
