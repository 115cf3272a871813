/** One sentence or line of a profile that says (or does not say) where and how the person wants to work. */
export interface WishCase {
  /** The line as a person would write it in a CV, LinkedIn summary or short profile. */
  text: string;
  /** What a reader should apply as requirements (filters): only these keys, exactly. Omit or {} when none. */
  filters?: { city?: string[]; country?: string[]; remote?: boolean; employment_type?: string[] };
  /** What a reader should treat as a preference (ranks, does not filter). Omit or {} when none. */
  preferred?: { city?: string[]; country?: string[]; remote?: boolean; employment_type?: string[] };
  /** Where the person says they are (not a wish). Omit or {} when none. */
  nearby?: { city?: string[]; country?: string[]; remote?: boolean };
}

export const WISHES_HELD_OUT: WishCase[] = [
  { text: "Looking for a full-time backend role in Berlin.", filters: { city: ["Berlin"], employment_type: ["FULL_TIME"] } },
  { text: "Spent six years building trading systems at a bank in New York." },
  { text: "Ideally remote, but I'm flexible.", preferred: { remote: true } },
  { text: "Based in Munich.", nearby: { city: ["Munich"] } },
  { text: "Relocating to Amsterdam this summer and searching for data engineering positions there.", filters: { city: ["Amsterdam"] } },
  { text: "Both remote and on-site arrangements work for me." },
  { text: "期望城市：上海", filters: { city: ["上海"] } },
  { text: "Would rather work in Boston than anywhere else, though other cities are not ruled out.", preferred: { city: ["Boston"] } },
  { text: "I only want fully remote work.", filters: { remote: true } },
  { text: "Previously interned at a startup in Palo Alto (summer 2019)." },
  { text: "I live in San Diego with my wife and two kids.", nearby: { city: ["San Diego"] } },
  { text: "Open to contract work.", preferred: { employment_type: ["CONTRACTOR"] } },
  { text: "只考虑杭州的岗位，全职。", filters: { city: ["杭州"], employment_type: ["FULL_TIME"] } },
  { text: "Not interested in contract or freelance roles." },
  { text: "Will only consider positions in Austin or Denver.", filters: { city: ["Austin", "Denver"] } },
  { text: "Senior SRE. Part-time preferred.", preferred: { employment_type: ["PART_TIME"] } },
  { text: "Desired location: Toronto", filters: { city: ["Toronto"] } },
  { text: "Only 3 years of Kotlin, but a strong Java background behind it." },
  { text: "Location: Pittsburgh", nearby: { city: ["Pittsburgh"] } },
  { text: "Location preference: Chicago (not a must)", preferred: { city: ["Chicago"] } },
  { text: "Seeking freelance contracts only.", filters: { employment_type: ["CONTRACTOR"] } },
  { text: "2016–2020 软件工程师，上海某互联网公司" },
  { text: "最好在深圳，其他城市也可以考虑。", preferred: { city: ["深圳"] } },
  { text: "Final-year CS student looking for a summer internship in Seattle.", filters: { city: ["Seattle"], employment_type: ["INTERN"] } },
  { text: "现居成都。", nearby: { city: ["成都"] } },
  { text: "Not looking for remote positions." },
  { text: "It would be nice to land somewhere in Canada.", preferred: { country: ["CA"] } },
  { text: "Product designer – searching for roles in Germany only.", filters: { country: ["DE"] } },
  { text: "Led a team of 12 engineers across the London and Berlin offices." },
  { text: "I am search job in London, part time because I study still.", filters: { city: ["London"], employment_type: ["PART_TIME"] } },
  { text: "I prefer Stockholm or Copenhagen.", preferred: { city: ["Stockholm", "Copenhagen"] } },
  { text: "Frontend developer currently residing in Ottawa.", nearby: { city: ["Ottawa"] } },
  { text: "Work preference: remote only", filters: { remote: true } },
  { text: "Full-stack engineer with a passion for clean code and good tests." },
  { text: "Only 2 years of experience so far, but eager to learn — remote preferred.", preferred: { remote: true } },
  { text: "Moving to the UK in March and looking for a permanent full-time job there.", filters: { country: ["GB"], employment_type: ["FULL_TIME"] } },
  { text: "Living in the Netherlands since 2019.", nearby: { country: ["NL"] } },
  { text: "Graduated from the University of Toronto in 2018." },
  { text: "Data analyst, happy in any city, though Manchester would be my first choice.", preferred: { city: ["Manchester"] } },
  { text: "意向：北京，实习", filters: { city: ["北京"], employment_type: ["INTERN"] } },
];
