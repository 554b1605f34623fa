// The walk over every screen at 1280 px, dark, in English (support/tour.ts).
import { VARIANTS, walkEveryScreen } from "./support/tour";

walkEveryScreen(VARIANTS.darkEnglish);
