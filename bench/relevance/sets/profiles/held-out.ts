/**
 * Judged profiles for `bun run eval --set match` (bench/relevance/match/), the held-out part (never tuned on). Written in one pass before
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
import type { JudgedProfile } from "./own.ts";

export const PROFILES_HELD_OUT: JudgedProfile[] = [
  { id: "cv-sre-remote", style: "cv", level: "senior", relevant: /devops|site reliability|\bsre\b|infrastructure engineer|platform engineer|kubernetes|production engineer|cloud engineer|systems engineer/i, fields: { remote: true } }, // 591
  { id: "cv-product-designer", style: "cv", level: "senior", relevant: /product design|\bux\b|ui\/ux|user experience|interaction design|(product|ux|ui|visual|interaction) designer|design lead|head of design/i }, // 1124
  { id: "cv-embedded-firmware", style: "cv", level: "senior", relevant: /embedded|firmware|microcontroller|\brtos\b|bare.metal|device drivers?|\bbsp\b|嵌入式/i }, // 423
  { id: "cv-new-grad-software", style: "cv", level: "junior", relevant: /engineer|developer|programmer|software/i, fields: { seniority: ["junior", "intern"], seniorityTitle: /\b(junior|jr\.?|entry.level|new grad(uate)?s?|graduate|associate software|early.career|intern(ship)?s?)\b/i } }, // 552
  { id: "li-data-engineer", style: "linkedin", level: "mid", relevant: /data engineer|spark|hadoop|\betl\b|data pipeline|data (infrastructure|platform|warehouse)|big data|kafka|airflow|analytics engineer/i }, // 1523
  { id: "li-account-executive", style: "linkedin", level: "senior", relevant: /^[^\n]*(account executive|sales (rep|representative|manager|executive|director|lead)|business development|(head|vp|director) of sales|inside sales|\bsdr\b|\bbdr\b|enterprise sales|account manager)/i }, // 123
  { id: "li-growth-marketer", style: "linkedin", level: "mid", relevant: /^[^\n]*(growth (marketer|marketing|manager|lead|hacker)|performance marketing|marketing (manager|lead|director|specialist)|digital marketing|demand gen|head of marketing|(director|vp) of marketing|user acquisition|content market|product market)/i }, // 126
  { id: "li-nlp-engineer", style: "linkedin", level: "mid", relevant: /\bnlp\b|natural language|language model|\bllms?\b|computational linguist|text mining|speech recognition|conversational ai|chatbot/i }, // 294
  { id: "short-rails-contract", style: "short", level: "senior", relevant: /\brails\b|\bruby\b/i, fields: { employment: ["CONTRACTOR", "PART_TIME"], employmentTags: ["contract", "contractor", "freelance", "part-time"] } }, // 37
  { id: "short-golang-bay-area", style: "short", level: "senior", relevant: /golang|\bgo (engineer|developer|programmer|backend)|\b(in|with|using|written in) go\b|\bgo[,/]|, go\b/i, fields: { cities: ["San Francisco", "Oakland", "Berkeley", "Emeryville", "Palo Alto", "Mountain View", "San Mateo", "Redwood City", "Menlo Park", "Sunnyvale", "San Jose", "Cupertino", "Santa Clara", "Burlingame", "South San Francisco", "Los Altos", "Foster City", "San Bruno", "Fremont", "San Carlos", "Belmont", "Millbrae", "Milpitas", "Los Gatos"] } }, // 190
  { id: "short-support-lead-nyc", style: "short", level: "senior", relevant: /^[^\n]*(customer support|customer success|technical support|support (engineer|specialist|lead|manager|team|rep)|customer service|customer experience|help ?desk|community manager)/i, fields: { cities: ["New York", "Brooklyn"] } }, // 21
  { id: "short-ml-internship", style: "short", level: "junior", relevant: /machine learning|\bml\b|deep learning|data scien|\bai\b|computer vision|\bnlp\b|research/i, fields: { internship: true } }, // 270
  { id: "nn-php-remote", style: "non-native", level: "mid", relevant: /\bphp\b|laravel|symfony|wordpress/i, fields: { remote: true } }, // 161
  { id: "nn-dotnet-london", style: "non-native", level: "senior", relevant: /\.net\b|c#|asp\.net|azure/i, fields: { cities: ["London"] } }, // 46
  { id: "nn-computer-vision", style: "non-native", level: "senior", relevant: /computer vision|image (recognition|processing|analysis|understanding|segmentation)|object (detection|recognition)|visual recognition|perception|3d (reconstruction|vision)|\bslam\b|opencv|deep learning/i }, // 352
  { id: "nn-scala-functional", style: "non-native", level: "senior", relevant: /\bscala\b|functional programming|akka|haskell|\bzio\b|cats effect/i }, // 458
  { id: "zh-frontend-hangzhou", style: "chinese", level: "mid", relevant: /前端|front.?end|\bvue\b|react|web开发|h5/i, fields: { cities: ["杭州"] } }, // 170
  { id: "zh-algorithm-engineer", style: "chinese", level: "mid", relevant: /^[^\n]*(算法|机器学习|推荐|搜索|深度学习|machine learning|数据科学|\bai\b|大模型|nlp|cv)|算法工程师|推荐系统|机器学习|深度学习|大模型/i, fields: { countries: ["CN"] } }, // 189
  { id: "zh-product-manager", style: "chinese", level: "mid", relevant: /^[^\n]*(产品经理|产品专员|产品负责人|产品运营|product manager)/i, fields: { countries: ["CN"] } }, // 56
  { id: "zh-frontend-graduate", style: "chinese", level: "junior", relevant: /前端|front.?end|web|vue|react|\bh5\b|小程序/i, fields: { countries: ["CN"], seniority: ["intern", "junior"], seniorityTitle: /实习|应届|校招|校园|初级|intern|junior|新人/i } }, // 54
  { id: "cc-teacher-to-instructor", style: "career-change", level: "mid", relevant: /^[^\n]*(instructor|teacher|teaching|curriculum|educator|tutor|course (developer|creator)|learning (designer|experience)|education|mentor)/i }, // 77
  { id: "cc-accountant-to-analyst", style: "career-change", level: "mid", relevant: /^[^\n]*(financial analyst|finance|accounting|accountant|controller|fp&a|data analyst|business analyst|business intelligence|analytics|\bbi\b|revenue operations)/i }, // 157
  { id: "cc-army-logistics-to-operations", style: "career-change", level: "mid", relevant: /^[^\n]*(operations (manager|associate|coordinator|lead|specialist|analyst)|business operations|logistics|supply chain|fleet|dispatch|fulfil?ment|program manager|project manager)/i }, // 113
  { id: "cc-physicist-to-data-science", style: "career-change", level: "mid", relevant: /data scien|machine learning|\bquant(itative)? (analyst|researcher|developer)|quant\b|research scientist|applied scientist|statistician|\bml (engineer|scientist)/i }, // 2036
];
