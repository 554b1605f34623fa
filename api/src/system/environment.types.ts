import { Field, ObjectType } from "type-graphql";

@ObjectType()
export class EnvironmentInfo {
  @Field(() => String, { description: '"DEV" or "PROD"' }) environment!: string;
  @Field(() => String) hostname!: string;
  @Field(() => String) nodeEnv!: string;
  @Field(() => String, { nullable: true }) replOwner!: string | null;
}
