/** GraphQL types for sign-in and accounts. */
import { Field, InputType, ObjectType } from "type-graphql";
import { User } from "../users/users.types";

@ObjectType()
export class AuthPayload {
  @Field(() => String) token!: string;
  @Field(() => User) user!: User;
  @Field(() => String, { nullable: true }) message?: string | null;
}

@ObjectType()
export class RegisterPayload {
  @Field(() => Boolean) verificationRequired!: boolean;
  @Field(() => String) message!: string;
  @Field(() => String, { nullable: true }) token?: string | null;
  @Field(() => User, { nullable: true }) user?: User | null;
}

@ObjectType()
export class VerifyEmailPayload {
  @Field(() => Boolean) verified!: boolean;
  @Field(() => String) message!: string;
}

@ObjectType()
export class MessagePayload {
  @Field(() => Boolean) ok!: boolean;
  @Field(() => String) message!: string;
}

@InputType()
export class RegisterInput {
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
  @Field(() => String) username!: string;
  @Field(() => String) password!: string;
}

@InputType()
export class LoginInput {
  @Field(() => String) email!: string;
  @Field(() => String) password!: string;
}

@InputType()
export class ResetPasswordInput {
  @Field(() => String) token!: string;
  @Field(() => String) newPassword!: string;
}

@InputType()
export class ChangePasswordInput {
  @Field(() => String) currentPassword!: string;
  @Field(() => String) newPassword!: string;
  @Field(() => String, { nullable: true, description: "when given, must equal newPassword" })
  confirmPassword?: string | null;
}
