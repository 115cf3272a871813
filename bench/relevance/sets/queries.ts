/**
 * The judged query set of `bun run eval`, written from the shared postings (../shared/data/jobs.jsonl.gz)
 * and from how people search for jobs, independently of the search code (query expansion must not be
 * tuned to it). A judge is a case-insensitive regex over what a reader sees first of a posting: its title
 * and the first 300 characters of its description (judge.ts). `tags` also accepts a posting by one whole
 * tag; it is used sparingly, because tags are keyword hits anywhere in the text ("iOS" tags a backend
 * posting that mentions the company's app): only for flags (remote, visa) and the Chinese role tags.
 *
 * The comment after each query: how many postings its judge accepts in the data (of how many its
 * filters allow). eval.ts recounts them, warns below 15, and prints the share as `base`.
 */
import type { SearchFilters } from "../../../shared/search.ts";
import { parseDateTime } from "../../../shared/time.ts";
import type { FieldJudge } from "./constraint-queries.ts";

export type QueryKind = "keyword" | "paraphrase" | "chinese" | "filtered" | "constraint" | "typo" | "unseen typo";

export interface JudgedQuery {
  query: string;
  kind: QueryKind;
  filters?: SearchFilters;
  /** Relevant when this matches the title + the first 300 characters of the description. */
  relevant: RegExp;
  /** Also relevant when one whole tag matches this. */
  tags?: RegExp;
  /** Conditions on the posting's raw fields that must hold too (constraint-queries.ts). */
  fields?: FieldJudge;
  /** Reported, never tuned on. */
  heldOut?: boolean;
}

// Judges, most of them shared by a keyword query and a paraphrase: the same need in other words.
const IOS = /\bios\b|iphone|ipad|\bswift\b|objective-c|cocoa/i;
const ANDROID = /android|kotlin/i;
const DEVOPS = /devops|dev ops|kubernetes|k8s|site reliability|\bsre\b|infrastructure engineer|platform engineer|docker/i;
const OPS =
  /devops|dev ops|site reliability|\bsre\b|sysadmin|system administrator|systems? (engineer|administrator)|operations engineer|ops engineer|on.call|infrastructure engineer|production engineer|\bnoc\b/i;
const SECURITY =
  /security (engineer|analyst|researcher|architect|team|operations|specialist|expert|consultant)|infosec|information security|pen ?test|penetration|appsec|application security|threat|vulnerab|soc analyst|malware|intrusion|cyber/i;
const VISION =
  /computer vision|image (recognition|processing|analysis|understanding)|deep learning|convolutional|object (detection|recognition)|visual recognition|perception|\bcv\b/i;
const FRONTEND = /front.?end|web design|\bui (engineer|developer)|ui\/ux|\bcss\b|web developer|react|javascript (engineer|developer)/i;
const BACKEND = /back.?end|server.side|\bapi\b|platform engineer|distributed systems/i;
/** Both a backend role and Python, in either order. */
const BACKEND_PYTHON = /^(?=[\s\S]*(back.?end|server|\bapi\b|platform|infrastructure|distributed))(?=[\s\S]*(python|django|flask))/i;
const DESIGN =
  /product design|\bux\b|\bui\/ux|user experience design|interaction design|visual design|(ux|ui|product|visual|web|graphic|interaction|interface) designers?|user research/i;
const DATA_ENGINEERING = /data engineer|spark|hadoop|\betl\b|data pipeline|data (infrastructure|platform|warehouse)|big data|kafka/i;
const DATA_SCIENCE = /data scien|statistic|machine learning|data analyst|quantitative analyst|analytics engineer/i;
const ML = /machine learning|\bml\b|deep learning|data scien|artificial intelligence|\bai\b|neural net/i;
const NLP = /\bnlp\b|natural language|speech recognition|language model|computational linguist|text mining|chatbot/i;
const EMBEDDED = /embedded|firmware|microcontroller|\brtos\b|bare.metal|fpga|device drivers?|hardware engineer/i;
const QA = /\bqa\b|quality assurance|test automation|automation engineer|\bsdet\b|(engineer|developer) in test|\btesters?\b|test engineer/i;
const RUBY = /\brails\b|\bruby\b/i;
const ELIXIR = /elixir|erlang|\botp\b/i;
const CPP = /c\+\+/i;
const SUPPORT =
  /customer support|support engineer|customer success|technical support|support specialist|customer service|help ?desk|support (rep|team|agent)/i;
const SALES =
  /\bsales (engineer|rep|representative|manager|lead|director|executive|development|associate|role|position|hire|people)|(head|vp|director) of sales|inside sales|salesperson|account executive|business development|account manager|\bsdr\b|\bbdr\b/i;
