/**
 * The judge of "same occupation" for similar jobs: an occupation family read from a posting's raw
 * job_title by a pattern table written for the bench alone (never through server/knowledge or
 * server/understand, the code under test). A title is cut into its roles (" / ", "/", "、", ",", " and ",
 * " & "); each role gets the first specific family whose pattern it matches, else "software" when it
 * names software work at all. Judged by eye on a sample (`bun bench/relevance/similar.ts --families`).
 */

/** The families, most specific first; `parent` is the family a role of this one also belongs to. */
const FAMILIES: ReadonlyArray<{ family: string; en: RegExp; zh?: RegExp; parent?: string }> = [
  { family: "eng-manager", en: /engineering manager|director,? (of )?(software )?engineering|vp,? (of )?engineering|head of (software )?engineering|\bcto\b|chief technology|engineering director|engineering lead/, zh: /技术经理|技术总监|研发经理|研发总监|技术负责人|研发负责人|\bcto\b/ },
  { family: "designer", en: /designer|\bux\b|user experience|illustrator|art director|\bartist\b|(product|visual|graphic|ui|web|interaction) design|design (lead|director)|head of design/, zh: /(?<!架构)设计师|ui设计|交互设计|视觉设计|平面设计|\bux\b/ },
  { family: "product", en: /product (manager|owner|lead|director)|head of product|director,? (of )?product|vp,? (of )?product|\bpm\b/, zh: /产品经理|产品负责人|产品总监|产品专家|产品运营/ },
  { family: "qa", en: /\bqa\b|quality assurance|\bsdet\b|\btest(ing|er)?\b|\bqe\b/, zh: /测试|\bqa\b/ },
  { family: "security", en: /security|infosec|penetration|appsec/, zh: /安全/ },
  { family: "sales", en: /\bsales\b|account executive|account manager|business development|\bbdr\b|\bsdr\b/, zh: /销售|商务|\bbd\b/ },
  { family: "marketing", en: /marketing|\bgrowth\b|\bseo\b|copywriter|content (writer|strategist|manager|marketer)|community manager|social media/, zh: /^(?!.*(工程师|开发|算法)).*(市场|营销|推广|运营)/ },
  { family: "support", en: /support|customer success|customer service|customer experience|help ?desk/, zh: /客服|技术支持|售后/ },
  { family: "recruiting", en: /^(?!.*no recruiters).*(recruit|talent acquisition|sourcer)/, zh: /招聘(专员|经理|主管)|猎头|hrbp|人力资源/ },
  { family: "hardware", en: /embedded|firmware|hardware|electrical|fpga|asic|mechanical|robotics/, zh: /嵌入式|硬件|固件|芯片|fpga|单片机|ic设计|数字ic/ },
  { family: "analyst", en: /analyst|analytics/, zh: /分析师|数据分析|商业分析/ },
  { family: "data-engineer", en: /data engineer|big data|hadoop|\bspark\b|\betl\b|data (platform|infrastructure|warehouse|pipeline)/, zh: /数据研发|数据开发|大数据|数仓|数据仓库|数据平台|数据工程/ },
  { family: "ml", en: /data scien|machine learning|\bml\b|deep learning|\bai\b|artificial intelligence|computer vision|\bnlp\b|natural language|research scientist/, zh: /算法|机器学习|深度学习|数据挖掘|\bnlp\b|计算机视觉|人工智能|\bai\b/ },
  { family: "devops", en: /devops|dev ops|\bsre\b|site reliability|infrastructure|platform engineer|sys(tems?)? ?admin|systems? engineer|operations engineer|cloud engineer|release engineer|build engineer|(?<!co-)\bops\b/, zh: /运维|\bsre\b|devops|基础架构|基础设施|云平台/ },
  { family: "fullstack", en: /full[\s-]?stack/, zh: /全栈/, parent: "software" },
  { family: "ios", en: /\bios\b|iphone|\bswift\b/, zh: /\bios\b|苹果/, parent: "mobile" },
  { family: "android", en: /android/, zh: /android|安卓/, parent: "mobile" },
  { family: "mobile", en: /mobile|react native|flutter/, zh: /移动端|客户端|flutter/, parent: "software" },
  { family: "frontend", en: /front[\s-]?end|\bui (engineer|developer)|\b(react|angular|ember|vue)(\.?js)? (engineer|developer)|javascript (engineer|developer)/, zh: /前端|\bh5\b|小程序/, parent: "software" },
  { family: "backend", en: /back[\s-]?end|server[\s-]side|\bapi (engineer|developer)/, zh: /后端|服务端|后台|服务器开发/, parent: "software" },
];

const SOFTWARE_EN = /software|developer|engineer|programmer|\bcoder\b|\bdev\b|hacker|rails|django|python|ruby|\bjava\b|php|golang|scala|c\+\+|\.net|node(\.?js)?|erlang|elixir|haskell|clojure|\bgo\b/;
const SOFTWARE_ZH = /研发|开发|工程师|程序员|\bjava\b|php|python|golang|c\+\+|架构师/;
const CJK = /[\u3400-\u9fff]/;

/** The occupation families a title names, one per role it names (a set: "Android / iOS" is two). */
export function titleFamilies(title: string | null | undefined): Set<string> {
  const found = new Set<string>();
  if (!title) return found;
  for (const role of title.toLowerCase().split(/\s\/\s|\/|、|,|;|\band\b|&|\+|\s等$/)) {
    const family = roleFamily(roleWords(role).trim());
    if (family) found.add(family);
  }
  return found;
}

/** The one family a title names, or undefined when it names none or several (a posting with no single occupation to share). */
export function singleFamily(title: string | null | undefined): string | undefined {
  const families = titleFamilies(title);
  return families.size === 1 ? [...families][0] : undefined;
}

/**
 * Whether a result whose title names `resultFamilies` shares the occupation `family`: one of its roles is of
 * that family or of one below it ("software" takes a frontend role, "mobile" an iOS one; not the reverse).
 */
export function sharesFamily(family: string, resultFamilies: Set<string>): boolean {
  for (const found of resultFamilies) {
    for (let f: string | undefined = found; f !== undefined; f = PARENT.get(f)) if (f === family) return true;
  }
  return false;
}

/** Whether a text is written in Chinese (any CJK ideograph). */
export function isChinese(text: string | null | undefined): boolean {
  return CJK.test(text ?? "");
}

// --- internal ---

const PARENT = new Map(FAMILIES.filter((f) => f.parent).map((f) => [f.family, f.parent!]));

/** A Chinese role with a dash names a team on one side ("前端工程师-客服平台架构组", "站外营销-高级Java工程师"): the side naming a post. */
function roleWords(role: string): string {
  const sides = role.split(/(?<=[\u3400-\u9fff])\s*-\s*|\s*-\s*(?=[\u3400-\u9fff])/);
  if (sides.length < 2) return role;
  return sides.find((side) => POST_WORD.test(side)) ?? sides[0]!;
}

const POST_WORD = /工程师|开发|研发|专家|经理|师|实习生|负责人|leader|engineer|developer/;

function roleFamily(role: string): string | undefined {
  if (role === "") return undefined;
  for (const { family, en, zh } of FAMILIES) if (en.test(role) || zh?.test(role)) return family;
  return SOFTWARE_EN.test(role) || SOFTWARE_ZH.test(role) ? "software" : undefined;
}
