import { createError } from "../server/errors.js";

/** A problem with how basemodel was called or configured: exit code 2, no stack trace. */
export const UsageError = createError<string>("BASEMODEL_USAGE", (message) => message);
export type UsageError = InstanceType<typeof UsageError>;
