/**
 * Stands in for `@aws-sdk/credential-provider-node` inside Lambda bundles (esbuild alias in
 * infra/bundling.ts). Lambda always provides the function role's credentials in environment
 * variables, so the full default chain — SSO, STS, INI files, process, web identity, IMDS, and
 * the nested STS/SSO clients they bring — is dead weight there (about 100 KB per bundle). Scripts
 * and tests run unbundled and keep the real chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (_init?: unknown) => fromEnv();
