/**
 * Who is asking: what a service receives to check rights and to write the activity log. Transports (GraphQL,
 * REST, CLI) pass the signed-in user; a loaded user document is an Actor too (it has id, email and role).
 */
import type { RoleName } from "./users/user.model";

export interface Actor {
  /** the user's id (24 hex digits) */
  readonly id: string;
  readonly email: string;
  readonly role: RoleName;
}

/** The Actor of a user (a plain object: safe to keep after the document is gone). */
export function actorOf(user: { _id: unknown; email: string; role: RoleName }): Actor {
  return { id: String(user._id), email: user.email, role: user.role };
}

export function isAdmin(actor: Actor): boolean {
  return actor.role === "admin";
}
