/**
 * Broad judged set A, the own part (tuning may look at it). Written before any tuning of the search, in one pass, from the shared postings
 * (../shared/data/jobs.jsonl.gz) and from how people and AI agents phrase a job search; no query is taken from
 * the other sets, the docs or the issues. Four kinds, 40 + 40 + 40 + 30 queries in all:
 *
 * - keyword: terse queries ("golang engineer", "php laravel");
 * - paraphrase: the work described without its title, some conversational, one as an agent's tool call;
 * - misspelled (kind "typo"): keyword and paraphrase queries of the same half, mistyped by the seeded model of
 *   typing-errors.ts (observed misspellings from the postings, keyboard slips, dropped/doubled/swapped
 *   letters, split and joined words), judged by the original query's judge;
 * - chinese and mixed (kind "chinese"): Chinese titles, Chinese with an English skill, a Chinese city with a role.
 *
 * A judge is a case-insensitive regex over the posting's title and the first 300 characters of its description
 * (judge.ts judgedText), plus raw-field conditions (FieldJudge) where the query names a city or "remote"; it is
 * judged from the raw fields, never through the service's parser, and no search was run to choose the queries.
 * The comment after each query: how many of the 29,513 postings its judge accepts (every query has at least 10).
 *
 * Split: a seeded random half of each kind (seed 20261126) is held out in broad-a-held-out.ts, frozen with
 * its sha256 in broad-a-held-out.sha256 before any tuning. The held-out half is reported, never tuned on.
 */
import type { JudgedQuery } from "./queries.ts";

