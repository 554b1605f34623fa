/** GraphQL door to AuthService: parse, call one service function, present. */
import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../graphql/context";
import { currentAuth } from "../graphql/context";
import { presentUser } from "../users/user.presenter";
import { User } from "../users/users.types";
import { clearAuthCookie, setAuthCookie } from "./auth.cookie";
import {
  AuthPayload,
  ChangePasswordInput,
  LoginInput,
  MessagePayload,
  RegisterInput,
  RegisterPayload,
  ResetPasswordInput,
  VerifyEmailPayload,
} from "./auth.types";

@Resolver()
export class AuthResolver {
  @Query(() => User, { nullable: true, description: "null when not signed in (never an error)" })
  me(@Ctx() ctx: GraphQLContext): User | null {
    return ctx.user ? (presentUser(ctx.user) as User) : null;
  }

  @Mutation(() => RegisterPayload)
  async register(@Arg("input", () => RegisterInput) input: RegisterInput, @Ctx() ctx: GraphQLContext) {
    const result = await ctx.services.auth.register(input, ctx.meta);
    return {
      verificationRequired: result.verificationRequired,
      message: result.message,
      token: null,
      user: null,
    };
  }

  @Mutation(() => VerifyEmailPayload)
  verifyEmail(@Arg("token", () => String) token: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.auth.verifyEmail(token, ctx.meta);
  }

  @Mutation(() => MessagePayload)
  resendVerification(@Arg("email", () => String) email: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.auth.resendVerification(email, ctx.meta);
  }

  @Mutation(() => AuthPayload)
  async login(@Arg("input", () => LoginInput) input: LoginInput, @Ctx() ctx: GraphQLContext) {
    const result = await ctx.services.auth.login(input, ctx.meta);
    if (ctx.res) setAuthCookie(ctx.res, ctx.services.config, result.token, result.expiresAt);
    return { token: result.token, user: result.user, message: result.message };
  }

  @Mutation(() => Boolean, { description: "ends this login session; true also when not signed in" })
  async logout(@Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.auth.logout(ctx.auth);
    if (ctx.res) clearAuthCookie(ctx.res, ctx.services.config);
    return true;
  }

  @Mutation(() => MessagePayload, { description: "same answer for known and unknown addresses" })
  forgotPassword(@Arg("email", () => String) email: string, @Ctx() ctx: GraphQLContext) {
    return ctx.services.auth.forgotPassword(email, ctx.meta);
  }

  @Mutation(() => MessagePayload)
  resetPassword(
    @Arg("input", () => ResetPasswordInput) input: ResetPasswordInput,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.services.auth.resetPassword(input, ctx.meta);
  }

  @Authorized()
  @Mutation(() => Boolean)
  async changePassword(
    @Arg("input", () => ChangePasswordInput) input: ChangePasswordInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    await ctx.services.auth.changePassword(
      currentAuth(ctx),
      {
        currentPassword: input.currentPassword,
        newPassword: input.newPassword,
        confirmPassword: input.confirmPassword ?? undefined,
      },
      ctx.meta,
    );
    return true;
  }
}
