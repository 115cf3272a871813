/**
 * Occupations the data holds no posting for, to judge whether the score means the same on every
 * query: every result of such a query is irrelevant, so none should score 0.5 or more. Written
 * before the score was calibrated against them. Each is checked against the data's own titles
 * (`absentFromTitles`): an occupation whose pattern matches any title is not absent and is left out
 * (the evaluation says which). Every third is held out: reported, never tuned on.
 */

export interface AbsentQuery {
  query: string;
  /** A title matching this would be a posting for the occupation. */
  title: RegExp;
  heldOut: boolean;
}

const OCCUPATIONS: Array<[string, RegExp]> = [
  ["bus driver", /\bbus drivers?\b|\bcoach driver/i],
  ["firefighter", /fire ?fighter|fireman/i],
  ["carpenter", /carpent|joiner\b/i],
  ["plumber", /plumb/i],
  ["truck driver", /truck driver|lorry driver|\bcdl\b|trucker/i],
  ["forklift operator", /forklift/i],
  ["dental hygienist", /dental|dentist|hygienist/i],
  ["veterinarian", /veterinar|\bvet tech/i],
  ["hairdresser", /hair ?dress|hair ?stylist|barber|salon/i],
  ["bartender", /bartend|barmaid|mixologist/i],
  ["line cook", /\bcooks?\b|sous chef|kitchen/i],
  ["waiter or waitress", /waiter|waitress|server at|food server/i],
  ["housekeeper in a hotel", /housekeep|room attendant|maid\b/i],
  ["janitor", /janitor|custodian|cleaner\b/i],
  ["police officer", /police|sheriff|\bcop\b/i],
  ["paramedic", /paramedic|\bemt\b|ambulance/i],
  ["midwife", /midwi/i],
  ["flight attendant", /flight attendant|cabin crew|steward/i],
  ["welder", /welder|welding/i],
  ["roofer", /roofer|roofing/i],
  ["landscaper and gardener", /landscap|gardener|groundskeep/i],
  ["mail carrier", /mail carrier|postman|postal worker|letter carrier/i],
  ["crane operator", /crane operator/i],
  ["butcher", /butcher|meat cutter/i],
  ["baker", /\bbakers?\b|pastry/i],
  ["tailor", /\btailor\b|seamstress|dressmaker/i],
  ["school librarian", /librarian/i],
  ["nanny", /nanny|babysit|au pair/i],
  ["lifeguard", /lifeguard/i],
  ["massage therapist", /massage/i],
  ["bank teller", /teller/i],
  ["cashier at a supermarket", /cashier|checkout operator/i],
  ["surgeon", /surgeon/i],
  ["pharmacist", /pharmacist|pharmacy/i],
  ["farm worker", /farm (hand|worker|labou?rer)|farmer|agricultural worker/i],
  ["locksmith", /locksmith/i],
  ["tattoo artist", /tattoo/i],
  ["dog walker", /dog walker|pet sitter|dog groomer/i],
  ["zookeeper", /zoo ?keeper/i],
  ["funeral director", /funeral|mortician|embalmer/i],
];

export const ABSENT_QUERIES: AbsentQuery[] = OCCUPATIONS.map(([query, title], i) => ({ query, title, heldOut: i % 3 === 2 }));

/** The queries no title of `titles` matches, and the names of those that one does (not absent after all). */
export function absentFromTitles(queries: AbsentQuery[], titles: string[]): { absent: AbsentQuery[]; present: string[] } {
  const absent: AbsentQuery[] = [];
  const present: string[] = [];
  for (const query of queries) {
    if (titles.some((title) => query.title.test(title))) present.push(query.query);
    else absent.push(query);
  }
  return { absent, present };
}
