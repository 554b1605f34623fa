export * from "./activity-actions";
export * from "./chat-message.rules";
export * from "./error-codes";
export * from "./messages";
export * from "./notion-failures";
export * from "./user.rules";
