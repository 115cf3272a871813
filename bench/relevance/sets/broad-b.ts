/**
 * Broad set B, own half: judged queries written from the shared postings before any tuning, in three kinds
 * of 50 each, split by a seeded shuffle per kind into this half and a held-out half (broad-b-held-out.ts):
 *
 * - stated constraints (kind "constraint"): a role plus conditions in words (place, remote or on-site,
 *   seniority, employment type, year), judged by the role regex AND the FieldJudge on the raw fields;
 * - long conversational and agent-style requests (kind "paraphrase", 2-4 sentences): the role inside
 *   wrapper words, plus the hard condition when one is stated (a preference is not judged);
 * - condition-only (kind "constraint", role judge ANY matching everything): a place, remote, a seniority,
 *   an employment type, a year, or two of these; every posting meeting the conditions is relevant.
 *
 * Each has at least 10 relevant postings in the data (counted with countRelevant of evaluate.ts).
 */
import type { FieldJudge } from "./constraint-queries.ts";
import type { JudgedQuery, QueryKind } from "./queries.ts";

const PY = /python|django|flask/i;
const FRONT = /front.?end|react|vue|angular|javascript|typescript/i;
const BACK = /back.?end|server.side|\bapi\b|distributed systems|platform engineer/i;
const FULLSTACK = /full.?stack/i;
const DATA_SCI = /data scien|machine learning|statistic|data analy|analytics/i;
const DATA_ENG = /data engineer|\betl\b|data pipeline|spark|hadoop|data warehouse|data infrastructure/i;
const DEVOPS = /devops|site reliability|\bsre\b|infrastructure|kubernetes|platform engineer/i;
const IOS = /\bios\b|iphone|\bswift\b|objective-c/i;
const ANDROID = /android|kotlin/i;
const RUBY = /\bruby\b|\brails\b/i;
const JAVA = /\bjava\b|\bjvm\b|\bspring\b/i;
const GO = /golang|\bgo\b/i;
const DESIGN = /designer|\bux\b|\bui\b|user experience|product design|visual design/i;
const PM = /product manager|product management|product owner|product lead/i;
const SECURITY = /security|infosec|penetration|appsec|cyber/i;
const SALES = /\bsales\b|account executive|business development|account manager/i;
const MARKETING = /marketing|\bgrowth\b|\bseo\b|content (writer|strategist|manager)/i;
const EMBEDDED = /embedded|firmware|fpga|microcontroller|hardware engineer/i;
const ENG = /engineer|developer|programmer/i;
const NODE = /node\.?js|\bnode\b/i;
const SCALA = /\bscala\b/i;
const DOTNET = /\.net\b|c#/i;
const ELIXIR = /elixir|erlang/i;
const CN_FRONT = /前端|front.?end|react|vue/i;
const CN_BACK = /后端|后台|服务端|back.?end|java|golang|\bgo\b|python/i;
const NLP = /\bnlp\b|natural language|machine learning|\bml\b/i;
const RUST = /\brust\b/i;
const VISION = /computer vision|image (processing|recognition)|perception|object detection|deep learning/i;
const FUNCTIONAL = /haskell|functional programming|ocaml|clojure|\bscala\b|elixir|erlang|f#/i;
const DATA_ANY = /data (engineer|scien|analy)|analytics|machine learning|\bsql\b/i;
const ANY = /(?:)/i;

const SENIOR: FieldJudge = { seniority: ["senior", "lead"], seniorityTitle: /\bsenior\b|\bsr\.?\s/i };
const LEAD: FieldJudge = { seniority: ["lead"], seniorityTitle: /\blead\b|\bprincipal\b|\bstaff\b/i };
const JUNIOR: FieldJudge = { seniority: ["junior"], seniorityTitle: /\bjunior\b|\bjr\.?\s|entry.level|new grad|graduate/i };
const DIRECTOR: FieldJudge = { seniority: ["director", "executive"], seniorityTitle: /\bdirector\b|\bvp\b|vice president|head of|\bcto\b|chief/i };
const INTERN: FieldJudge = { internship: true };
const FULL_TIME: FieldJudge = { employment: ["FULL_TIME"], employmentTags: ["full-time", "full time"] };
const PART_TIME: FieldJudge = { employment: ["PART_TIME"], employmentTags: ["part-time", "part time"] };
const CONTRACT: FieldJudge = { employment: ["CONTRACTOR"], employmentTags: ["contract", "contractor", "freelance"] };
const BAY_AREA: FieldJudge = { cities: ["San Francisco", "Palo Alto", "Mountain View", "Redwood City", "San Mateo", "Menlo Park", "Sunnyvale", "Oakland", "Berkeley", "San Jose", "Santa Clara", "Burlingame", "South San Francisco", "Emeryville", "Cupertino", "Los Altos", "Foster City", "San Bruno", "Fremont", "Milpitas"] };

