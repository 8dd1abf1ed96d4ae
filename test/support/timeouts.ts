/**
 * Timeouts of the tests whose time goes to other processes rather than to code of ours: a CLI test
 * starts tsx (Node, then TypeScript) once or more per test; a document test renders or parses a PDF
 * or an e-invoice, and most read it back with poppler or xmllint. Each takes a second or two on an
 * idle machine and several times that on a busy one — more than the unit project's 5 s, which stays
 * the bound for tests whose time is their own. Such a file says so at its top:
 * `vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT_MS })`.
 */
export const CLI_TEST_TIMEOUT_MS = 60_000;
export const DOCUMENT_TEST_TIMEOUT_MS = 60_000;
