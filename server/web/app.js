// The search page: plain JavaScript modules, no framework, no build step.
import { explain, FILTERS, postSearch, readKey, writeKey } from "./api.js";
import { card } from "./card.js";
import { matchAfterKey, setUpMatch, showMatch } from "./match.js";
import { fillCityOptions, knownCity, loadCities, loadSources } from "./places.js";
import { setUpSaving } from "./saved.js";
import { renderFacets, showAddressedView } from "./views.js";
import { understoodLine } from "./understood.js";

/** The deepest result the service pages to (offset + top_k; RESULT_WINDOW_MAX in shared/search-params.ts). */
const RESULT_WINDOW = 1000;

const $ = (id) => document.getElementById(id);
const ui = {
  keyForm: $("key-form"), keyInput: $("api-key"), cancelKey: $("cancel-key"),
  keySaved: $("key-saved"), keyLabel: $("key-label"), changeKey: $("change-key"), forgetKey: $("forget-key"),
  form: $("search-form"), q: $("q"), city: $("city"), cityOptions: $("city-options"), country: $("country"),
  source: $("source"), message: $("message"), status: $("status"), heading: $("results-heading"),
  results: $("results"), pager: $("pager"), prev: $("prev-page"), next: $("next-page"), pageLabel: $("page-label"),
  understood: $("understood"), understoodText: $("understood-text"), exactWords: $("exact-words"), facets: $("facets"),
  profileRead: $("profile-read"), hints: $("hints"), more: $("more-filters"),
};

/** The filters folded under "More filters" (the form's others stay in view). */
const MORE = ["since", "source", "remote", "seniority", "employment_type", "tags", "company", "salary_min", "near"];

/** A score from which a result is a close match (PLAUSIBLE_SCORE in shared/search.ts): what total_matches counts. */
const CLOSE_SCORE = 0.5;

/** The search on screen: its parameters, and (once asked for) the same page with full descriptions. */
let current = null;
let inFlight = null;
const offerSaving = setUpSaving();

// --- the API key: entered once, kept in localStorage ---

function showKey({ editing = false } = {}) {
  const key = readKey();
  const edit = editing || !key;
  ui.keyForm.hidden = !edit;
  ui.keySaved.hidden = edit;
  ui.cancelKey.hidden = !key;
  const match = /^(jsk_[0-9a-f]{16}_)/.exec(key);
  ui.keyLabel.textContent = match ? `${match[1]}…` : `${key.slice(0, 4)}…`;
  if (edit) ui.keyInput.value = "";
}

function askForKey(text) {
  showKey({ editing: true });
  if (text) showMessage(text);
  ui.keyInput.focus();
}

// --- messages ---

function showMessage(text) {
  ui.message.textContent = text;
  ui.message.hidden = false;
}

function clearMessage() {
  ui.message.hidden = true;
  ui.message.textContent = "";
}

function report(error) {
  if (error.status === 403) askForKey(explain(error));
  else showMessage(explain(error));
}

// --- the form and the address bar ---

/** A search from the form reads conditions in the words; only the "exact words" link turns that off. */
function readForm(offset = 0) {
  const params = { q: ui.q.value.trim(), offset, understand: "" };
  for (const name of FILTERS) params[name] = $(name).value.trim();
  return params;
}

function writeForm(params) {
  ui.q.value = params.q;
  for (const name of FILTERS) {
    const field = $(name);
    const value = params[name] ?? "";
    // A choice from the address that the list lacks (a source or country not loaded yet) is added.
    if (field instanceof HTMLSelectElement && value && ![...field.options].some((o) => o.value === value)) field.append(new Option(value, value));
    field.value = value;
  }
  showMoreSet({ open: true });
}

/** "More filters (2 set)": a folded filter that is set is not forgotten; `open` unfolds them when one is. */
function showMoreSet({ open = false } = {}) {
  const set = MORE.filter((name) => $(name).value.trim() !== "").length;
  ui.more.querySelector("summary").textContent = set === 0 ? "More filters" : `More filters (${set} set)`;
  if (open && set > 0) ui.more.open = true;
}

