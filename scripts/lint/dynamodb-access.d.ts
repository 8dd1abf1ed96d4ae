/** The types of dynamodb-access.js, for the TypeScript that reads it (test/unit/resource-folders.test.ts). */
export declare const DYNAMODB_CLIENT: string;
export declare const TRANSACTIONS: string;
export declare const TRANSACTION_WRITER: string;
export declare const REPOSITORIES: string;
export declare const PLATFORM: Readonly<Record<string, string>>;
export declare const PENDING: Readonly<Record<string, string>>;
export declare function allowedGlobs(): string[];
export declare const restrictedPaths: readonly { name: string; importNames?: string[]; message: string }[];
