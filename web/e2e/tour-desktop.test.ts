// The walk over every screen at 1280 px, light, in Danish (support/tour.ts).
import { VARIANTS, walkEveryScreen } from "./support/tour";

walkEveryScreen(VARIANTS.desktop);
