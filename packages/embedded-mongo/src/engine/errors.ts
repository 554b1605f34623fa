/** Factories for the MongoDB errors the engine raises (code, codeName, message as mongod words them). */
import { StoreError } from "./types";

export const badValue = (msg: string) => new StoreError(2, "BadValue", msg);
export const failedToParse = (msg: string) => new StoreError(9, "FailedToParse", msg);
export const typeMismatch = (msg: string) => new StoreError(14, "TypeMismatch", msg);
export const namespaceNotFound = (msg: string) => new StoreError(26, "NamespaceNotFound", msg);
export const indexNotFound = (msg: string) => new StoreError(27, "IndexNotFound", msg);
export const pathNotViable = (msg: string) => new StoreError(28, "PathNotViable", msg);
export const conflictingUpdate = (msg: string) => new StoreError(40, "ConflictingUpdateOperators", msg);
export const namespaceExists = (msg: string) => new StoreError(48, "NamespaceExists", msg);
export const immutableField = (msg: string) => new StoreError(66, "ImmutableField", msg);
export const cannotCreateIndex = (msg: string) => new StoreError(67, "CannotCreateIndex", msg);
export const invalidOptions = (msg: string) => new StoreError(72, "InvalidOptions", msg);
export const invalidNamespace = (msg: string) => new StoreError(73, "InvalidNamespace", msg);
export const indexOptionsConflict = (msg: string) => new StoreError(85, "IndexOptionsConflict", msg);
export const indexKeySpecsConflict = (msg: string) => new StoreError(86, "IndexKeySpecsConflict", msg);
export const illegalOperation = (msg: string) => new StoreError(20, "IllegalOperation", msg);
export const notImplemented = (msg: string) => new StoreError(238, "NotImplemented", msg);
export const location = (code: number, msg: string) => new StoreError(code, `Location${code}`, msg);
