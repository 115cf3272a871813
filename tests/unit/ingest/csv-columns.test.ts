/** A generic CSV's columns: --map field=column, columns named like fields, location and date-time values. */
import { describe, expect, test } from "bun:test";
import { genericMapper, normalizeDateTime, parseColumnMap } from "../../../server/ingest/columns.ts";

describe("generic CSV mapping", () => {
  test("parseColumnMap takes field=column and refuses unknown fields and bad syntax", () => {
    expect(parseColumnMap(["job_title=Title", "job_url = Link", "job_description=Text = body"])).toEqual({
      job_title: "Title", job_url: "Link", job_description: "Text = body",
    });
    expect(() => parseColumnMap(["salary=Pay"])).toThrow(/unknown field "salary" \(fields: id, job_title/);
    expect(() => parseColumnMap(["job_title"])).toThrow(/--map takes field=column/);
    expect(() => parseColumnMap(["=Title"])).toThrow(/--map takes field=column/);
  });

  test("normalizeDateTime: dates, ISO 8601 with zones, and anything else as it is", () => {
    expect(normalizeDateTime("2026-05-01")).toBe("2026-05-01 00:00:00");
    expect(normalizeDateTime("2026-05-01T09:30:00")).toBe("2026-05-01 09:30:00");
    expect(normalizeDateTime("2026-05-01T09:30")).toBe("2026-05-01 09:30:00");
    expect(normalizeDateTime("2026-05-01T09:30:00.123Z")).toBe("2026-05-01 09:30:00");
    expect(normalizeDateTime("2026-05-01T01:30:00+02:00")).toBe("2026-04-30 23:30:00");
    expect(normalizeDateTime("2026-05-01 09:30:00")).toBe("2026-05-01 09:30:00");
    expect(normalizeDateTime("May 1st")).toBe("May 1st");
  });

  test("columns named like fields map by default; --map adds and overrides; location fills city and country", () => {
    const mapper = genericMapper({ job_title: "Role", location: "Where", job_tags: "Skills" })([
      "Role", "job_title", "job_url", "publish_time", "data_source", "job_description", "Where", "country", "Skills",
    ]);
    const row = {
      Role: "Chef", job_title: "ignored", job_url: "https://x/1", publish_time: "2026-05-01", data_source: "mysite",
      job_description: "Cook.", Where: "Lyon, France (Remote)", country: "", Skills: "French cuisine; HACCP, haccp",
    };
    expect(mapper(row)).toEqual({
      value: {
        job_title: "Chef", city: "Lyon", country: "FR", publish_time: "2026-05-01 00:00:00", job_url: "https://x/1",
        job_tags: ["French cuisine", "HACCP", "remote"], data_source: "mysite", job_description: "Cook.",
      },
    });
    expect(mapper({ ...row, country: "germany", Where: "" })).toMatchObject({ value: { country: "DE" } });
    expect(mapper({ ...row, country: "de", Where: "Berlin" })).toMatchObject({ value: { city: "Berlin", country: "DE" } });
  });

  test("a header without a column for a required field, or a --map to a missing column, is refused at once", () => {
    expect(() => genericMapper({})(["job_url", "job_title"])).toThrow(
      /no column for publish_time, data_source, job_description: name columns like the fields or give --map publish_time=COLUMN \(the header has job_url, job_title\)/,
    );
    expect(() => genericMapper({ job_url: "Link" })(["url"])).toThrow(/--map job_url=Link: no such column \(the header has url\)/);
    // a unique case-insensitive match is taken
    expect(() => genericMapper({ job_url: "link", publish_time: "DATE", data_source: "src", job_description: "text" })(["Link", "date", "Src", "Text"])).not.toThrow();
  });
});
