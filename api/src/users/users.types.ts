/** GraphQL types for users, the admin list and preferences. */
import { GraphQLDateTimeISO } from "graphql-scalars";
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";

export enum Role {
  USER = "user",
  ADMIN = "admin",
}
registerEnumType(Role, { name: "Role", description: "shown 'Bruger' / 'Administrator'" });

export enum Language {
  da = "da",
  en = "en",
}
registerEnumType(Language, { name: "Language" });

export enum Theme {
  light = "light",
  dark = "dark",
  system = "system",
}
registerEnumType(Theme, { name: "Theme" });

@ObjectType()
export class User {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: "derived from name" }) firstName!: string;
  @Field(() => String, { description: "derived from name" }) lastName!: string;
  @Field(() => String) email!: string;
  @Field(() => String) username!: string;
  @Field(() => Role) role!: Role;
  @Field(() => Boolean, { description: "role == ADMIN" }) isAdmin!: boolean;
  @Field(() => Boolean) verified!: boolean;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) lastLogin!: Date | null;
}

@ObjectType({ description: "spec §3 'User as read in admin list'" })
export class AdminUser extends User {
  @Field(() => Boolean) isActive!: boolean;
  @Field(() => Int) chatSessionsCount!: number;
  @Field(() => Int) bookmarksCount!: number;
  @Field(() => Boolean, { description: "the built-in admin: cannot be deleted" }) isProtected!: boolean;
}

@ObjectType()
export class Preferences {
  @Field(() => Language) language!: Language;
  @Field(() => Theme) theme!: Theme;
  @Field(() => Boolean) notifications!: boolean;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) updatedAt!: Date | null;
}

@InputType()
export class PreferencesInput {
  @Field(() => Language, { nullable: true }) language?: Language;
  @Field(() => Theme, { nullable: true }) theme?: Theme;
  @Field(() => Boolean, { nullable: true }) notifications?: boolean;
}
