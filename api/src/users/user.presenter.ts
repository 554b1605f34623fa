/** Shapes of a user as clients see them. Never the hash or tokens. */
import type { RoleName, UserDoc } from "./user.model";

export interface PublicUser {
  id: string;
  name: string;
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  role: RoleName;
  isAdmin: boolean;
  verified: boolean;
  createdAt: Date;
  lastLogin: Date | null;
}

/** "Anne Marie Holm" → first "Anne Marie", last "Holm"; a single word is the first name. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length <= 1) return { firstName: parts[0] ?? "", lastName: "" };
  return { firstName: parts.slice(0, -1).join(" "), lastName: parts[parts.length - 1] };
}

export function presentUser(u: UserDoc): PublicUser {
  return {
    id: String(u._id),
    name: u.name,
    ...splitName(u.name),
    email: u.email,
    username: u.username,
    role: u.role as RoleName,
    isAdmin: u.role === "admin",
    verified: u.verified,
    createdAt: (u as unknown as { createdAt: Date }).createdAt,
    lastLogin: u.lastLogin ?? null,
  };
}
