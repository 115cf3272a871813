/**
 * Broad judged set A, the held-out half (never tuned on). Written before any tuning of the search, in one pass, from the shared postings
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

export const BROAD_A_HELD_OUT: JudgedQuery[] = [
  // --- keyword ---
  { kind: "keyword", query: "clojure", relevant: /clojure/i, heldOut: true }, // 209
  { kind: "keyword", query: "haskell developer", relevant: /haskell/i, heldOut: true }, // 94
  { kind: "keyword", query: "php laravel", relevant: /\bphp\b|laravel/i, heldOut: true }, // 590
  { kind: "keyword", query: "node.js backend", relevant: /node\.?js|\bnode\b/i, heldOut: true }, // 860
  { kind: "keyword", query: "vue.js frontend", relevant: /\bvue/i, heldOut: true }, // 144
  { kind: "keyword", query: "typescript engineer", relevant: /typescript/i, heldOut: true }, // 114
  { kind: "keyword", query: "graphic designer", relevant: /graphic design|visual design|illustrat|brand design/i, heldOut: true }, // 76
  { kind: "keyword", query: "mobile app developer", relevant: /mobile (app|developer|engineer)|\bios\b|android/i, heldOut: true }, // 2936
  { kind: "keyword", query: "linux sysadmin", relevant: /sysadmin|systems? administrat|linux admin/i, heldOut: true }, // 217
  { kind: "keyword", query: "network engineer", relevant: /network (engineer|administrator|architect|operations)|networking engineer/i, heldOut: true }, // 39
  { kind: "keyword", query: "hardware engineer pcb", relevant: /hardware engineer|electrical engineer|\bpcb\b|circuit|electronics engineer/i, heldOut: true }, // 98
  { kind: "keyword", query: "bioinformatics", relevant: /bioinformatic|computational biolog|genomic/i, heldOut: true }, // 193
  { kind: "keyword", query: "copywriter", relevant: /copywrit|content (writer|strategist|marketer|marketing manager|manager|editor)|^[^\n]*\b(writers?|editor)\b/i, heldOut: true }, // 58
  { kind: "keyword", query: "accountant", relevant: /^[^\n]*(accountant|bookkeep|accounting|controller|finance|financial analyst)|(staff|senior|junior) accountant|bookkeeper/i, heldOut: true }, // 13
  { kind: "keyword", query: "salesforce developer", relevant: /salesforce/i, heldOut: true }, // 70
  { kind: "keyword", query: "vr developer", relevant: /\bvr\b|virtual reality|augmented reality|mixed reality|oculus|hololens|\bar\/vr\b/i, heldOut: true }, // 155
  { kind: "keyword", query: "compiler engineer", relevant: /compiler|llvm|programming language|language design|\bjit\b/i, heldOut: true }, // 78
  { kind: "keyword", query: "java spring", relevant: /\bjava\b|spring boot|\bjvm\b/i, heldOut: true }, // 1183
  { kind: "keyword", query: "solutions architect", relevant: /solutions? (architect|engineer)|sales engineer|pre.?sales|field engineer/i, heldOut: true }, // 182
  { kind: "keyword", query: "fintech payments engineer", relevant: /payment|fintech|billing|banking/i, heldOut: true }, // 705
  // --- paraphrase ---
  { kind: "paraphrase", query: "find the holes attackers could get through before they do", relevant: /security|infosec|pen ?test|penetration|vulnerab|threat/i, heldOut: true }, // 912
  { kind: "paraphrase", query: "low-level code for the boards in our sensors", relevant: /embedded|firmware|microcontroller|\brtos\b|device drivers?|hardware|\biot\b/i, heldOut: true }, // 836
  { kind: "paraphrase", query: "build models that guess what a shopper will buy next", relevant: /machine learning|recommend|predictive|data scien|\bml\b|personaliz/i, heldOut: true }, // 2527
  { kind: "paraphrase", query: "turn our raw event logs into dashboards for the executives", relevant: /data analyst|business intelligence|\bbi\b|analytics|dashboards?|data scien/i, heldOut: true }, // 2345
  { kind: "paraphrase", query: "answer emails from users who are stuck", relevant: /customer support|support engineer|customer success|technical support|support specialist|customer service|help ?desk|support (rep|team|agent)|customer happiness/i, heldOut: true }, // 373
  { kind: "paraphrase", query: "help us hire great engineers", relevant: /^(?![^\n]*\b(no|not|sorry|without|agency|agencies|spam)\b)[^\n]*(recruit|talent (acquisition|partner|manager|lead|development)|sourcer|people operations|human resources|\bhr\b)|hiring (a|an) (technical |in-house )?recruiter/i, heldOut: true }, // 49
  { kind: "paraphrase", query: "explain our API to outside developers through docs and talks", relevant: /technical writ|documentation|tech(nical)? writer|developer (advocate|evangelist|relations)|devrel/i, heldOut: true }, // 109
  { kind: "paraphrase", query: "be the people manager for a handful of backend engineers", relevant: /engineering manager|(director|vp|head|vice president) of engineering|engineering (lead|director)|team lead|tech lead|manage (a|the) team|people manager/i, heldOut: true }, // 556
  { kind: "paraphrase", query: "make our pages load faster on slow phones", relevant: /front.?end|web performance|mobile web|javascript|react/i, heldOut: true }, // 5708
  { kind: "paraphrase", query: "software for warehouse robots and flying drones", relevant: /robot|autonomous|self.driving|drone|lidar|perception|uav/i, heldOut: true }, // 449
  { kind: "paraphrase", query: "make worlds that many players explore together", relevant: /\bgames?\b|gaming|game (developer|designer|engine|studio)|\bunity\b|unreal|multiplayer/i, heldOut: true }, // 552
  { kind: "paraphrase", query: "draw triangles fast on the GPU", relevant: /\bgpu\b|graphics|opengl|webgl|rendering|shader|\b3d\b|vulkan|metal|cuda/i, heldOut: true }, // 391
  { kind: "paraphrase", query: "keep the office running and help the founders with their calendars", relevant: /office manager|executive assistant|administrative assistant|office (coordinator|admin)|operations (manager|associate|coordinator)/i, heldOut: true }, // 41
  { kind: "paraphrase", query: "the very first technical hire at a tiny startup", relevant: /^[^\n]*(\bcto\b|co.?founder|founding|first engineer|chief technology)|technical co.?founder|founding engineer|one of the first (engineers|developers|hires|technical)|first (engineering|technical|engineer) hire/i, heldOut: true }, // 215
  { kind: "paraphrase", query: "make programming languages run faster", relevant: /compiler|llvm|programming language|\bjit\b|virtual machine|\bjvm\b|runtime|interpreter/i, heldOut: true }, // 156
  { kind: "paraphrase", query: "look after the office Linux machines, backups and network", relevant: /sysadmin|systems? administrat|\bit (manager|support|administrator|specialist|engineer)|help ?desk|network (engineer|administrator)|linux/i, heldOut: true }, // 636
  { kind: "paraphrase", query: "write blog posts and landing page copy", relevant: /copywrit|content (writer|strategist|marketer|marketing|manager|editor)|^[^\n]*\b(writers?|editor|blogger)\b/i, heldOut: true }, // 79
  { kind: "paraphrase", query: "lay out the circuit boards for our gadget", relevant: /hardware engineer|electrical engineer|\bpcb\b|circuit|electronics|hardware/i, heldOut: true }, // 492
  { kind: "paraphrase", query: "move money between bank accounts reliably", relevant: /payment|fintech|billing|banking|financial (services|technology|infrastructure)|\bbank/i, heldOut: true }, // 960
  { kind: "paraphrase", query: "find_jobs(role: engineer who maintains CI pipelines and release tooling)", relevant: /build (engineer|infrastructure|tools|systems)|release engineer|\bci\b|continuous (integration|delivery)|ci\/cd|developer (tools|productivity)|devtools|tooling/i, heldOut: true }, // 276
  // --- misspelled ---
  { kind: "typo", query: "salesforce develoepr", relevant: /salesforce/i, heldOut: true }, // 70 — mistyped from "salesforce developer" (seed 7041)
  { kind: "typo", query: "node.js backand", relevant: /node\.?js|\bnode\b/i, heldOut: true }, // 860 — mistyped from "node.js backend" (seed 7043)
  { kind: "typo", query: "hardware engneee pcb", relevant: /hardware engineer|electrical engineer|\bpcb\b|circuit|electronics engineer/i, heldOut: true }, // 98 — mistyped from "hardware engineer pcb" (seed 7045)
  { kind: "typo", query: "phlaravel", relevant: /\bphp\b|laravel/i, heldOut: true }, // 590 — mistyped from "php laravel" (seed 7047)
  { kind: "typo", query: "jva sprint", relevant: /\bjava\b|spring boot|\bjvm\b/i, heldOut: true }, // 1183 — mistyped from "java spring" (seed 7049)
  { kind: "typo", query: "clojre", relevant: /clojure/i, heldOut: true }, // 209 — mistyped from "clojure" (seed 7051)
  { kind: "typo", query: "network enginedr", relevant: /network (engineer|administrator|architect|operations)|networking engineer/i, heldOut: true }, // 39 — mistyped from "network engineer" (seed 7053)
  { kind: "typo", query: "fintech payments enginer", relevant: /payment|fintech|billing|banking/i, heldOut: true }, // 705 — mistyped from "fintech payments engineer" (seed 7055)
  { kind: "typo", query: "accountantt", relevant: /^[^\n]*(accountant|bookkeep|accounting|controller|finance|financial analyst)|(staff|senior|junior) accountant|bookkeeper/i, heldOut: true }, // 13 — mistyped from "accountant" (seed 7057)
  { kind: "typo", query: "moible app developer", relevant: /mobile (app|developer|engineer)|\bios\b|android/i, heldOut: true }, // 2936 — mistyped from "mobile app developer" (seed 7059)
  { kind: "typo", query: "compiler enginwer", relevant: /compiler|llvm|programming language|language design|\bjit\b/i, heldOut: true }, // 78 — mistyped from "compiler engineer" (seed 7061)
  { kind: "typo", query: "vue.js fornetnd", relevant: /\bvue/i, heldOut: true }, // 144 — mistyped from "vue.js frontend" (seed 7063)
  { kind: "typo", query: "low-level codefor the boards in our sensors", relevant: /embedded|firmware|microcontroller|\brtos\b|device drivers?|hardware|\biot\b/i, heldOut: true }, // 836 — mistyped from "low-level code for the boards in our sensors" (seed 7065)
  { kind: "typo", query: "make programmibg lannguages run faster", relevant: /compiler|llvm|programming language|\bjit\b|virtual machine|\bjvm\b|runtime|interpreter/i, heldOut: true }, // 156 — mistyped from "make programming languages run faster" (seed 7067)
  { kind: "typo", query: "make worls that manyplayers explore together", relevant: /\bgames?\b|gaming|game (developer|designer|engine|studio)|\bunity\b|unreal|multiplayer/i, heldOut: true }, // 552 — mistyped from "make worlds that many players explore together" (seed 7069)
  { kind: "typo", query: "draw triangles faston theGPU", relevant: /\bgpu\b|graphics|opengl|webgl|rendering|shader|\b3d\b|vulkan|metal|cuda/i, heldOut: true }, // 391 — mistyped from "draw triangles fast on the GPU" (seed 7071)
  { kind: "typo", query: "build models thar guess what a shopper will buy next", relevant: /machine learning|recommend|predictive|data scien|\bml\b|personaliz/i, heldOut: true }, // 2527 — mistyped from "build models that guess what a shopper will buy next" (seed 7073)
  { kind: "typo", query: "answer emakls from users who are stuck", relevant: /customer support|support engineer|customer success|technical support|support specialist|customer service|help ?desk|support (rep|team|agent)|customer happiness/i, heldOut: true }, // 373 — mistyped from "answer emails from users who are stuck" (seed 7075)
  { kind: "typo", query: "wrtie blog posts and landing page copy", relevant: /copywrit|content (writer|strategist|marketer|marketing|manager|editor)|^[^\n]*\b(writers?|editor|blogger)\b/i, heldOut: true }, // 79 — mistyped from "write blog posts and landing page copy" (seed 7077)
  { kind: "typo", query: "look afterthe office Linux machines, backups and network", relevant: /sysadmin|systems? administrat|\bit (manager|support|administrator|specialist|engineer)|help ?desk|network (engineer|administrator)|linux/i, heldOut: true }, // 636 — mistyped from "look after the office Linux machines, backups and network" (seed 7079)
  // --- chinese and mixed ---
  { kind: "chinese", query: "前端开发", relevant: /\u524D\u7AEF|web\u524D\u7AEF|h5\u5F00\u53D1/i, heldOut: true }, // 891
  { kind: "chinese", query: "上海 前端", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:前端|front.?end|react|vue|javascript|web前端))/i, fields: { cities: ["上海"] }, heldOut: true }, // 163
  { kind: "chinese", query: "杭州 Java", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:java))/i, fields: { cities: ["杭州"] }, heldOut: true }, // 84
  { kind: "chinese", query: "北京 算法工程师", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:算法|机器学习|深度学习|自然语言|计算机视觉|推荐|大模型|machine learning|\bnlp\b))/i, fields: { cities: ["北京"] }, heldOut: true }, // 121
  { kind: "chinese", query: "iOS 开发工程师", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:\bios\b|swift|objective-c))/i, heldOut: true }, // 128
  { kind: "chinese", query: "Flutter 跨平台", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:flutter|react native|跨平台|移动端))/i, heldOut: true }, // 130
  { kind: "chinese", query: "运维开发 k8s", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:运维|kubernetes|k8s|devops|容器|云原生|\bsre\b))/i, heldOut: true }, // 238
  { kind: "chinese", query: "数据分析师", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:数据分析|数据仓库|数仓|数据开发|\bbi\b|数据工程|大数据))/i, heldOut: true }, // 169
  { kind: "chinese", query: "推荐系统 机器学习", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:推荐|机器学习|算法|深度学习))/i, heldOut: true }, // 307
  { kind: "chinese", query: "远程 前端", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:前端|front.?end|react|vue|javascript|web前端))/i, fields: { remote: true }, heldOut: true }, // 52
  { kind: "chinese", query: "全栈工程师", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:全栈|full.?stack))/i, heldOut: true }, // 93
  { kind: "chinese", query: "UI设计师", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:设计师|\bui\b|\bux\b|交互|视觉))/i, heldOut: true }, // 166
  { kind: "chinese", query: "小程序开发", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:小程序))/i, heldOut: true }, // 87
  { kind: "chinese", query: "嵌入式 驱动开发", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:嵌入式|驱动|芯片|固件|embedded|firmware|\bbsp\b|硬件))/i, heldOut: true }, // 228
  { kind: "chinese", query: "广州 web前端", relevant: /^(?=[\s\S]*[\u4e00-\u9fff])(?=[\s\S]*(?:前端|front.?end|react|vue|javascript|web前端))/i, fields: { cities: ["广州"] }, heldOut: true }, // 74
];
