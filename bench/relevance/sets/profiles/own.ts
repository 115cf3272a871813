/**
 * Judged profiles for `bun run eval --set match` (bench/relevance/match/), the own part (tuning may look at it). Written in one pass before
 * any matching code existed, from the shared postings (../shared/data/jobs.jsonl.gz) and from how people write
 * CVs and profiles; none is taken from the issue, the docs or the other sets. Six styles, 8 profiles each:
 * full CVs (Markdown or plain, ~200-1,250 words), LinkedIn-like summaries, a few lines, non-native English,
 * Chinese résumés, career changers; juniors, mid-levels and seniors, some with explicit wishes (a city, remote,
 * contract, an internship). The texts are in the .md file of the same name (one section per id).
 *
 * A judge says what a recruiter would accept as a good match for that person, from the posting's raw fields
 * only, never through the service's parser: `relevant` over the title and the first 300 characters of the
 * description (judge.ts judgedText), and `fields` (FieldJudge) where the profile states a condition (a city or
 * country it wants, remote, a contract, an internship or junior role). The data holds no clinical, classroom or
 * building-site postings (Hacker News and ruanyf hiring threads), so the nurse, the teacher and the electrician
 * are judged on the tech roles their profiles ask for (health-tech developer, coding instructor, technician).
 * The comment after each profile: how many of the 29,513 postings its judge accepts (every one has at least 10).
 *
 * Split: a seeded random half of each style (seed 20261201, mulberry32, Fisher-Yates over the styles' profiles in
 * writing order) is held out in held-out.ts / held-out.md, frozen by held-out.sha256 in the commit that added the
 * sets, before any matching code was tuned. The held-out part is reported, never tuned on or looked at.
 */
import type { FieldJudge } from "../constraint-queries.ts";

export type ProfileStyle = "cv" | "linkedin" | "short" | "non-native" | "chinese" | "career-change";
export type ProfileLevel = "junior" | "mid" | "senior";

/** A profile's judge; its text is the section `<!-- profile: id -->` of the .md file beside. */
export interface JudgedProfile {
  id: string;
  style: ProfileStyle;
  level: ProfileLevel;
  /** Relevant when this matches the title + the first 300 characters of the description. */
  relevant: RegExp;
  /** Conditions the profile states (a place, remote, a contract, a junior role) that the raw fields must meet too. */
  fields?: FieldJudge;
}

