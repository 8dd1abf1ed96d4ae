import { inject } from 'vitest';
import { resetConfig } from '#shared/config';

// Test files talk to the same engines as the gateway (to check stored state directly).
Object.assign(process.env, inject('fixtures').env);
resetConfig();
