/**
 * When a session or a reset code has ended by its login's generations (credentials.ts): pure rules,
 * used by the authorizer (access tokens), refresh and reset confirmation — the latter two also as
 * conditions of their writes, so a change that lands between a read and a write still ends them.
 *
 * A password change or reset moves the login's `session_generation` and `code_generation` in the
 * one update that writes the new hash: every session (refresh-token family) and every reset code
 * stamped with an older generation has ended at once, however many there are — nothing is walked.
 * A change keeps the session it was made from (`kept_session`); a reset keeps none.
 */
import type { LoginRecord as Login } from './stored';

/** A session as its generation says: the refresh-token family (an access token's `sid`) and the login generation it began in. */
export interface SessionStamp {
  familyId: string;
  generation: number;
}

/** Whether a session is of the login's current generation, or the one a password change kept. */
export const sessionCurrent = (login: Pick<Login, 'session_generation' | 'kept_session'>, session: SessionStamp): boolean =>
  session.generation === login.session_generation || (login.kept_session !== null && session.familyId === login.kept_session);

/**
 * The condition expression that a login's generation attribute `name` is `placeholder`'s value:
 * generation 0 also matches a login stored before generations existed (the attribute absent).
 */
export const generationCondition = (name: string, placeholder: string, generation: number): string =>
  generation === 0 ? `(attribute_not_exists(${name}) OR ${name} = ${placeholder})` : `${name} = ${placeholder}`;