function q(query: string, kind: QueryKind, relevant: RegExp, fields?: FieldJudge): JudgedQuery {
  return { query, kind, relevant, ...(fields ? { fields } : {}) };
}

export const BROAD_B: JudgedQuery[] = [
  // stated constraints
  q("remote golang backend developer", "constraint", GO, { remote: true }),
  q("data engineer San Francisco", "constraint", DATA_ENG, { cities: ["San Francisco"] }),
  q("full stack developer in Toronto", "constraint", FULLSTACK, { cities: ["Toronto"] }),
  q("iOS developer, fully remote", "constraint", IOS, { remote: true }),
  q("senior ruby engineer, remote", "constraint", RUBY, { remote: true, ...SENIOR }),
  q("product manager role in San Francisco", "constraint", PM, { cities: ["San Francisco"] }),
  q("security engineer in the United States", "constraint", SECURITY, { countries: ["US"] }),
  q("backend developer in Shanghai", "constraint", CN_BACK, { cities: ["上海"] }),
  q("software engineering intern, Bay Area", "constraint", ENG, { ...BAY_AREA, ...INTERN }),
  q("lead engineer in Boston", "constraint", ENG, { cities: ["Boston"], ...LEAD }),
  q("entry level data analyst", "constraint", DATA_SCI, JUNIOR),
  q("node.js jobs 2016", "constraint", NODE, { year: 2016 }),
  q("elixir developer, 2017 postings", "constraint", ELIXIR, { year: 2017 }),
  q("data scientist Germany", "constraint", DATA_SCI, { countries: ["DE"] }),
  q("devops engineer in Canada", "constraint", DEVOPS, { countries: ["CA"] }),
  q("scala engineer in London", "constraint", SCALA, { cities: ["London"] }),
  q("backend engineer san francisco, full time, on site", "constraint", BACK, { cities: ["San Francisco"], remote: false, ...FULL_TIME }),
  q("sales jobs in New York", "constraint", SALES, { cities: ["New York"] }),
  q("marketing roles London", "constraint", MARKETING, { cities: ["London"] }),
  q("computer vision engineer in the Bay Area", "constraint", VISION, BAY_AREA),
  q("python developer Austin TX", "constraint", PY, { cities: ["Austin"] }),
  q("北京 Java 工程师", "constraint", JAVA, { cities: ["北京"] }),
  q("remote software engineer, posted 2015", "constraint", ENG, { remote: true, year: 2015 }),
  q("software developer India", "constraint", ENG, { countries: ["IN"] }),
  q("android developer jobs from 2013", "constraint", ANDROID, { year: 2013 }),
  // long conversational and agent-style requests
  q("Looking for my next gig. I do React and TypeScript on the front end and would like to keep doing that. Anything in New York?", "paraphrase", FRONT, { cities: ["New York"] }),
  q("Task: retrieve job postings for a mid-career data scientist. The user leans toward healthcare companies but will consider anything. Return the top results.", "paraphrase", DATA_SCI),
  q("I run Kubernetes clusters and CI pipelines at my current job and I'm getting bored. Show me devops or SRE positions I could apply for. I only want remote work.", "paraphrase", DEVOPS, { remote: true }),
  q("Agent request: search for Android developer jobs. Constraint: the job must be located in Canada. Output up to ten results.", "paraphrase", ANDROID, { countries: ["CA"] }),
  q("hey, i'm a student and i want a summer internship doing machine learning or data stuff. anything good?", "paraphrase", DATA_ANY, INTERN),
  q("I have fifteen years of Java behind me, mostly in banking. I'm ready for a senior position somewhere new. Any suggestions?", "paraphrase", JAVA, SENIOR),
  q("I'm only available a few days a week because of childcare. Could you look for part-time developer work? Any stack is fine.", "paraphrase", ENG, PART_TIME),
  q("I freelance and prefer contract work over permanent jobs. My main skill is frontend development. Find me something, please.", "paraphrase", FRONT, CONTRACT),
  q("I'm moving to Toronto next month. I'm a backend engineer, mainly Go and Python. Could you show me what's available there?", "paraphrase", BACK, { cities: ["Toronto"] }),
  q("Find jobs for someone who writes embedded C on microcontrollers and designs firmware. They would prefer hardware startups.", "paraphrase", EMBEDDED),
  q("I've been a product manager at two startups and now want a PM role at a larger company. It needs to be in the Bay Area. What can you find?", "paraphrase", PM, BAY_AREA),
  q("I'm a data analyst who lives in London and wants to stay there. SQL, Excel, a bit of Python. What would fit me?", "paraphrase", DATA_SCI, { cities: ["London"] }),
  q("Hello. I am looking for a job as a machine learning engineer working on language problems. Ideally something remote, but I'm flexible.", "paraphrase", NLP),
  q("Please search the job database for Scala developers. The user has Spark and Akka experience. Results from any location are acceptable.", "paraphrase", SCALA),
  q("I'm a node.js developer and I'd like to work on APIs. Bonus points if the team uses TypeScript. What do you have?", "paraphrase", NODE),
  q("User profile: frontend engineer, 8 years of experience, Vue and React. Return matching senior-level frontend positions only.", "paraphrase", FRONT, SENIOR),
  q("Agent note: the user is a Chinese-speaking frontend developer living in Shanghai. Find frontend jobs in Shanghai for them.", "paraphrase", CN_FRONT, { cities: ["上海"] }),
  q("我在北京，做了三年后端开发，主要用 Go 和 Java。有没有适合我的职位？只考虑北京的。", "paraphrase", CN_BACK, { cities: ["北京"] }),
  q("Return full-time positions for a .NET / C# developer. The user wants stability, so no contracts or part-time gigs.", "paraphrase", DOTNET, FULL_TIME),
  q("I'm a site reliability engineer and want to move to Seattle. Please find SRE or infrastructure jobs there.", "paraphrase", DEVOPS, { cities: ["Seattle"] }),
  q("I'm a Rust enthusiast. Are there any jobs where I could write Rust professionally? Location doesn't matter to me.", "paraphrase", RUST),
  q("Our recruiting agent needs postings for computer vision engineers. Robotics or self-driving experience is a plus. Any region.", "paraphrase", VISION),
  q("I'm into Haskell and functional programming in general; I've used OCaml and Clojure too. What jobs are out there for me?", "paraphrase", FUNCTIONAL),
  q("Hey tool, list openings for a Go engineer. It must be remote, since the user lives in a small town. Distributed systems work preferred.", "paraphrase", GO, { remote: true }),
  q("I'm a designer who loves mobile apps and illustration. Could you find UI or visual design positions in New York?", "paraphrase", DESIGN, { cities: ["New York"] }),
  // condition-only (no role: every posting meeting the conditions is relevant)
  q("jobs in Berlin", "constraint", ANY, { cities: ["Berlin"] }),
  q("remote", "constraint", ANY, { remote: true }),
  q("internships", "constraint", ANY, INTERN),
  q("part-time", "constraint", ANY, PART_TIME),
  q("positions posted in 2016", "constraint", ANY, { year: 2016 }),
  q("jobs in the Netherlands", "constraint", ANY, { countries: ["NL"] }),
  q("entry level positions", "constraint", ANY, JUNIOR),
  q("director-level jobs", "constraint", ANY, DIRECTOR),
  q("postings from 2021", "constraint", ANY, { year: 2021 }),
  q("北京的工作机会", "constraint", ANY, { cities: ["北京"] }),
  q("Hangzhou", "constraint", ANY, { cities: ["杭州"] }),
  q("full-time positions in Boston", "constraint", ANY, { cities: ["Boston"], ...FULL_TIME }),
  q("jobs in Ireland", "constraint", ANY, { countries: ["IE"] }),
  q("Sweden", "constraint", ANY, { countries: ["SE"] }),
  q("lead roles in San Francisco", "constraint", ANY, { cities: ["San Francisco"], ...LEAD }),
  q("jobs in Chicago posted in 2015", "constraint", ANY, { cities: ["Chicago"], year: 2015 }),
  q("internship 2017", "constraint", ANY, { ...INTERN, year: 2017 }),
  q("Canada, full time", "constraint", ANY, { countries: ["CA"], ...FULL_TIME }),
  q("postings from 2018", "constraint", ANY, { year: 2018 }),
  q("on-site jobs in London", "constraint", ANY, { cities: ["London"], remote: false }),
  q("Denver", "constraint", ANY, { cities: ["Denver"] }),
  q("Paris jobs", "constraint", ANY, { cities: ["Paris"] }),
  q("Vancouver", "constraint", ANY, { cities: ["Vancouver"] }),
  q("Agent: list every internship in Germany.", "constraint", ANY, { countries: ["DE"], ...INTERN }),
  q("2023 postings", "constraint", ANY, { year: 2023 }),
];
