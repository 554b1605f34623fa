/** GraphQL types of the knowledge base. */
import { GraphQLDateTimeISO } from "graphql-scalars";
import { Field, Float, ID, InputType, Int, ObjectType } from "type-graphql";

@ObjectType({ description: "a category with its style (icon: an MUI icon name) and article count" })
export class KnowledgeCategory {
  @Field(() => String) name!: string;
  @Field(() => Int) count!: number;
  @Field(() => String, { description: "@mui/icons-material icon name, e.g. AccountBalance" }) icon!: string;
  @Field(() => String, { description: "CSS hex colour" }) color!: string;
  @Field(() => String, { description: "one line, Danish" }) description!: string;
  @Field(() => String, {
    nullable: true,
    description:
      "the line's message key (@vidensbank/shared messages.ts) when the server wrote it, to show it in the reader's language; null when the description is data",
  })
  descriptionKey!: string | null;
}

@ObjectType({ description: "where an article comes from" })
export class ArticleSource {
  @Field(() => String, { description: '"sample" | "notion" | "api"' }) kind!: string;
  @Field(() => String, { nullable: true, description: "the page in Notion" }) url!: string | null;
  @Field(() => String, { nullable: true, description: "the Notion database" }) databaseTitle!: string | null;
}

@ObjectType()
export class KnowledgeArticle {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => String, { description: "Markdown-like text: '# ' headings, bullets, numbered lines" })
  content!: string;
  @Field(() => String) category!: string;
  @Field(() => String, { nullable: true }) subcategory!: string | null;
  @Field(() => [String]) tags!: string[];
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO) updatedAt!: Date;
  @Field(() => GraphQLDateTimeISO, { description: "same as updatedAt (the name old clients read)" })
  lastUpdated!: Date;
  @Field(() => ArticleSource) source!: ArticleSource;
  @Field(() => String, { nullable: true, description: "the page in Notion, for notion articles" }) sourceUrl!:
    | string
    | null;
}

@ObjectType({ description: "a [start, end) character range" })
export class TextRange {
  @Field(() => Int) start!: number;
  @Field(() => Int) end!: number;
}

@ObjectType({ description: "a query word replaced by a close indexed word (a typo)" })
export class QueryCorrection {
  @Field(() => String) from!: string;
  @Field(() => String) to!: string;
}

@ObjectType()
export class KnowledgeSearchHit {
  @Field(() => KnowledgeArticle) article!: KnowledgeArticle;
  @Field(() => Float, { description: "relevance; only comparable within one result" }) score!: number;
  @Field(() => String, { description: "plain text around the best matches, '…' where cut" }) snippet!: string;
  @Field(() => [TextRange], { description: "matched words inside snippet" }) highlights!: TextRange[];
  @Field(() => [TextRange], { description: "matched words inside article.title" })
  titleHighlights!: TextRange[];
}

@ObjectType()
export class KnowledgeSearchResult {
  @Field(() => [KnowledgeSearchHit]) hits!: KnowledgeSearchHit[];
  @Field(() => Int, { description: "matching articles before limit/offset" }) total!: number;
  @Field(() => String, { description: "the text searched (trimmed, cut when long)" }) query!: string;
  @Field(() => Boolean) truncated!: boolean;
  @Field(() => [QueryCorrection]) corrections!: QueryCorrection[];
}

@ObjectType()
export class RecentSearch {
  @Field(() => ID) id!: string;
  @Field(() => String) query!: string;
  @Field(() => GraphQLDateTimeISO) timestamp!: Date;
}

@InputType()
export class KnowledgeArticleInput {
  @Field(() => String) title!: string;
  @Field(() => String) content!: string;
  @Field(() => String) category!: string;
  @Field(() => String, { nullable: true }) subcategory?: string | null;
  @Field(() => [String], { nullable: true }) tags?: string[] | null;
}