function fromAddress() {
  const search = new URLSearchParams(location.search);
  const params = {
    q: search.get("q") ?? "",
    offset: Math.max(0, Number.parseInt(search.get("offset") ?? "0", 10) || 0),
    understand: search.get("understand") === "false" ? "false" : "",
  };
  for (const name of FILTERS) params[name] = search.get(name) ?? (name === "sort" ? "relevance" : name === "top_k" ? "20" : "");
  return params;
}

function toAddress(params) {
  const search = new URLSearchParams({ q: params.q });
  for (const name of FILTERS) if (params[name] && !(name === "sort" && params[name] === "relevance") && !(name === "top_k" && params[name] === "20")) search.set(name, params[name]);
  if (params.offset > 0) search.set("offset", String(params.offset));
  if (params.understand === "false") search.set("understand", "false");
  return `?${search}`;
}

// --- searching ---

async function search(params, { push = true, focusResults = false } = {}) {
  clearMessage();
  if (!params.q) {
    showMessage("Enter what you are looking for.");
    ui.q.focus();
    return;
  }
  if (!readKey()) {
    askForKey("Enter your API key first.");
    return;
  }
  if (params.country && !/^[A-Z]{2}$/.test(params.country)) {
    showMessage("Country must be a two-letter code such as US.");
    return;
  }
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  if (push) history.pushState(null, "", toAddress(params));
  ui.form.setAttribute("aria-busy", "true");
  ui.status.textContent = "Searching…";
  try {
    const body = await postSearch(params, "summary", controller.signal);
    current = { params, full: null };
    render(body, params);
    offerSaving(params);
    if (focusResults) ui.heading.focus();
  } catch (error) {
    if (error.name === "AbortError") return;
    current = null;
    offerSaving(undefined);
    ui.results.replaceChildren();
    ui.pager.hidden = true;
    ui.status.textContent = "The search did not run.";
    report(error);
  } finally {
    if (inFlight === controller) {
      inFlight = null;
      ui.form.removeAttribute("aria-busy");
    }
  }
}

function render(body, params) {
  const topK = Number(params.top_k);
  const first = params.offset + 1;
  const count = body.results.length;
  ui.results.replaceChildren(...body.results.map((result) => card(result, { loadDescription: fullDescription, onError: report })));
  showUnderstood(body.query);
  showHints(body.query);
  renderFacets(ui.facets, body.facets, pickFacet);
  if (count === 0) {
    ui.status.textContent = params.offset === 0
      ? `No postings match “${params.q}”. Try other words or fewer filters.`
      : `No more results for “${params.q}”.`;
  } else {
    const order = count === 1 ? "" : params.sort === "date" ? ", newest first," : ", best first,";
    ui.status.textContent = `${count === 1 ? "1 result" : `${count} results`} (${first}–${params.offset + count})${order} for “${params.q}” in ${body.search_time_ms} ms.${closeMatches(body)}`;
  }
  const page = Math.floor(params.offset / topK) + 1;
  ui.pageLabel.textContent = `Page ${page}`;
  ui.prev.disabled = params.offset === 0;
  ui.next.disabled = count < topK || params.offset + 2 * topK > RESULT_WINDOW;
  ui.pager.hidden = ui.prev.disabled && ui.next.disabled;
  document.title = `${params.q} – Job search`;
}

/**
 * How many postings match closely in all (total_matches, what the counts beside count) and how many of
 * them this page shows, so the numbers on screen agree with the cards.
 */
function closeMatches(body) {
  if (body.total_matches === undefined) return "";
  const shown = body.results.filter((result) => result.score >= CLOSE_SCORE).length;
  const all = body.total_matches === 1 ? "1 close match" : `${body.total_matches} close matches`;
  return ` ${all} (score ${CLOSE_SCORE} or more) in all, ${shown} on this page.`;
}

/** Every hint of the response ("no close match: …", a correction, a condition not applied), one a line. */
function showHints(query) {
  const hints = query?.hints ?? [];
  ui.hints.replaceChildren(...hints.map((hint) => {
    const item = document.createElement("li");
    item.textContent = hint;
    return item;
  }));
  ui.hints.hidden = hints.length === 0;
}