export const PROFILES_OWN: JudgedProfile[] = [
  { id: "cv-python-backend-senior", style: "cv", level: "senior", relevant: /^(?=[\s\S]*(back.?end|server.side|\bapi\b|platform|distributed|infrastructure))(?=[\s\S]*(python|django|flask))/i }, // 629
  { id: "cv-frontend-react-berlin", style: "cv", level: "mid", relevant: /front.?end|react|\bui (engineer|developer)|javascript (engineer|developer)|web developer/i, fields: { cities: ["Berlin"] } }, // 153
  { id: "cv-data-scientist-nyc", style: "cv", level: "senior", relevant: /data scien|machine learning|statistic|quantitative (analyst|researcher)|\bml (engineer|scientist)|applied scientist/i, fields: { cities: ["New York", "Brooklyn"] } }, // 226
  { id: "cv-ios-mid", style: "cv", level: "mid", relevant: /\bios\b|iphone|ipad|\bswift\b|objective-c|swiftui/i }, // 1895
  { id: "li-product-manager", style: "linkedin", level: "senior", relevant: /^[^\n]*(product manag|product owner|head of product|(director|vp) of product|product lead|group product)/i }, // 421
  { id: "li-engineering-manager", style: "linkedin", level: "senior", relevant: /^[^\n]*(engineering manager|head of engineering|(vp|director|head) of (software )?engineering|vp,? engineering|\bcto\b|chief technology|engineering (lead|director)|manager,? (software )?engineering|tech(nical)? lead manager)/i }, // 411
  { id: "li-security-engineer", style: "linkedin", level: "mid", relevant: /security (engineer|analyst|researcher|architect|consultant)|infosec|information security|pen ?test|penetration|appsec|application security|offensive security|red team|cyber ?security/i }, // 329
  { id: "li-technical-recruiter", style: "linkedin", level: "mid", relevant: /^(?![^\n]*\b(no|not|sorry|without|agency|agencies|spam)\b)[^\n]*(recruit(er|ing)|talent acquisition|sourcer|talent partner)/i }, // 28
  { id: "short-android-remote", style: "short", level: "mid", relevant: /android|kotlin/i, fields: { remote: true } }, // 241
  { id: "short-qa-automation", style: "short", level: "mid", relevant: /\bqa\b|quality assurance|test automation|automation engineer|\bsdet\b|(engineer|developer) in test|\btesters?\b|test engineer|quality engineer/i }, // 705
  { id: "short-technical-writer", style: "short", level: "mid", relevant: /technical writ|documentation (engineer|writer|specialist|lead)|tech writer|docs? writer|developer documentation|^[^\n]*\bwriters?\b/i }, // 47
  { id: "short-unity-gamedev", style: "short", level: "mid", relevant: /^[^\n]*(\bunity|\bgames?\b|gameplay|unreal)|\bunity(3d)?\b|unreal engine|game (developer|engineer|programmer)/i }, // 131
  { id: "nn-java-relocate-eu", style: "non-native", level: "senior", relevant: /\bjava\b|spring|\bjvm\b|kotlin/i, fields: { countries: ["DE", "NL"] } }, // 53
  { id: "nn-data-analyst", style: "non-native", level: "junior", relevant: /data analyst|business intelligence|\bbi (analyst|developer|engineer)|analytics (engineer|analyst)|business analyst|reporting analyst|marketing analyst|tableau|looker|power bi/i }, // 245
  { id: "nn-ux-designer", style: "non-native", level: "mid", relevant: /\bux\b|\bui\b|user experience|interaction design|(product|ux|ui|visual|web|interaction|graphic) designers?|product design/i }, // 1454
  { id: "nn-blockchain", style: "non-native", level: "mid", relevant: /blockchain|ethereum|solidity|smart contract|web3|crypto(currenc)?|\bdefi\b|bitcoin|\bdapp/i }, // 333
  { id: "zh-java-backend-beijing", style: "chinese", level: "senior", relevant: /java|spring|后端|服务端|后台开发/i, fields: { cities: ["北京"] } }, // 211
  { id: "zh-go-cloud-native", style: "chinese", level: "senior", relevant: /golang|\bgo\b|go语言|云原生|k8s|kubernetes|容器|运维开发|\bsre\b/i, fields: { cities: ["上海", "深圳"] } }, // 83
  { id: "zh-android", style: "chinese", level: "mid", relevant: /android|安卓|kotlin/i, fields: { countries: ["CN"] } }, // 131
  { id: "zh-test-engineer", style: "chinese", level: "mid", relevant: /^[^\n]*(测试|\bqa\b|test|质量)|测试开发|测试工程师|自动化测试/i, fields: { countries: ["CN"] } }, // 134
  { id: "cc-nurse-to-health-tech", style: "career-change", level: "junior", relevant: /^(?![^\n]*\b(senior|sr\.?|lead|staff|principal|director|head|vp|architect|manager)\b)(?=[\s\S]*(engineer|developer|programmer))(?=[\s\S]*(health|medical|clinical|patient|hospital|clinic|nurs|physician|care (team|delivery|provider)))/i }, // 1016
  { id: "cc-electrician-to-technician", style: "career-change", level: "mid", relevant: /^[^\n]*(technician|hardware test|test technician|field (service|technician|engineer|operations)|installer|data ?cent(er|re)|electrical|electronics|manufacturing (engineer|technician|associate)|assembly|production (technician|associate)|robot(ics)? technician)/i }, // 44
  { id: "cc-journalist-to-content", style: "career-change", level: "mid", relevant: /^[^\n]*(content (marketer|marketing|writer|strateg|manager|editor|lead|creator|designer)|copywriter|\bwriters?\b|\beditors?\b|journalist|communications|\bpr\b|public relations|storyteller|marketing (writer|content|communications))/i }, // 50
  { id: "cc-mechanical-to-software", style: "career-change", level: "junior", relevant: /^(?![^\n]*\b(senior|sr\.?|lead|staff|principal|director|head|vp|architect)\b)(?=[\s\S]*(engineer|developer|programmer))(?=[\s\S]*(robot|hardware|embedded|manufactur|mechanical|autonomous|drone|vehicle|aerospace|cad\b))/i }, // 842
];
