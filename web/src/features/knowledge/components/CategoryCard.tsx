import { Card, CardActionArea, CardContent, Skeleton, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router-dom";
import type { KnowledgeCategoriesQuery } from "../../../gql/graphql";
import { useT } from "../../../i18n/i18n";
import { useCategoryDescription } from "../hooks/useCategoryDescription";
import { viewHref } from "../lib/knowledgeView";
import { CardGrid } from "./ArticleCard";
import { CategoryIcon } from "./CategoryIcon";

export type Category = KnowledgeCategoriesQuery["knowledgeCategories"][number];

/** A category: icon on its colour, name, description and article count; opens the category view. */
export function CategoryCard({ category }: { category: Category }) {
  const t = useT();
  const describe = useCategoryDescription();
  return (
    <Card sx={{ height: "100%", borderTop: 4, borderTopColor: category.color }}>
      <CardActionArea
        component={RouterLink}
        to={viewHref({ kind: "category", category: category.name, query: "" })}
        sx={{ height: "100%" }}
      >
        <CardContent sx={{ display: "flex", gap: 2, alignItems: "flex-start" }}>
          <CategoryIcon icon={category.icon} color={category.color} />
          <div>
            <Typography component="h3" sx={{ fontWeight: 700, fontSize: "1.05rem" }}>
              {category.name}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25 }}>
              {describe(category)}
            </Typography>
            <Typography variant="body2" sx={{ mt: 1, fontWeight: 600 }}>
              {t("knowledge.articleCount", { n: category.count })}
            </Typography>
          </div>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** the category cards' columns on wide screens */
export const CATEGORY_GRID_COLUMNS = 4;

/** about a category card's height (icon, name, two lines of description, count) */
const CATEGORY_CARD_SKELETON_HEIGHT = 152;

/** The category grid while the categories load: one row of placeholders. */
export function CategoryGridSkeleton() {
  return (
    <CardGrid lgColumns={CATEGORY_GRID_COLUMNS}>
      {[0, 1, 2, 3].map((n) => (
        <Skeleton key={n} variant="rounded" height={CATEGORY_CARD_SKELETON_HEIGHT} />
      ))}
    </CardGrid>
  );
}
