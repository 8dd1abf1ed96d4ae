/**
 * Warm latency of real handlers, invoked in-process with real API Gateway REST events (the
 * authorizer's context included, so rate limiting and audit run) against DynamoDB Local, in
 * blocks interleaved with the floor: the same DynamoDB call made raw on the same client.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { Principal } from '#shared/auth/principal';
import { principalToContext } from '#shared/auth/principal';
import { distribution, round, type Distribution } from './stats';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export function apiEvent(
  principal: Principal,
  method: string,
  resource: string,
  path: string,
  pathParameters: Record<string, string> | null,
  body?: unknown,
): APIGatewayProxyEvent {
  return {
    resource,
    path,
    httpMethod: method,
    headers: { Authorization: 'Bearer (resolved by the authorizer)', 'Content-Type': 'application/json', 'User-Agent': 'bench' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters,
    stageVariables: null,
    body: body === undefined ? null : JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'bench',
      stage: 'bench',
      requestId: randomUUID(),
      requestTimeEpoch: Date.now(),
      protocol: 'HTTP/1.1',
      httpMethod: method,
      path,
      resourcePath: resource,
      resourceId: resource,
      identity: { sourceIp: '127.0.0.1', userAgent: 'bench' },
      authorizer: { ...principalToContext(principal), principalId: principal.keyId },
    },
  } as unknown as APIGatewayProxyEvent;
}

export const benchContext = (name: string): Context =>
  ({
    functionName: name,
    awsRequestId: randomUUID(),
    getRemainingTimeInMillis: () => 10_000,
  }) as unknown as Context;

export interface LatencyFigure {
  name: string;
  handler: Distribution;
  floor: Distribution;
  ratioP50: number;
  cpuMicrosPerRequest: number;
  floorCpuMicrosPerRequest: number;
}

/**
 * `blocks` blocks of `perBlock` calls each, alternating handler and floor blocks, after a warm-up.
 * Each handler call gets a fresh event (events are mutated by middleware, as on Lambda).
 */
export async function measure(
  name: string,
  call: () => Promise<unknown>,
  floor: () => Promise<unknown>,
  { blocks = 20, perBlock = 25, warmup = 500 } = {},
): Promise<LatencyFigure> {
  for (let i = 0; i < warmup; i++) {
    await call();
    await floor();
  }
  const handlerSamples: number[] = [];
  const floorSamples: number[] = [];
  let handlerCpu = 0;
  let floorCpu = 0;
  for (let block = 0; block < blocks; block++) {
    for (const [fn, samples, isHandler] of [
      [call, handlerSamples, true],
      [floor, floorSamples, false],
    ] as const) {
      const cpuBefore = process.cpuUsage();
      for (let i = 0; i < perBlock; i++) {
        const started = performance.now();
        await fn();
        samples.push(performance.now() - started);
      }
      const cpu = process.cpuUsage(cpuBefore);
      if (isHandler) handlerCpu += cpu.user + cpu.system;
      else floorCpu += cpu.user + cpu.system;
    }
  }
  const handler = distribution(handlerSamples);
  const floorFigure = distribution(floorSamples);
  return {
    name,
    handler,
    floor: floorFigure,
    ratioP50: round(handler.p50 / floorFigure.p50),
    cpuMicrosPerRequest: Math.round(handlerCpu / handlerSamples.length),
    floorCpuMicrosPerRequest: Math.round(floorCpu / floorSamples.length),
  };
}
