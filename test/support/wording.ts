/**
 * One phrasing for each kind of problem, whichever input has it (src/diagnostics/schema-problems.ts):
 * the tests of the configuration file, the users file, the quality rules and the requests each
 * give their input the same two mistakes and expect these words.
 */

/** A string member given the number 5. */
export const STRING_GIVEN_5 = "must be a string; found a number (5)";

/** The start of the message of a member the input does not know, at the place named `where`. */
export const unknownMember = (name: string, where: string): string => `unknown member ${JSON.stringify(name)} in ${where}; the known members are `;
