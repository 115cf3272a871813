import { describe, expect, test } from "bun:test";
import { readProfile } from "../../../server/match/profile.ts";
import { mentionsOf, skillKey, skillsIn, skillVocabulary } from "../../../server/match/skills.ts";
import { FACETS, NOW, STATS } from "../../support/understanding.ts";

/** What matching reads of a résumé or profile, and of a posting's skills: the rules, on made-up data. */

const TAGS = [
  { value: "python", count: 900 }, { value: "go", count: 300 }, { value: "react", count: 400 }, { value: "vue", count: 100 },
  { value: "react/vue", count: 5 }, { value: "remote", count: 800 }, { value: "kafka", count: 50 }, { value: "spark", count: 60 },
  { value: "rare-skill", count: 2 }, { value: "微服务", count: 20 },
];
// "go" is used in far more postings' text than it is a tag: an everyday word there.
const vocabulary = skillVocabulary(TAGS, { ...STATS, df: { ...STATS.df, go: 4000, python: 950 } });
const read = (text: string) => readProfile(text, { vocabulary, facets: FACETS, stats: STATS, now: NOW });

describe("skills", () => {
  test("the data's tags (used by a few postings) and the knowledge base's skills; not conditions, not a tag of several", () => {
    expect(vocabulary.byKey.get("python")).toBe("python");
    expect(vocabulary.byKey.has("remote")).toBe(false);
    expect(vocabulary.byKey.has("rare-skill")).toBe(false);
    expect([...vocabulary.byKey.values()]).not.toContain("react/vue");
    expect(vocabulary.byKey.get(skillKey("Kubernetes"))).toBe("kubernetes");
  });

  test("an everyday word counts in running text only when written as a name; a tag always counts", () => {
    expect(skillsIn("I go to meetups and write Python", vocabulary)).toEqual(["python"]);
    expect(skillsIn("Backend services in Go and Python", vocabulary)).toEqual(["go", "python"]);
    expect(skillsIn("Let's go.", vocabulary, ["Go"])).toEqual(["go"]);
  });

  test("a skill is the person's when the profile names it in any form, an everyday word in lowercase too; a name of two letters only with a capital", () => {
    const has = mentionsOf("I go to work on compliance; wrote Node.js services", vocabulary);
    expect(["go", "compliance", "node.js"].map((skill) => has(skillKey(skill)))).toEqual([false, true, true]);
    expect(mentionsOf("Go to market; services in Go", vocabulary)(skillKey("go"))).toBe(true);
    expect(skillsIn("I can not go to the office.", vocabulary)).toEqual([]);
    expect(skillsIn("Backend services in Go.", vocabulary)).toEqual(["go"]);
    expect(has(skillKey("python"))).toBe(false);
    expect(mentionsOf("熟悉微服务", vocabulary)(skillKey("微服务"))).toBe(true);
    // ".NET" keeps its dot: "net revenue" does not name it.
    expect(skillsIn("Grew net revenue by 18%", vocabulary)).toEqual([]);
  });

  test("the longest skill wins, spellings meet, Chinese skills are found as written", () => {
    expect(skillsIn("Apache Kafka, Spark Streaming, NodeJS", vocabulary)).toEqual(expect.arrayContaining(["kafka", "node.js"]));
    expect(skillsIn("熟悉微服务架构", vocabulary)).toEqual(["微服务"]);
  });
});

