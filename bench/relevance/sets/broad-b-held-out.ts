/**
 * Broad set B, held-out half: frozen before any tuning (its sha256 is in broad-b-held-out.sha256). Report it,
 * never tune on it, never edit it. The same three kinds as broad-b.ts (see there), the other seeded half.
 */
import type { FieldJudge } from "./constraint-queries.ts";
import type { JudgedQuery, QueryKind } from "./queries.ts";

const PY = /python|django|flask/i;
const FRONT = /front.?end|react|vue|angular|javascript|typescript/i;
const FULLSTACK = /full.?stack/i;
const DATA_SCI = /data scien|machine learning|statistic|data analy|analytics/i;
const DATA_ENG = /data engineer|\betl\b|data pipeline|spark|hadoop|data warehouse|data infrastructure/i;
const ML = /machine learning|\bml\b|deep learning|\bai\b|neural/i;
const DEVOPS = /devops|site reliability|\bsre\b|infrastructure|kubernetes|platform engineer/i;
const IOS = /\bios\b|iphone|\bswift\b|objective-c/i;
const ANDROID = /android|kotlin/i;
const MOBILE = /mobile|\bios\b|android|react native/i;
const RUBY = /\bruby\b|\brails\b/i;
const JAVA = /\bjava\b|\bjvm\b|\bspring\b/i;
const DESIGN = /designer|\bux\b|\bui\b|user experience|product design|visual design/i;
const SECURITY = /security|infosec|penetration|appsec|cyber/i;
const QA = /\bqa\b|quality assurance|test automation|\bsdet\b|test engineer|\btesters?\b/i;
const SALES = /\bsales\b|account executive|business development|account manager/i;
const MARKETING = /marketing|\bgrowth\b|\bseo\b|content (writer|strategist|manager)/i;
const SUPPORT = /support|customer success|customer service|help ?desk/i;
const EMBEDDED = /embedded|firmware|fpga|microcontroller|hardware engineer/i;
const ENG = /engineer|developer|programmer/i;
const CPP = /c\+\+/i;
const PHP = /\bphp\b|laravel/i;
const DOTNET = /\.net\b|c#/i;
const CN_FRONT = /前端|front.?end|react|vue/i;
const WRITER = /technical writ|documentation|\bwriter\b/i;
const LEADER = /engineering manager|manager of engineering|head of engineering|director of engineering|vp of engineering|\bvp,? engineering|team lead|tech lead/i;
const BACK_JVM_PY = /back.?end|\bjava\b|python/i;
const DATA_ANY = /data (engineer|scien|analy)|analytics|machine learning|\bsql\b/i;
const ANY = /(?:)/i;

const SENIOR: FieldJudge = { seniority: ["senior", "lead"], seniorityTitle: /\bsenior\b|\bsr\.?\s/i };
const JUNIOR: FieldJudge = { seniority: ["junior"], seniorityTitle: /\bjunior\b|\bjr\.?\s|entry.level|new grad|graduate/i };
const DIRECTOR: FieldJudge = { seniority: ["director", "executive"], seniorityTitle: /\bdirector\b|\bvp\b|vice president|head of|\bcto\b|chief/i };
const EXECUTIVE: FieldJudge = { seniority: ["executive"], seniorityTitle: /\bcto\b|\bceo\b|\bcoo\b|chief|vice president|\bvp\b/i };
const INTERN: FieldJudge = { internship: true };
const FULL_TIME: FieldJudge = { employment: ["FULL_TIME"], employmentTags: ["full-time", "full time"] };
const PART_TIME: FieldJudge = { employment: ["PART_TIME"], employmentTags: ["part-time", "part time"] };
const CONTRACT: FieldJudge = { employment: ["CONTRACTOR"], employmentTags: ["contract", "contractor", "freelance"] };

function q(query: string, kind: QueryKind, relevant: RegExp, fields?: FieldJudge): JudgedQuery {
  return { query, kind, relevant, ...(fields ? { fields } : {}), heldOut: true };
}

