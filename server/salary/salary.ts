import { CURRENCY_RATES } from "../knowledge/knowledge.ts";

/*
 * Salaries as the salary filters compare them: `base_salary` ("120000.00-150000.00 USD/YEAR") turned
 * into an annual minimum and maximum in its own currency and in US dollars. A period becomes a year
 * as hour × 2,080, day × 260, week × 52, month × 12. Currencies convert through the euro reference
 * rates of the knowledge base, server/knowledge/currency-rates.json (source and date inside, checked
 * at load; replace the file for other rates): nothing is fetched at run time. A currency missing
 * from the table keeps its own amounts and no USD ones.
 */

export interface AnnualSalary {
  salary_currency: string | null;
  salary_min: number | null;
  salary_max: number | null;
  salary_min_usd: number | null;
  salary_max_usd: number | null;
}

/** Multipliers from a salary's period to a year of full-time work. */
export const PER_YEAR: Record<string, number> = { HOUR: 2080, DAY: 260, WEEK: 52, MONTH: 12, YEAR: 1 };

export const NO_SALARY: AnnualSalary = { salary_currency: null, salary_min: null, salary_max: null, salary_min_usd: null, salary_max_usd: null };

/** The annual salary of a posting's `base_salary` (validated by the record schema), or NO_SALARY. */
export function annualSalary(baseSalary: string | null | undefined): AnnualSalary {
  const match = baseSalary ? /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?) ([A-Z]{3})\/([A-Z]+)$/.exec(baseSalary) : null;
  if (!match) return NO_SALARY;
  const [, low, high, currency, period] = match as unknown as [string, string, string, string, string];
  const perYear = PER_YEAR[period]!;
  const min = Math.round(Number(low) * perYear);
  const max = Math.round(Number(high) * perYear);
  return { salary_currency: currency, salary_min: min, salary_max: max, salary_min_usd: toUsd(min, currency), salary_max_usd: toUsd(max, currency) };
}

/** `amount` of `currency` in US dollars (rounded), or null for a currency the rate table lacks. */
export function toUsd(amount: number, currency: string): number | null {
  const rates = CURRENCY_RATES.perEuro;
  const rate = rates[currency];
  if (rate === undefined) return null;
  return Math.round((amount / rate) * rates.USD!);
}

/** The currencies a salary filter may name. */
export const KNOWN_CURRENCIES = Object.keys(CURRENCY_RATES.perEuro).sort();
