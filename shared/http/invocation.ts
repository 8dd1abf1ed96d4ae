import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { AuditChange, RecordChange } from '#shared/audit/stored';
import type { Principal } from '#shared/auth/principal';
import type { RouteDefinition } from '#shared/routes';

/** What the middleware stack learns about one invocation, shared between its steps. */
export interface Invocation {
  requestId: string;
  startedAt: number;
  route: RouteDefinition;
  principal?: Principal;
  /** X-RateLimit-* once the key is known and counted. */
  rateLimitHeaders?: Record<string, string>;
  /**
   * The rate-limit decision: resolves when the request may run, rejects with the 429. Reads run
   * concurrently with it; writes wait for it first (a refused request must change nothing).
   */
  admission?: Promise<void>;
  /** Set once the audit record is out: a request is recorded once, whoever answers it (the handler or the deadline). */
  audited?: boolean;
  /** The audited field changes the work made (old and new values), for the audit record. */
  changes?: AuditChange[];
}

/** The admission's refusal, if any, once it has settled. */
export async function admissionError(invocation: Invocation): Promise<unknown> {
  if (!invocation.admission) return undefined;
  try {
    await invocation.admission;
    return undefined;
  } catch (error) {
    return error;
  }
}

/**
 * Keyed by the event object: middy does not pass `request.internal` to the handler, and the
 * local gateway runs many invocations concurrently in one process.
 */
const invocations = new WeakMap<object, Invocation>();

export const startInvocation = (event: APIGatewayProxyEvent, invocation: Invocation): void => {
  invocations.set(event, invocation);
};

export function invocationOf(event: APIGatewayProxyEvent): Invocation {
  const invocation = invocations.get(event);
  if (!invocation) throw new Error('No invocation state: the request scope middleware did not run');
  return invocation;
}

export const maybeInvocationOf = (event: APIGatewayProxyEvent): Invocation | undefined => invocations.get(event);

/** What a handler passes a domain function that audits a change: each change joins this call's audit record. */
export const changeRecorder =
  (event: APIGatewayProxyEvent): RecordChange =>
  (change) => {
    (invocationOf(event).changes ??= []).push(change);
  };
