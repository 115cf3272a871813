/*
 * Word lists of the text normaliser and query analysis: data, apart from the logic that reads them
 * (text.ts, normalize.ts, occupation-index.ts, query-understanding.ts, cjk-match.ts). English words
 * are written as people type them; the logic folds them where it needs to.
 */

export const STOP_WORDS = (
  "a an the and or but if of to in on at by for with from into onto as about than then so that this these those " +
  "there here is are was were be been being am do does did doing done have has had having i me my mine myself we " +
  "us our ours you your yours he him his she her it its they them their what which who whom whose when where why " +
  "how all any some such no nor not only own same too very can could will would should shall may might must just " +
  "also like im ive id dont cant wont please etc via per each every other more most much many few up out off over " +
  "again once get gets got getting go goes going gone let lets something anything thing things stuff kind sort way " +
  "really able eg ie s before after during while within without through between since until against among"
).split(" ");

/** Words of job-search talk that say nothing about the job ("looking for someone who…", "I want a job as…"). */
export const FILLER_WORDS = (
  "someone somebody anyone anybody person persons people guy guys individual job jobs position positions role roles " +
  "opening openings vacancy vacancies career careers opportunity opportunities employment work works working want " +
  "wants wanted need needs needed looking seeking searching search find finding hiring help helping company " +
  "companies employer employers firm firms agency agencies organization organisation corporation apply applying " +
  "available immediately asap now today near nearby hello hi thanks"
).split(" ");

/** Spelling variants and short forms, mapped before folding (the target is folded too). */
export const ALIAS: Record<string, string> = {
  nodejs: "node.js", node: "node.js", reactjs: "react", "react.js": "react", vuejs: "vue", "vue.js": "vue",
  angularjs: "angular", nextjs: "next.js", k8s: "kubernetes", js: "javascript", ts: "typescript", dotnet: ".net",
  postgres: "postgresql", unity3d: "unity", mgr: "manager", labourer: "laborer", labourers: "laborers",
  // A developer, programmer and engineer of the same thing do the same job.
  developer: "engineer", developers: "engineers", dev: "engineer", devs: "engineers", programmer: "engineer",
  programmers: "engineers", eng: "engineer", engr: "engineer", coder: "engineer", coders: "engineers",
  admin: "administrator", admins: "administrators", analyse: "analyze", analysing: "analyzing", analysed: "analyzed",
  optimise: "optimize", optimising: "optimizing", organise: "organize", organising: "organizing", colour: "color",
  behaviour: "behavior", centre: "center", programme: "program", licence: "license", labour: "labor",
  modelling: "modeling", travelling: "traveling", paediatric: "pediatric", paediatrician: "pediatrician",
  anaesthetist: "anesthetist", orthopaedic: "orthopedic", defence: "defense", tyre: "tire", tyres: "tires",
};

/** Two words that mean one ("front end", "front-end" → "frontend"); hyphenated forms arrive here split. */
export const COMPOUNDS: Record<string, string> = {
  "front end": "frontend", "back end": "backend", "full stack": "fullstack", "dev ops": "devops",
  "e commerce": "ecommerce", "e mail": "email", "e mails": "emails", "web site": "website", "web sites": "websites",
  "data base": "database", "data bases": "databases", "on call": "oncall", "pen test": "pentest",
  "pen testing": "pentesting", "pen tester": "pentester", "health care": "healthcare", "child care": "childcare",
  "day care": "daycare", "book keeping": "bookkeeping", "book keeper": "bookkeeper", "copy writer": "copywriter",
  "copy writing": "copywriting", "sec ops": "secops", "ml ops": "mlops", "fin ops": "finops", "git ops": "gitops",
  "x ray": "xray", "x rays": "xrays", "java script": "javascript", "micro services": "microservices",
  "type script": "typescript", "sys admin": "sysadmin", "help desk": "helpdesk", "service desk": "servicedesk",
};

export const IT_JOB_WORDS = (
  "support helpdesk servicedesk manager director administrator technician specialist consultant recruiter " +
  "auditor project security department infrastructure operation analyst engineer architect"
).split(" ");

export const GO_BEFORE = new Set(["engineer", "backend", "microservic", "servic", "api", "code"]);

export const GO_AFTER = new Set(["in", "using", "golang", "rust", "python", "java"]);

/** Folds that the suffix rules get wrong; values are final keys. */
export const IRREGULAR: Record<string, string> = {
  children: "child", kids: "kid", women: "woman", men: "man", teeth: "tooth", feet: "foot", ads: "ad",
  accounting: "accountant", accountants: "accountant", marketing: "marketing", marketer: "marketing",
  marketers: "marketing", apps: "app", news: "news", series: "series", species: "species", analyses: "analysis",
  diagnoses: "diagnosis", lives: "life", knives: "knife", shelves: "shelf", development: "develop",
  developments: "develop", embedding: "embedding", embeddings: "embedding", securities: "securities",
};

/** Words whose final e tells them apart from another word ("plane" is not "plan"). */
export const KEEP_E = new Set(["plane", "state", "spine", "bite", "cute", "rate", "site", "wine", "note", "hope"]);

/**
 * Everyday words that are rare in the knowledge base only because it is small: "good" in "make websites
 * look good" says little about the job.
 */
export const EVERYDAY_WORDS = (
  "make build keep look good great take give use run new big small well best better lot handle deal right " +
  "sure create day time place other find set start end world real life love open high low long " +
  "short fast quick easy hard part whole first last top old young one another every around"
).split(" ");

/** Seniority, contract and schedule words: real terms of the query, but no evidence for an occupation. */
export const MODIFIER_WORDS = (
  "senior sr junior jr principal intern internship graduate entry level mid remote hybrid onsite freelance " +
  "contract contractor temporary temp permanent fulltime parttime full part time urgent experience experienced " +
  "year month week salary pay hourly"
).split(" ");

/** Seniority, hiring talk and generic job words; longest first so "中高级" goes before "高级". */
export const GENERIC = (
  "校园招聘 中高级 我想找 工程师 实习生 负责人 高级 资深 初级 中级 专家 开发 研发 实习 招聘 诚聘 急聘 岗位 职位 " +
  "工作 团队 兼职 全职 远程 校招 社招 技术 人员 寻找 求职 找 等 的 和 及 或"
).split(" ");