export const BROAD_B_HELD_OUT: JudgedQuery[] = [
  // stated constraints
  q("senior python engineer, London", "constraint", PY, { cities: ["London"], ...SENIOR }),
  q("react developer in New York, on-site", "constraint", FRONT, { cities: ["New York"], remote: false }),
  q("machine learning engineer palo alto", "constraint", ML, { cities: ["Palo Alto"] }),
  q("android engineer based in London", "constraint", ANDROID, { cities: ["London"] }),
  q("site reliability engineer in NYC", "constraint", DEVOPS, { cities: ["New York"] }),
  q("UX designer London", "constraint", DESIGN, { cities: ["London"] }),
  q("java developer jobs UK", "constraint", JAVA, { countries: ["GB"] }),
  q("frontend engineer Amsterdam", "constraint", FRONT, { cities: ["Amsterdam"] }),
  q("杭州 前端开发", "constraint", CN_FRONT, { cities: ["杭州"] }),
  q("contract react developer", "constraint", FRONT, CONTRACT),
  q("part-time software developer", "constraint", ENG, PART_TIME),
  q("director of engineering, San Francisco", "constraint", ENG, { cities: ["San Francisco"], ...DIRECTOR }),
  q("junior web developer", "constraint", FRONT, JUNIOR),
  q("c++ developer posted in 2014", "constraint", CPP, { year: 2014 }),
  q("kubernetes engineer 2018", "constraint", DEVOPS, { year: 2018 }),
  q("mobile developer Chicago", "constraint", MOBILE, { cities: ["Chicago"] }),
  q("php developer remote", "constraint", PHP, { remote: true }),
  q("full-time embedded engineer", "constraint", EMBEDDED, FULL_TIME),
  q("senior data engineer (remote)", "constraint", DATA_ENG, { remote: true, ...SENIOR }),
  q("QA engineer San Francisco", "constraint", QA, { cities: ["San Francisco"] }),
  q("remote customer support", "constraint", SUPPORT, { remote: true }),
  q("front-end engineer in Los Angeles", "constraint", FRONT, { cities: ["Los Angeles"] }),
  q("machine learning research internship", "constraint", ML, INTERN),
  q("senior iOS engineer New York", "constraint", IOS, { cities: ["New York"], ...SENIOR }),
  q(".NET developer in the US", "constraint", DOTNET, { countries: ["US"] }),
  // long conversational and agent-style requests
  q("Hi! I've been writing Python for about six years, mostly Django backends. Could you find me openings where that experience would count? Remote would be lovely but it isn't a must.", "paraphrase", PY),
  q("I'm an AI assistant helping a user relocate to Berlin. Please return software engineering positions located in Berlin. Prioritize recent postings if possible.", "paraphrase", ENG, { cities: ["Berlin"] }),
  q("My sister just finished her CS degree and is hunting for her first job. She wants something entry-level in software. Can you list a few?", "paraphrase", ENG, JUNIOR),
  q("Can you help me out? I build iPhone apps in Swift and want to join a bigger team. It has to be in San Francisco.", "paraphrase", IOS, { cities: ["San Francisco"] }),
  q("The user is a designer with a strong UX portfolio. Find product or UX design roles. Location: London.", "paraphrase", DESIGN, { cities: ["London"] }),
  q("I've done a bit of everything, frontend, backend, databases. I think full stack roles suit me best. What's out there right now?", "paraphrase", FULLSTACK),
  q("Please find positions for a security engineer. The candidate has done penetration testing and incident response. No location preference.", "paraphrase", SECURITY),
  q("I want to get into data engineering: building pipelines, Spark, that kind of thing. Are there any openings for that in New York?", "paraphrase", DATA_ENG, { cities: ["New York"] }),
  q("You are helping me compile Ruby on Rails jobs for a friend. Only include roles that can be done remotely. Sort them by how well they fit.", "paraphrase", RUBY, { remote: true }),
  q("I'm a QA person who loves automation and writes Selenium tests all day. Which companies are hiring testers like me?", "paraphrase", QA),
  q("As an assistant, I need listings for engineering managers or heads of engineering. The user has led teams of ten or more. Please include only leadership roles.", "paraphrase", LEADER),
  q("Honestly I just want to write C++ somewhere interesting, games or trading or robotics. Can you show me some openings?", "paraphrase", CPP),
  q("I'd love to do customer success or support for a software company. I'm good with people and okay with technical stuff. Any leads?", "paraphrase", SUPPORT),
  q("My background is in sales: closing deals and managing accounts. I want to move into selling software. Help me find openings.", "paraphrase", SALES),
  q("Could you look up marketing positions at startups? Growth, content, SEO, any of those would work for me.", "paraphrase", MARKETING),
  q("I'm looking for work as a PHP developer and I know Laravel well. I'd be happy working from home, though an office is fine too.", "paraphrase", PHP),
  q("I'm a mobile developer who can do both iOS and Android. I'd like to work on consumer apps. What's available?", "paraphrase", MOBILE),
  q("Search for technical writer or documentation roles. The user has written API docs before and enjoys explaining things.", "paraphrase", WRITER),
  q("I have a PhD in statistics and want to leave academia. Something in data science would be great. I'd slightly prefer Boston.", "paraphrase", DATA_SCI),
  q("Find me jobs in Germany for a software developer. I only speak English, so international teams would be best.", "paraphrase", ENG, { countries: ["DE"] }),
  q("I'm a junior developer with one year of JavaScript experience and I'm looking for my second job. Show me junior roles please.", "paraphrase", ENG, JUNIOR),
  q("Could you find me something in Austin? I'm a software engineer, mostly Python with some Go.", "paraphrase", ENG, { cities: ["Austin"] }),
  q("The user wants to work at a company in Amsterdam as a developer. They do backend work in Java or Python. Return relevant listings.", "paraphrase", BACK_JVM_PY, { cities: ["Amsterdam"] }),
  q("I'm an experienced iOS engineer and I want to join a team in London. Please list iOS developer roles there.", "paraphrase", IOS, { cities: ["London"] }),
  q("Looking for a data internship for the summer. I know SQL and Python pretty well. Thanks in advance!", "paraphrase", DATA_ANY, INTERN),
  // condition-only (no role: every posting meeting the conditions is relevant)
  q("anything remote, full time", "constraint", ANY, { remote: true, ...FULL_TIME }),
  q("senior roles in London", "constraint", ANY, { cities: ["London"], ...SENIOR }),
  q("what's hiring in Toronto?", "constraint", ANY, { cities: ["Toronto"] }),
  q("contract work", "constraint", ANY, CONTRACT),
  q("show me everything in Seattle", "constraint", ANY, { cities: ["Seattle"] }),
  q("openings in France", "constraint", ANY, { countries: ["FR"] }),
  q("work in Australia", "constraint", ANY, { countries: ["AU"] }),
  q("on-site jobs in San Francisco", "constraint", ANY, { cities: ["San Francisco"], remote: false }),
  q("internships in New York", "constraint", ANY, { cities: ["New York"], ...INTERN }),
  q("jobs in Shanghai", "constraint", ANY, { cities: ["上海"] }),
  q("Shenzhen openings", "constraint", ANY, { cities: ["深圳"] }),
  q("remote jobs from 2014", "constraint", ANY, { remote: true, year: 2014 }),
  q("what can I find in Switzerland?", "constraint", ANY, { countries: ["CH"] }),
  q("contract roles in the US", "constraint", ANY, { countries: ["US"], ...CONTRACT }),
  q("senior positions, remote", "constraint", ANY, { remote: true, ...SENIOR }),
  q("anything in Austin", "constraint", ANY, { cities: ["Austin"] }),
  q("Los Angeles", "constraint", ANY, { cities: ["Los Angeles"] }),
  q("Amsterdam jobs", "constraint", ANY, { cities: ["Amsterdam"] }),
  q("work in India", "constraint", ANY, { countries: ["IN"] }),
  q("UK roles, remote-friendly", "constraint", ANY, { countries: ["GB"], remote: true }),
  q("executive positions", "constraint", ANY, EXECUTIVE),
  q("junior roles in San Francisco", "constraint", ANY, { cities: ["San Francisco"], ...JUNIOR }),
  q("part-time jobs in the US", "constraint", ANY, { countries: ["US"], ...PART_TIME }),
  q("Palo Alto openings posted in 2017", "constraint", ANY, { cities: ["Palo Alto"], year: 2017 }),
  q("any job in Spain", "constraint", ANY, { countries: ["ES"] }),
];
