import { Logger } from '@aws-lambda-powertools/logger';

/** One structured JSON logger for every function (service name and level come from the environment). */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'print-shop-api' });
