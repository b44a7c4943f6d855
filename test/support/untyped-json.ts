/**
 * JSON as a test reads it: a response body, or what the code under test sent to a fake. Tests read
 * into it freely and let the assertion say what they expect, as eslint.config.mjs allows for tests.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one place tests declare JSON untyped; `unknown` would force a cast at every assertion
export type UntypedJson = any;