/** What the service read in the words ("Showing remote jobs in Toronto for “python”"), with a way back to the exact words. */
function showUnderstood(query) {
  const line = query ? understoodLine(query) : undefined;
  ui.understood.hidden = !line;
  if (line) ui.understoodText.textContent = `${line}.`;
}

/** A facet value chosen: it becomes the form's filter (a skill is added to the others) and the search runs again. */
function pickFacet(name, value) {
  const field = $(name);
  if (name === "tags") field.value = [...new Set([...field.value.split(","), value].map((tag) => tag.trim()).filter(Boolean))].join(", ");
  else {
    if (field instanceof HTMLSelectElement && ![...field.options].some((o) => o.value === value)) field.append(new Option(value, value));
    field.value = value;
  }
  showMoreSet({ open: true });
  search(readForm(), { focusResults: true });
}

// --- one posting, postings like it (?job=ID, ?similar=ID), and matching a résumé (?match) ---

setUpMatch(ui, { report, showMessage, clearMessage, askForKey });
const route = async () => (await showAddressedView(ui, { report, clearMessage })) || showMatch();

ui.results.addEventListener("click", (event) => {
  const link = event.target.closest?.("a.details-link, a.similar-link");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  history.pushState(null, "", link.getAttribute("href"));
  route().then(() => ui.heading.focus());
});

// --- one result's full description ---

/** The same page again with detail "full", asked for once per page; results are matched by URL. */
async function fullDescription(result) {
  const page = current;
  page.full ??= postSearch(page.params, "full").then((body) => new Map(body.results.map((r) => [r.job_url, r.job_description])));
  try {
    return (await page.full).get(result.job_url);
  } catch (error) {
    page.full = null;
    throw error;
  }
}

// --- wiring ---

ui.keyForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const key = ui.keyInput.value.trim();
  if (!key) {
    ui.keyInput.focus();
    return;
  }
  writeKey(key);
  clearMessage();
  showKey();
  ui.status.textContent = "API key saved.";
  loadCities(ui, report, fromAddress().country);
  loadSources(ui, report, fromAddress().source);
  if (matchAfterKey()) return;
  if (ui.q.value.trim()) search(readForm());
  else ui.q.focus();
});

ui.cancelKey.addEventListener("click", () => {
  showKey();
  ui.changeKey.focus();
});

ui.changeKey.addEventListener("click", () => askForKey());

ui.forgetKey.addEventListener("click", () => {
  writeKey("");
  showKey();
  clearMessage();
  ui.status.textContent = "The API key was removed from this browser.";
  ui.keyInput.focus();
});

ui.form.addEventListener("submit", (event) => {
  event.preventDefault();
  search(readForm());
});

for (const type of ["input", "change"]) ui.more.addEventListener(type, () => showMoreSet());

ui.country.addEventListener("change", () => {
  fillCityOptions(ui);
  if (ui.city.value && !knownCity(ui.city.value, ui.country.value)) ui.city.value = "";
});

ui.exactWords.addEventListener("click", (event) => {
  event.preventDefault();
  search({ ...current.params, offset: 0, understand: "false" }, { focusResults: true });
});

ui.prev.addEventListener("click", () => {
  const { params } = current;
  search({ ...params, offset: Math.max(0, params.offset - Number(params.top_k)) }, { focusResults: true });
});

ui.next.addEventListener("click", () => {
  const { params } = current;
  search({ ...params, offset: params.offset + Number(params.top_k) }, { focusResults: true });
});

window.addEventListener("popstate", async () => {
  if (await route()) return;
  const params = fromAddress();
  writeForm(params);
  if (params.q) search(params, { push: false });
});

// --- start ---

showKey();
const initial = fromAddress();
writeForm(initial);
if (readKey()) {
  loadCities(ui, report, fromAddress().country);
  loadSources(ui, report, fromAddress().source);
  route().then((shown) => {
    if (!shown && initial.q) search(initial, { push: false });
  });
}
