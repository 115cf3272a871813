import { filterSet } from "../../../server/store/filter-set.ts";
import { describe, expect, test } from "bun:test";
import { buildWhere, idIn, quote } from "../../../server/store/filter.ts";

describe("buildWhere", () => {
  test.each([
    [{}, undefined],
    [{ city: "Berlin" }, "city = 'Berlin'"],
    [{ country: "DE", source: "indeed" }, "country = 'DE' AND data_source = 'indeed'"],
    [{ since: 1700000000, until: 1800000000.5 }, "publish_ts > 1700000000 AND publish_ts < 1800000000.5"],
    [{ city: "O'Hare" }, "city = 'O''Hare'"],
    [{ city: "' OR 1=1 --" }, "city = ''' OR 1=1 --'"],
    [{ city: "a\\' OR '1'='1" }, "city = 'a\\'' OR ''1''=''1'"],
    [{ city: "100%_x" }, "city = '100%_x'"],
    [{ city: "北京" }, "city = '北京'"],
    [{ city: "a\u0000b", country: "US" }, "false AND country = 'US'"],
    [{ city: ["Seattle", "Portland"] }, "city IN ('Seattle', 'Portland')"],
    [{ city: ["O'Hare", "' OR 1=1 --", "a\u0000b"], country: ["GB", "IE"] }, "city IN ('O''Hare', ''' OR 1=1 --') AND country IN ('GB', 'IE')"],
    [{ city: ["a\u0000b", "c\u0000"] }, "false"],
  ])("%p → %p", (filters, expected) => {
    expect(buildWhere(filterSet(filters))).toBe(expected);
  });

  test("refuses a non-finite time rather than writing it", () => {
    expect(() => filterSet({ since: Number.NaN })).toThrow();
  });
});

test("quote doubles every single quote and nothing else", () => {
  expect(quote("''")).toBe("''''''");
  expect(quote("\\")).toBe("'\\'");
});

test("idIn quotes every id and matches nothing for none", () => {
  expect(idIn(["a", "it's"])).toBe("id IN ('a', 'it''s')");
  expect(idIn([])).toBe("false");
});