const PRODUCT_MANAGER = /product manag|product owner|head of product|(director|vp) of product/i;
const ENGINEERING_MANAGER = /engineering manager|(director|vp|head|vice president) of engineering|engineering (lead|director)|team lead|tech lead/i;
const GAMES = /\bgames?\b|gaming|game (developer|designer|engine|studio)|\bunity\b|unreal engine/i;
const BLOCKCHAIN = /blockchain|ethereum|cryptocurrenc|\bcrypto\b|bitcoin|smart contract|decentrali|web3|solidity/i;
const ROBOTICS = /robot|autonomous (vehicle|driving|system)|self.driving|drone|lidar|perception/i;
const INTERNSHIP = /\binterns?\b|\binternships?\b|\bco-?op\b/i;
const MARKETING =
  /(marketing|growth) (manager|lead|director|specialist|hacker|marketer|engineer|associate|coordinator|analyst|role|position)|(head|vp|director) of (marketing|growth)|growth hack|\bmarketers?\b|\bseo\b|content (strategist|writer|marketer)|user acquisition/i;
const TECH_WRITER =
  /technical writ|documentation (engineer|writer|specialist)|tech(nical)? writer|docs? writer|developer (advocate|evangelist)|developer relations/i;
const REMOTE = /remote|work from (home|anywhere)|distributed team|telecommut/i;
const VISA = /\bvisas?\b|h-?1-?b|sponsorship|work permit/i;
// Chinese judges accept Chinese postings only: they say what a person searching in Chinese is after.
const ZH_FRONTEND = /前端|web前端|h5开发/i;
const ZH_BACKEND = /后端|后台开发|服务端|服务器端|java\s*(开发|工程师|研发)|golang\s*(开发|工程师)|go\s*(开发|工程师)/i;
const ZH_PRODUCT_MANAGER = /产品经理|产品负责人|产品专员|产品总监/i;
const ZH_ALGORITHMS = /算法|机器学习|深度学习|自然语言|计算机视觉|推荐系统|大模型/i;
const ZH_TEST = /测试(开发)?工程师|测试开发|测试专家|测试经理|测试负责人|质量保障/i;
const ZH_OPS = /运维|容器平台|云原生|稳定性保障|可靠性工程/i;
/** An English query over the Chinese postings, which write many skills in English. */
const ML_IN_CHINESE_POSTINGS = /算法|机器学习|深度学习|machine learning|\bnlp\b|自然语言|计算机视觉|推荐系统|大模型|\bai\b/i;