export const BROAD_A: JudgedQuery[] = [
  // --- keyword ---
  { kind: "keyword", query: "react native developer", relevant: /react.native/i }, // 124
  { kind: "keyword", query: "golang engineer", relevant: /golang|\bgo (engineer|developer|programmer)|\b(in|with|using|written in) go\b/i }, // 393
  { kind: "keyword", query: "scala functional programming", relevant: /\bscala\b/i }, // 352
  { kind: "keyword", query: "django", relevant: /django/i }, // 475
  { kind: "keyword", query: "angular developer", relevant: /angular/i }, // 645
  { kind: "keyword", query: "rust systems programmer", relevant: /\brust\b/i }, // 75
  { kind: "keyword", query: "postgres dba", relevant: /database (administrator|engineer|reliability|admin)|\bdba\b|postgres/i }, // 426
  { kind: "keyword", query: "search engineer elasticsearch", relevant: /elasticsearch|search (engineer|relevance|infrastructure|quality|ranking)|information retrieval|lucene|\bsolr\b/i }, // 220
  { kind: "keyword", query: "full stack developer", relevant: /full.?stack/i }, // 3952
  { kind: "keyword", query: "technical writer", relevant: /technical writ|documentation (engineer|writer|specialist)|tech writer|docs? writer/i }, // 36
  { kind: "keyword", query: "recruiter", relevant: /^(?![^\n]*\b(no|not|sorry|without|agency|agencies|spam)\b)[^\n]*(recruit|talent acquisition|sourcer)|(technical|in-house|internal) recruiter (role|position)|hiring (a|an) (technical |in-house )?recruiter/i }, // 30
  { kind: "keyword", query: "ux researcher", relevant: /ux research|user research|design research/i }, // 20
  { kind: "keyword", query: "quant developer", relevant: /\bquant|algorithmic trading|high.frequency|trading (systems|platform|firm)/i }, // 211
  { kind: "keyword", query: "data analyst sql", relevant: /data analyst|business intelligence|\bbi (analyst|developer|engineer)|analytics (engineer|analyst)|business analyst/i }, // 205
  { kind: "keyword", query: "customer success manager", relevant: /customer success|account manag/i }, // 146
  { kind: "keyword", query: "growth marketer", relevant: /growth (marketer|marketing|hacker|lead|manager)|performance marketing|marketing manager|digital marketing/i }, // 189
  { kind: "keyword", query: "office manager", relevant: /office manager|executive assistant|administrative assistant|office (coordinator|admin)/i }, // 13
  { kind: "keyword", query: "3d graphics programmer", relevant: /\b3d\b|graphics (engineer|programmer|developer)|opengl|webgl|rendering|shader/i }, // 287
  { kind: "keyword", query: ".net c# developer", relevant: /\.net\b|c#|asp\.net/i }, // 694
  { kind: "keyword", query: "founding engineer cto", relevant: /^[^\n]*(\bcto\b|co.?founder|founding|chief technology)|technical co.?founder|founding engineer/i }, // 197
  // --- paraphrase ---
  { kind: "paraphrase", query: "someone who writes the code behind our REST endpoints and databases", relevant: /back.?end|server.side|\bapi\b|distributed systems|platform engineer/i }, // 4316
  { kind: "paraphrase", query: "build user interfaces that run in the browser", relevant: /front.?end|web (developer|engineer|app)|\bui (engineer|developer)|react|javascript|\bcss\b/i }, // 6796
  { kind: "paraphrase", query: "person to decide how our app looks and feels", relevant: /product design|\bux\b|\bui\/ux|user experience|interaction design|visual design|designers?\b/i }, // 1931
  { kind: "paraphrase", query: "keep our AWS setup automated and deployments boring", relevant: /devops|\bsre\b|site reliability|infrastructure|\baws\b|cloud (engineer|infrastructure|platform)|terraform/i }, // 3312
  { kind: "paraphrase", query: "run the jobs that load the data warehouse every night", relevant: /data engineer|spark|hadoop|\betl\b|data pipeline|data (infrastructure|platform|warehouse)|big data|kafka/i }, // 1512
  { kind: "paraphrase", query: "look after invoices, taxes and the books", relevant: /^[^\n]*(accountant|bookkeep|accounting|controller|finance|financial analyst|\bcfo\b)|accountant|bookkeep|accounts (payable|receivable)/i }, // 25
  { kind: "paraphrase", query: "close deals with large enterprise customers", relevant: /sales|account executive|business development|account manager/i }, // 916
  { kind: "paraphrase", query: "tell the world about our product and bring in leads", relevant: /marketing|growth|\bseo\b|demand generation|lead generation/i }, // 1481
  { kind: "paraphrase", query: "check every release by hand and with scripts before customers see it", relevant: /\bqa\b|quality assurance|test automation|automation engineer|\bsdet\b|(engineer|developer) in test|\btesters?\b|test engineer|testing/i }, // 920
  { kind: "paraphrase", query: "pick which problems the engineering team solves next quarter", relevant: /product manag|product owner|head of product|(director|vp) of product|product lead/i }, // 701
  { kind: "paraphrase", query: "one developer who can handle the browser side and the server side", relevant: /full.?stack|front.?end and back.?end|back.?end and front.?end/i }, // 4097
  { kind: "paraphrase", query: "teach software to understand photos and video", relevant: /computer vision|image (recognition|processing|analysis|understanding|classification)|video (analysis|understanding|analytics)|object (detection|recognition)|deep learning|perception|visual (search|recognition)/i }, // 356
  { kind: "paraphrase", query: "bots that understand what customers type to them", relevant: /\bnlp\b|natural language|language model|chatbot|conversational (ai|interface|agent|platform)|dialog(ue)? system|virtual assistant|text (mining|classification|analysis|analytics)/i }, // 293
  { kind: "paraphrase", query: "work on wallets and exchanges for digital coins", relevant: /blockchain|ethereum|cryptocurrenc|\bcrypto\b|bitcoin|smart contract|decentrali|web3|wallet|exchange/i }, // 535
  { kind: "paraphrase", query: "one codebase for both iPhone and Android apps", relevant: /react native|flutter|cross.platform|xamarin|\bios\b|android|mobile/i }, // 4356
  { kind: "paraphrase", query: "write code that analyses DNA sequencing results", relevant: /bioinformatic|computational biolog|genomic|genetic|\bdna\b|sequencing|biology/i }, // 280
  { kind: "paraphrase", query: "build systems that trade stocks automatically", relevant: /\bquant|algorithmic trading|high.frequency|trading|hedge fund/i }, // 389
  { kind: "paraphrase", query: "help big customers set up our product and answer their technical questions", relevant: /solutions? (architect|engineer)|sales engineer|pre.?sales|field engineer|implementation|customer success|support engineer|technical account/i }, // 478
  { kind: "paraphrase", query: "read research papers and turn them into working prototypes", relevant: /research (scientist|engineer)|\bresearchers?\b|\bph\.?d\b|applied scien/i }, // 364
  { kind: "paraphrase", query: "tune slow SQL and keep the database healthy", relevant: /database|\bdba\b|postgres|mysql|\bsql\b|storage engineer/i }, // 1106
  // --- misspelled ---
  { kind: "typo", query: "3d graphicsprogrammer", relevant: /\b3d\b|graphics (engineer|programmer|developer)|opengl|webgl|rendering|shader/i }, // 287 — mistyped from "3d graphics programmer" (seed 7001)
  { kind: "typo", query: "founding engineeer cto", relevant: /^[^\n]*(\bcto\b|co.?founder|founding|chief technology)|technical co.?founder|founding engineer/i }, // 197 — mistyped from "founding engineer cto" (seed 7003)
  { kind: "typo", query: "search engineer elasticserahc", relevant: /elasticsearch|search (engineer|relevance|infrastructure|quality|ranking)|information retrieval|lucene|\bsolr\b/i }, // 220 — mistyped from "search engineer elasticsearch" (seed 7005)
  { kind: "typo", query: "curstomer success manager", relevant: /customer success|account manag/i }, // 146 — mistyped from "customer success manager" (seed 7007)
  { kind: "typo", query: "groht marketer", relevant: /growth (marketer|marketing|hacker|lead|manager)|performance marketing|marketing manager|digital marketing/i }, // 189 — mistyped from "growth marketer" (seed 7009)
  { kind: "typo", query: "recruiiter", relevant: /^(?![^\n]*\b(no|not|sorry|without|agency|agencies|spam)\b)[^\n]*(recruit|talent acquisition|sourcer)|(technical|in-house|internal) recruiter (role|position)|hiring (a|an) (technical |in-house )?recruiter/i }, // 30 — mistyped from "recruiter" (seed 7011)
  { kind: "typo", query: "full stack ddvelooper", relevant: /full.?stack/i }, // 3952 — mistyped from "full stack developer" (seed 7013)
  { kind: "typo", query: "daata analyst sql", relevant: /data analyst|business intelligence|\bbi (analyst|developer|engineer)|analytics (engineer|analyst)|business analyst/i }, // 205 — mistyped from "data analyst sql" (seed 7015)
  { kind: "typo", query: "amgulardeveloper", relevant: /angular/i }, // 645 — mistyped from "angular developer" (seed 7017)
  { kind: "typo", query: "golangg ebgineer", relevant: /golang|\bgo (engineer|developer|programmer)|\b(in|with|using|written in) go\b/i }, // 393 — mistyped from "golang engineer" (seed 7019)
  { kind: "typo", query: ".net c# developper", relevant: /\.net\b|c#|asp\.net/i }, // 694 — mistyped from ".net c# developer" (seed 7021)
  { kind: "typo", query: "offfice maager", relevant: /office manager|executive assistant|administrative assistant|office (coordinator|admin)/i }, // 13 — mistyped from "office manager" (seed 7023)
  { kind: "typo", query: "cose deas with large enterprise customers", relevant: /sales|account executive|business development|account manager/i }, // 916 — mistyped from "close deals with large enterprise customers" (seed 7025)
  { kind: "typo", query: "run the jobx that load the data warehouse every night", relevant: /data engineer|spark|hadoop|\betl\b|data pipeline|data (infrastructure|platform|warehouse)|big data|kafka/i }, // 1512 — mistyped from "run the jobs that load the data warehouse every night" (seed 7027)
  { kind: "typo", query: "tune slowSQL and keep the database healthy", relevant: /database|\bdba\b|postgres|mysql|\bsql\b|storage engineer/i }, // 1106 — mistyped from "tune slow SQL and keep the database healthy" (seed 7029)
  { kind: "typo", query: "person to decide how our app lokos and feels", relevant: /product design|\bux\b|\bui\/ux|user experience|interaction design|visual design|designers?\b/i }, // 1931 — mistyped from "person to decide how our app looks and feels" (seed 7031)
  { kind: "typo", query: "one developper who can handle the browser side and the serer side", relevant: /full.?stack|front.?end and back.?end|back.?end and front.?end/i }, // 4097 — mistyped from "one developer who can handle the browser side and the server side" (seed 7033)
  { kind: "typo", query: "read research papers and turn theem into working prototypes", relevant: /research (scientist|engineer)|\bresearchers?\b|\bph\.?d\b|applied scien/i }, // 364 — mistyped from "read research papers and turn them into working prototypes" (seed 7035)
  { kind: "typo", query: "krep our AWS setup automated and deployments boring", relevant: /devops|\bsre\b|site reliability|infrastructure|\baws\b|cloud (engineer|infrastructure|platform)|terraform/i }, // 3312 — mistyped from "keep our AWS setup automated and deployments boring" (seed 7037)
  { kind: "typo", query: "check every release by hand and with scriptsbefore customers see it", relevant: /\bqa\b|quality assurance|test automation|automation engineer|\bsdet\b|(engineer|developer) in test|\btesters?\b|test engineer|testing/i }, // 920 — mistyped from "check every release by hand and with scripts before customers see it" (seed 7039)
  // --- chinese and mixed ---
  { kind: "chinese", query: "Java后端工程师", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:java))/i }, // 440
  { kind: "chinese", query: "golang 开发工程师", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:golang|\bgo\s*(开发|工程师|语言)))/i }, // 96
  { kind: "chinese", query: "深圳 后端开发", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:后端|后台|服务端|back.?end|server|java|golang|\bgo\b))/i, fields: { cities: ["深圳"] } }, // 120
  { kind: "chinese", query: "安卓开发", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:android|安卓))/i }, // 142
  { kind: "chinese", query: "软件测试", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:测试|\bqa\b|质量))/i }, // 408
  { kind: "chinese", query: "大数据开发 Spark", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:大数据|spark|hadoop|flink|数据仓库|数仓|数据平台))/i }, // 142
  { kind: "chinese", query: "大模型应用开发", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:大模型|\bllm|gpt|aigc|\bai\b|人工智能|agent))/i }, // 217
  { kind: "chinese", query: "北京 产品经理", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:产品经理|产品负责人|产品专员|产品总监|product manager))/i, fields: { cities: ["北京"] } }, // 26
  { kind: "chinese", query: "实习生 招聘", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:实习|校招|校园招聘|应届|intern))/i }, // 241
  { kind: "chinese", query: "Rust 工程师", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:\brust\b))/i }, // 36
  { kind: "chinese", query: "C++ 开发", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:c\+\+))/i }, // 132
  { kind: "chinese", query: "Node.js 开发", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:node))/i }, // 103
  { kind: "chinese", query: "python 开发", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:python|django|flask))/i }, // 92
  { kind: "chinese", query: "区块链 web3", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:区块链|blockchain|web3|智能合约|以太坊|加密货币|\bdefi\b))/i }, // 68
  { kind: "chinese", query: "成都 程序员", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:工程师|开发|程序员|研发|developer|engineer))/i, fields: { cities: ["成都"] } }, // 32
];