describe("a profile", () => {
  const cv = [
    "# Ana Lima",
    "Location: London",
    "Objective: a senior data engineer role",
    "## Experience",
    "Data Engineer, Acme (New York), 2016-2021: Spark, Kafka and Python pipelines",
    "Backend Developer, Mobile Co, 2012-2016",
    "8 years of experience",
    "Languages: English (native), Portuguese (fluent)",
  ].join("\n");

  test("titles sought first, then held; skills most mentioned first; years; languages", () => {
    const profile = read(cv);
    expect(profile.titles[0]).toBe("data engineer");
    expect(profile.titles).toContain("backend developer");
    expect(profile.skills.slice(0, 3).sort()).toEqual(["kafka", "python", "spark"]);
    expect(profile.years).toBe(8);
    expect(profile.languages).toEqual(["English", "Portuguese"]);
    // The most mentioned skill, then the title, as people type a job.
    expect(profile.query).toMatch(/^(kafka|python|spark) data engineer$/);
    // A skill the title names already is not searched again.
    expect(read("Python developer. Python, Kafka and Spark; Python every day.").query).toMatch(/^(kafka|spark) python developer$/);
  });

  test("seniority from the title sought, else from the years", () => {
    expect(read(cv).seniority).toBe("senior");
    expect(read("Data analyst, 3 years of experience with Python").seniority).toBe("mid");
    expect(read("Junior web developer, 6 years of experience").seniority).toBe("junior");
    expect(read("我是一名数据工程师，五年工作经验").years).toBe(5);
  });

  test("a level is no title: an internship sought says the seniority, the job is searched", () => {
    const profile = read("Student of statistics. Looking for an internship as a data scientist.");
    expect(profile).toMatchObject({ titles: ["data scientist"], seniority: "intern" });
    expect(profile.query).toStartWith("data scientist");
  });

  test("a title of one word that heads many others counts less than the headline's", () => {
    const profile = read(["Data Engineer", "Ran a team of engineers.", "Mentored engineers.", "Hired engineers."].join("\n"));
    expect(profile.titles[0]).toBe("data engineer");
  });

  test("a place where the person wants to work filters; where they are ranks; where they worked does neither", () => {
    expect(read(cv)).toMatchObject({ filters: {}, nearby: { city: "London" } });
    expect(read("Data engineer. Based in New York, happy to travel.")).toMatchObject({ filters: {}, nearby: { city: "New York" } });
    expect(read("Data engineer, relocating to New York next spring.")).toMatchObject({ filters: { city: "New York" }, nearby: {} });
    expect(read("Data engineer. Available for remote contracts.").filters).toMatchObject({ remote: true });
    // A wish said in other words; "only" makes "open to" a requirement; a wish wrapped onto the next line.
    expect(read("Data engineer. I'm only considering remote roles.").filters).toEqual({ remote: true });
    expect(read("Open to: data engineering roles, London only.").filters).toEqual({ city: "London" });
    expect(read("Data engineer with six years of pipelines behind me, and now I am looking for jobs in\nLondon, any office is fine.").filters).toEqual({ city: "London" });
    expect(read("数据工程师。只考虑远程。").filters).toEqual({ remote: true });
    // Remote or a place: either will do, which one set of filters cannot say.
    expect(read("Data engineer looking for remote work or a job in London.")).toMatchObject({ filters: {}, either: [{ remote: true }, { city: "London" }] });
    expect(read("Looking for a data engineer role in New York.\nLocation: London")).toMatchObject({ filters: { city: "New York" }, nearby: { city: "London" } });
    expect(read("Data Engineer at a firm in New York, 2016-2021")).toMatchObject({ filters: {}, nearby: {} });
    expect(read("Python developer looking for remote roles").filters).toEqual({ remote: true });
    // A wish stays a wish: "open to" ranks, it does not filter.
    expect(read("Python developer, open to remote work").filters).toEqual({});
  });

  test("a preference ranks: read in a wish or a line of its own, never a filter; both ways of it prefer neither", () => {
    expect(read("Data engineer, 6 years.\nI'd prefer a fully remote position.")).toMatchObject({ filters: {}, preferred: { remote: true } });
    expect(read("Data engineer. Open to roles in New York.")).toMatchObject({ filters: {}, preferred: { city: "New York" } });
    expect(read("Data engineer.\nIdeally remote, but hybrid in London works too.")).toMatchObject({ filters: {}, preferred: { remote: true, city: "London" } });
    expect(read("Data engineer. Happy with on-site, hybrid or remote.")).toMatchObject({ filters: {}, preferred: {} });
    // Where the person is stays where they are; a family required is not preferred as well.
    expect(read("Data engineer. Based in London, willing to travel.")).toMatchObject({ filters: {}, nearby: { city: "London" }, preferred: {} });
    expect(read("Data engineer looking for remote roles. Remote preferred.")).toMatchObject({ filters: { remote: true }, preferred: {} });
    expect(read("Data engineer. Will only consider roles in New York.").filters).toEqual({ city: "New York" });
    expect(read("Data engineer.\nPreferences: data engineering roles in London, hybrid is fine.").filters).toEqual({ city: "London" });
    // Under a header of wishes, each line is one; under another header, not.
    expect(read("# Ana\nData engineer, 6 years.\n## What I'm after\nA senior data role on a small team, remote.").filters).toEqual({ remote: true });
    expect(read("# Ana\nData engineer, 6 years.\n## Experience\nA senior data role on a small team, remote.").filters).toEqual({});
    expect(read("Data engineer.\nI'd rather work remotely.")).toMatchObject({ filters: {}, preferred: { remote: true } });
    // Where the person is, said in more words, ranks; a place they came from or studied in says nothing.
    expect(read("Data engineer.\nI'm in London.")).toMatchObject({ filters: {}, nearby: { city: "London" } });
    expect(read("Data engineer.\nHome base: London")).toMatchObject({ filters: {}, nearby: { city: "London" } });
    expect(read("Data engineer.\nGrew up in London, studied in New York.")).toMatchObject({ filters: {}, nearby: {}, preferred: {} });
    // A label of a wish: its value, or its own condition after a "yes".
    expect(read("Data engineer.\nDesired location: London").filters).toEqual({ city: "London" });
    expect(read("Data engineer.\nRemote: yes").filters).toEqual({ remote: true });
    expect(read("Data engineer.\nRemote: no").filters).toEqual({});
    expect(read("Data engineer.\nRemote: 4 years").filters).toEqual({});
    expect(read("Data engineer.\nWork type: contract / freelance").filters).toEqual({ employment_type: ["CONTRACTOR"] });
    expect(read("Data engineer. Would love a role in New York.").filters).toEqual({ city: "New York" });
    expect(read("Data engineer. Only open to London.").filters).toEqual({ city: "London" });
    // "… only" at a clause's end asks for what it names; "only" elsewhere does not.
    expect(read("Data engineer. Remote positions only, please — I moved to the coast last year.").filters).toEqual({ remote: true });
    expect(read("Data engineer. I have only 3 years of experience in London.").filters).toEqual({});
    // A move is a wish, to its clause's end; places preferred apart are one list.
    expect(read("Data engineer. Willing to move to New York or London for the right role — I'm in Reading now.").filters).toEqual({ city: ["New York", "London"] });
    expect(read("Data engineer. Ideally I'd stay in London — New York would work as well.").preferred).toEqual({ city: ["London", "New York"] });
    // Where a wish's sentence says the person is stays where they are, to its clause's end.
    expect(read("Data engineer. Based in London, open to remote.")).toMatchObject({ filters: {}, nearby: { city: "London" }, preferred: { remote: true } });
    expect(read("Data engineer. I live in a small town near London and I'm only considering remote roles.").filters).toEqual({ remote: true });
  });

  test("a Chinese profile: its Chinese title, skills and city", () => {
    const profile = read("前端开发工程师，熟悉 React 和 Vue。期望城市：北京");
    expect(profile.titles[0]).toMatch(/前端/);
    expect(profile.skills).toEqual(expect.arrayContaining(["react", "vue"]));
    expect(profile.filters).toEqual({ city: "北京" });
  });
});
