// Matching a résumé to postings (?match): the profile pasted in, the search form's filters, and cards
// that say which skills each posting shares with the profile and which it asks for beyond it. The
// profile travels only in the body of POST /v1/match: it is never put in the address or in storage
// (the last answer is kept in memory, for coming back from a posting), and what the service read of it
// reaches the page only through textContent.
import { FILTERS, PROFILE_MAX_CHARS, postMatch, readKey } from "./api.js";
import { card } from "./card.js";
import { fact, jobDescription } from "./views.js";

const $ = (id) => document.getElementById(id);
const SKILLS_SHOWN = 12;
const START = "Paste your résumé or profile and press Find matching jobs.";

let ui;
let page;
let active = false;
let last = null;
let inFlight = null;

/**
 * Wires the match form; on a ?match address the page becomes the match view (the search form's filters
 * move into the match form). `page` holds the page's report, showMessage, clearMessage and askForKey.
 */
export function setUpMatch(pageUi, pageActions) {
  ui = { ...pageUi, matchForm: $("match-form"), profile: $("profile"), count: $("profile-count"), clear: $("clear-profile"), filters: $("match-filters"), facts: $("read-facts"), hints: $("match-hints") };
  page = pageActions;
  ui.profile.addEventListener("input", showCount);
  ui.profile.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) ui.matchForm.requestSubmit();
  });
  ui.matchForm.addEventListener("submit", (event) => {
    event.preventDefault();
    runMatch();
  });
  ui.clear.addEventListener("click", clearProfile);
  for (const type of ["input", "change"]) ui.filters.addEventListener(type, showFiltersSet);
  active = new URLSearchParams(location.search).has("match");
  if (active) enter();
}

/** Shows the match view (again, with the last matches) when the address is ?match; false otherwise. */
export function showMatch() {
  if (!active || !new URLSearchParams(location.search).has("match")) return false;
  page.clearMessage();
  document.title = "Match my résumé – Job search";
  if (last) render(last);
  else clearResults(START);
  return true;
}

/** After a key is saved on the match view: the match runs when a profile is there. False elsewhere. */
export function matchAfterKey() {
  if (!active) return false;
  if (ui.profile.value.trim() !== "") runMatch();
  else ui.profile.focus();
  return true;
}

// --- internal ---

function enter() {
  ui.form.hidden = true;
  ui.matchForm.hidden = false;
  // One set of filter fields for both forms: the search form's move here.
  ui.filters.append(ui.form.querySelector(".filters"));
  // Folded once already in the match form: the search form's "More filters" are unfolded there.
  const more = $("more-filters");
  more.replaceWith(...more.querySelector(".more-fields").children);
  $("page-heading").textContent = "Match my résumé to jobs";
  $("search-link").removeAttribute("aria-current");
  $("match-link").setAttribute("aria-current", "page");
  document.title = "Match my résumé – Job search";
  ui.status.textContent = START;
  showCount();
  showFiltersSet();
}

/** The closed filters say how many are set ("Filters (2 set)"): a set one is not forgotten. */
function showFiltersSet() {
  const set = FILTERS.map($).filter((field) => field.value !== initialValue(field)).length;
  ui.filters.querySelector("summary").textContent = set === 0 ? "Filters" : `Filters (${set} set)`;
}

function initialValue(field) {
  if (!(field instanceof HTMLSelectElement)) return field.defaultValue;
  return ([...field.options].find((option) => option.defaultSelected) ?? field.options[0])?.value ?? "";
}

function showCount() {
  const length = ui.profile.value.length;
  const over = length - PROFILE_MAX_CHARS;
  ui.count.textContent = `${length.toLocaleString()} / ${PROFILE_MAX_CHARS.toLocaleString()} characters${over > 0 ? `: ${over.toLocaleString()} too many` : ""}`;
  ui.count.classList.toggle("over", over > 0);
  if (over > 0) ui.profile.setAttribute("aria-invalid", "true");
  else ui.profile.removeAttribute("aria-invalid");
}