export const QUERIES: JudgedQuery[] = [
  // --- keyword: the words people type, mostly the words postings use ---
  { kind: "keyword", query: "ios developer", relevant: IOS }, // 1896
  { kind: "keyword", query: "android developer", relevant: ANDROID }, // 1484
  { kind: "keyword", query: "data engineer spark", relevant: DATA_ENGINEERING }, // 1512
  { kind: "keyword", query: "devops kubernetes", relevant: DEVOPS }, // 2646
  { kind: "keyword", query: "embedded firmware", relevant: EMBEDDED }, // 429
  { kind: "keyword", query: "product designer", relevant: DESIGN }, // 1032
  { kind: "keyword", query: "machine learning engineer", relevant: ML }, // 2664
  { kind: "keyword", query: "frontend react developer", relevant: FRONTEND }, // 5943
  { kind: "keyword", query: "backend engineer python", relevant: BACKEND_PYTHON }, // 634
  { kind: "keyword", query: "data scientist", relevant: DATA_SCIENCE }, // 2102
  { kind: "keyword", query: "site reliability engineer", relevant: OPS }, // 2682
  { kind: "keyword", query: "security engineer", relevant: SECURITY }, // 483
  { kind: "keyword", query: "qa automation engineer", relevant: QA }, // 678
  { kind: "keyword", query: "ruby on rails", relevant: RUBY }, // 1699
  { kind: "keyword", query: "elixir erlang", relevant: ELIXIR }, // 168
  { kind: "keyword", query: "product manager", relevant: PRODUCT_MANAGER }, // 694
  { kind: "keyword", query: "sales account executive", relevant: SALES }, // 363
  { kind: "keyword", query: "computer vision", relevant: VISION }, // 420
  { kind: "keyword", query: "game developer unity", relevant: GAMES }, // 548
  { kind: "keyword", query: "blockchain ethereum", relevant: BLOCKCHAIN }, // 342
  { kind: "keyword", query: "engineering manager", relevant: ENGINEERING_MANAGER }, // 551
  { kind: "keyword", query: "c++ developer", relevant: CPP }, // 464
  { kind: "keyword", query: "software engineering internship", relevant: INTERNSHIP }, // 1328

  // --- paraphrase: the need in other words, sharing few words with the postings ---
  { kind: "paraphrase", query: "someone to build apps for iPhones", relevant: IOS }, // 1896
  { kind: "paraphrase", query: "make apps for Samsung and Google phones", relevant: ANDROID }, // 1484
  { kind: "paraphrase", query: "protect our systems from hackers", relevant: SECURITY }, // 483
  { kind: "paraphrase", query: "keep the servers running at night", relevant: OPS }, // 2682
  { kind: "paraphrase", query: "teach computers to recognize images", relevant: VISION }, // 420
  { kind: "paraphrase", query: "make the website look good", relevant: FRONTEND }, // 5943
  { kind: "paraphrase", query: "draw the screens and flows people tap through", relevant: DESIGN }, // 1032
  { kind: "paraphrase", query: "help customers who have problems with our product", relevant: SUPPORT }, // 368
  { kind: "paraphrase", query: "find patterns in large amounts of numbers", relevant: DATA_SCIENCE }, // 2102
  { kind: "paraphrase", query: "move huge amounts of records between systems every night", relevant: DATA_ENGINEERING }, // 1512
  { kind: "paraphrase", query: "write code that runs on tiny chips inside devices", relevant: EMBEDDED }, // 429
  { kind: "paraphrase", query: "convince companies to buy our software", relevant: SALES }, // 363
  { kind: "paraphrase", query: "teach machines to understand human language", relevant: NLP }, // 283
  { kind: "paraphrase", query: "make sure the software has no bugs before release", relevant: QA }, // 678
  { kind: "paraphrase", query: "write guides and manuals for programmers", relevant: TECH_WRITER }, // 96
  { kind: "paraphrase", query: "decide what features we build next and talk to users", relevant: PRODUCT_MANAGER }, // 694
  { kind: "paraphrase", query: "lead a team of programmers", relevant: ENGINEERING_MANAGER }, // 551
  { kind: "paraphrase", query: "build things people play for fun", relevant: GAMES }, // 548
  { kind: "paraphrase", query: "work on digital money and decentralized ledgers", relevant: BLOCKCHAIN }, // 342
  { kind: "paraphrase", query: "students who want a summer job writing software", relevant: INTERNSHIP }, // 1328
  { kind: "paraphrase", query: "get more people to sign up and come back", relevant: MARKETING }, // 498
  { kind: "paraphrase", query: "systems that learn from examples to make predictions", relevant: ML }, // 2664
  { kind: "paraphrase", query: "machines that move around and drive themselves", relevant: ROBOTICS }, // 401
  { kind: "paraphrase", query: "work from my kitchen table in any country", relevant: REMOTE, tags: /remote/i }, // 6081
  { kind: "paraphrase", query: "help foreigners get the papers they need to work here", relevant: VISA, tags: /visa-sponsorship/i }, // 2554

  // --- chinese: the ruanyf-weekly postings use titles like 前端开发工程师, Java后端开发, 产品经理 ---
  { kind: "chinese", query: "前端工程师", relevant: ZH_FRONTEND, tags: /前端|web前端|前端开发/i }, // 901
  { kind: "chinese", query: "后端开发", relevant: ZH_BACKEND, tags: /后端|后端开发|后台开发|服务端/i }, // 675
  { kind: "chinese", query: "产品经理", relevant: ZH_PRODUCT_MANAGER }, // 118
  { kind: "chinese", query: "算法工程师", relevant: ZH_ALGORITHMS }, // 319
  { kind: "chinese", query: "测试开发工程师", relevant: ZH_TEST }, // 110
  { kind: "chinese", query: "运维工程师", relevant: ZH_OPS }, // 175

  // --- filtered: a query with city / country / time / source filters ---
  { kind: "filtered", query: "backend engineer", filters: { city: "Berlin" }, relevant: BACKEND }, // 148 of 563
  { kind: "filtered", query: "machine learning", filters: { country: "GB" }, relevant: ML }, // 160 of 2109
  { kind: "filtered", query: "ios developer", filters: { since: date("2017-01-01") }, relevant: IOS }, // 558 of 10987
  { kind: "filtered", query: "data scientist", filters: { city: "New York" }, relevant: DATA_SCIENCE }, // 227 of 3287
  { kind: "filtered", query: "devops engineer", filters: { country: "DE", until: date("2016-01-01") }, relevant: OPS }, // 36 of 240
  { kind: "filtered", query: "frontend developer", filters: { city: "London", since: date("2016-06-01") }, relevant: FRONTEND }, // 230 of 904
  { kind: "filtered", query: "machine learning", filters: { source: "ruanyf-weekly" }, relevant: ML_IN_CHINESE_POSTINGS }, // 393 of 1669
  { kind: "filtered", query: "产品经理", filters: { source: "ruanyf-weekly", since: date("2021-01-01") }, relevant: ZH_PRODUCT_MANAGER }, // 90 of 1334
];

// --- internal ---

function date(value: string): number {
  const seconds = parseDateTime(value);
  if (seconds === undefined) throw new Error(`bad date in the query set: ${value}`);
  return seconds;
}
