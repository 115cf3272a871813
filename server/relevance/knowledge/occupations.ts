import { BUSINESS } from "./business.ts";
import { CREATIVE } from "./creative.ts";
import { DATA_AI } from "./data-ai.ts";
import { EARLY_CAREER } from "./early-career.ts";
import { EDUCATION_SCIENCE } from "./education-science.ts";
import { ENGINEERING } from "./engineering.ts";
import { HEALTH_SERVICES } from "./health-services.ts";
import { HEALTHCARE } from "./healthcare.ts";
import { HOSPITALITY } from "./hospitality.ts";
import { INFRASTRUCTURE } from "./infrastructure.ts";
import { OPERATIONS } from "./operations.ts";
import { PRODUCT } from "./product.ts";
import { SALES_MARKETING } from "./sales-marketing.ts";
import { SECURITY } from "./security.ts";
import { SOFTWARE_SYSTEMS } from "./software-systems.ts";
import { SOFTWARE } from "./software.ts";
import { TRADES } from "./trades.ts";

/**
 * One occupation of the job-domain knowledge base, written by hand from domain knowledge (in the spirit
 * of O*NET and ESCO, not copied from them).
 */
export interface Occupation {
  /** Stable kebab-case id, e.g. "site-reliability-engineer". */
  id: string;
  /** The canonical title first, then alternative titles and abbreviations; Chinese titles last. */
  titles: string[];
  /** How people describe the work in plain words ("keep servers running"), lowercase. */
  phrases: string[];
  /** Typical skills and tools, most characteristic first, lowercase. */
  skills: string[];
}

/** Every occupation, grouped by field; ids and titles are unique across the whole list. */
export const OCCUPATIONS: readonly Occupation[] = [
  ...SOFTWARE,
  ...SOFTWARE_SYSTEMS,
  ...DATA_AI,
  ...INFRASTRUCTURE,
  ...SECURITY,
  ...PRODUCT,
  ...ENGINEERING,
  ...HEALTHCARE,
  ...HEALTH_SERVICES,
  ...BUSINESS,
  ...SALES_MARKETING,
  ...OPERATIONS,
  ...EDUCATION_SCIENCE,
  ...TRADES,
  ...HOSPITALITY,
  ...CREATIVE,
  ...EARLY_CAREER,
];