async function runMatch() {
  page.clearMessage();
  const profile = ui.profile.value;
  if (profile.trim() === "") {
    page.showMessage("Paste your résumé or profile first.");
    ui.profile.focus();
    return;
  }
  if (profile.length > PROFILE_MAX_CHARS) {
    page.showMessage(`The résumé is ${profile.length.toLocaleString()} characters long; at most ${PROFILE_MAX_CHARS.toLocaleString()} are read. Shorten it and try again.`);
    ui.profile.focus();
    return;
  }
  if (!readKey()) {
    page.askForKey("Enter your API key first.");
    return;
  }
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  ui.matchForm.setAttribute("aria-busy", "true");
  ui.status.textContent = "Matching…";
  try {
    const filters = Object.fromEntries(FILTERS.map((name) => [name, $(name).value.trim()]));
    last = await postMatch(profile, filters, controller.signal);
    render(last);
  } catch (error) {
    if (error.name === "AbortError") return;
    last = null;
    clearResults("The match did not run.");
    page.report(error);
  } finally {
    if (inFlight === controller) {
      inFlight = null;
      ui.matchForm.removeAttribute("aria-busy");
    }
  }
}

function render(body) {
  ui.understood.hidden = true;
  ui.facets.hidden = true;
  ui.pager.hidden = true;
  ui.results.replaceChildren(...body.results.map((result) => card(result, { loadDescription: jobDescription, onError: page.report })));
  renderRead(body.profile, body.query.hints);
  const count = body.results.length;
  const order = body.results.length > 1 && $("sort").value === "date" ? ", newest first" : "";
  ui.status.textContent = count === 0
    ? "No postings match this résumé with these filters. Try fewer filters."
    : `${count === 1 ? "1 match" : `Best ${count} matches`}${order} for your résumé in ${body.search_time_ms} ms.`;
}

/** What the service read of the profile, and its hints (the search's too: "no close match"). */
function renderRead(profile, queryHints) {
  const rows = [
    ["Titles", profile.titles.join(", ")],
    ["Seniority", [profile.seniority, profile.years === null ? "" : `${profile.years} years`].filter(Boolean).join(", ")],
    ["Skills", skillsText(profile.skills)],
    ["Languages", profile.languages.join(", ")],
    ["Filters read", filtersText(profile.applied_filters)],
    ["Preferred", filtersText(profile.preferred ?? {})],
    ["Ranked near", filtersText(profile.nearby)],
    ["Searched", profile.text ? `“${profile.text}”` : ""],
  ];
  ui.facts.replaceChildren(...rows.filter(([, value]) => value).map(([label, value]) => fact(label, value)));
  ui.hints.replaceChildren(...[...profile.hints, ...queryHints].map((hint) => {
    const item = document.createElement("li");
    item.textContent = hint;
    if (hint.startsWith("no close match")) item.className = "warning";
    return item;
  }));
  ui.profileRead.hidden = false;
}

/** The most mentioned skills; a long CV's others are counted, so the results stay in view. */
function skillsText(skills) {
  const more = skills.length - SKILLS_SHOWN;
  return more > 1 ? `${skills.slice(0, SKILLS_SHOWN).join(", ")} and ${more} more` : skills.join(", ");
}

/** "city Berlin; remote"; a filter of several values joins them with "or". */
function filtersText(filters) {
  return Object.entries(filters)
    .map(([name, value]) => (name === "remote" ? (value ? "remote" : "on site") : `${name.replaceAll("_", " ")} ${[value].flat().join(" or ")}`))
    .join("; ");
}

function clearResults(status) {
  ui.results.replaceChildren();
  ui.profileRead.hidden = true;
  ui.status.textContent = status;
}

function clearProfile() {
  inFlight?.abort();
  ui.profile.value = "";
  last = null;
  showCount();
  page.clearMessage();
  clearResults(START);
  ui.profile.focus();
}
