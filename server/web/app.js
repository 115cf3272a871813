// The search page: plain JavaScript, no framework. Posting text reaches the page only through
// textContent and attribute setters, never as HTML, and links only when they are http(s).

const KEY_STORAGE = "jobsearch.apiKey";
const OFFSET_MAX = 10000;
const FILTERS = ["city", "country", "since", "source", "sort", "top_k"];

const $ = (id) => document.getElementById(id);
const ui = {
  keyForm: $("key-form"), keyInput: $("api-key"), cancelKey: $("cancel-key"),
  keySaved: $("key-saved"), keyLabel: $("key-label"), changeKey: $("change-key"), forgetKey: $("forget-key"),
  form: $("search-form"), q: $("q"), city: $("city"), cityOptions: $("city-options"), country: $("country"),
  source: $("source"), message: $("message"), status: $("status"), heading: $("results-heading"),
  results: $("results"), pager: $("pager"), prev: $("prev-page"), next: $("next-page"), pageLabel: $("page-label"),
  template: $("card-template"),
};

/** The search on screen: its parameters, and (once asked for) the same page with full descriptions. */
let current = null;
let inFlight = null;
let cities = [];
let memoryKey = "";

// --- the API key: entered once, kept in localStorage ---

function readKey() {
  try { return localStorage.getItem(KEY_STORAGE) ?? ""; } catch { return memoryKey; }
}

function writeKey(key) {
  memoryKey = key;
  try {
    if (key) localStorage.setItem(KEY_STORAGE, key);
    else localStorage.removeItem(KEY_STORAGE);
  } catch { /* storage disabled: the key lasts until the page closes */ }
}

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

// --- talking to the service ---

class ApiError extends Error {
  constructor(status, body) {
    super(body?.error ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error_code;
    this.requestId = body?.request_id;
    this.retryAfter = body?.retry_after;
  }
}

async function api(path, init = {}) {
  const headers = { "x-api-key": readKey(), ...init.headers };
  let response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, { error: "Cannot reach the service. Check your connection and try again." });
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

function searchBody(params, detail) {
  const body = { q: params.q, top_k: Number(params.top_k), offset: params.offset, sort: params.sort, detail };
  for (const name of ["city", "country", "since", "source"]) if (params[name]) body[name] = params[name];
  return body;
}

function postSearch(params, detail, signal) {
  return api("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(searchBody(params, detail)),
    signal,
  });
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

function explain(error) {
  if (error.status === 403) return "The API key was refused: it is missing, unknown or revoked. Enter a valid key.";
  if (error.status === 429) {
    const wait = Number(error.retryAfter) || 1;
    return `Too many requests for this key. Wait ${wait} second${wait === 1 ? "" : "s"} and try again.`;
  }
  if (error.status === 400) return `The search could not run: ${error.message}.`;
  if (error.status === 0) return error.message;
  const id = error.requestId ? ` (request id ${error.requestId})` : "";
  return `The service had a problem${id}. Try again in a moment.`;
}

function report(error) {
  if (error.status === 403) askForKey(explain(error));
  else showMessage(explain(error));
}

// --- the form and the address bar ---

function readForm(offset = 0) {
  const params = { q: ui.q.value.trim(), offset };
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
}

function fromAddress() {
  const search = new URLSearchParams(location.search);
  const params = { q: search.get("q") ?? "", offset: Math.max(0, Number.parseInt(search.get("offset") ?? "0", 10) || 0) };
  for (const name of FILTERS) params[name] = search.get(name) ?? (name === "sort" ? "date" : name === "top_k" ? "20" : "");
  return params;
}

function toAddress(params) {
  const search = new URLSearchParams({ q: params.q });
  for (const name of FILTERS) if (params[name] && !(name === "sort" && params[name] === "date") && !(name === "top_k" && params[name] === "20")) search.set(name, params[name]);
  if (params.offset > 0) search.set("offset", String(params.offset));
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
    current = { params, results: body.results, full: null };
    render(body, params);
    if (focusResults) ui.heading.focus();
  } catch (error) {
    if (error.name === "AbortError") return;
    ui.status.textContent = "No results shown.";
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
  ui.results.replaceChildren(...body.results.map(card));
  learnSources(body.results);
  if (count === 0) {
    ui.status.textContent = params.offset === 0
      ? `No postings match “${params.q}”. Try other words or fewer filters.`
      : `No more results for “${params.q}”.`;
  } else {
    ui.status.textContent = `${count === 1 ? "1 result" : `${count} results`} (${first}–${params.offset + count}) for “${params.q}” in ${body.search_time_ms} ms.`;
  }
  const page = Math.floor(params.offset / topK) + 1;
  ui.pageLabel.textContent = `Page ${page}`;
  ui.prev.disabled = params.offset === 0;
  ui.next.disabled = count < topK || params.offset + topK > OFFSET_MAX;
  ui.pager.hidden = ui.prev.disabled && ui.next.disabled;
  document.title = `${params.q} – Job search`;
}

// --- one result ---

function card(result) {
  const item = ui.template.content.firstElementChild.cloneNode(true);
  const title = result.job_title || "Untitled posting";
  const link = item.querySelector(".title-link");
  const url = safeUrl(result.job_url);
  if (url) {
    link.href = url;
    link.textContent = title;
    item.querySelector(".title-text").remove();
  } else {
    link.remove();
    item.querySelector(".title-text").textContent = title;
  }
  setText(item, ".company", result.company_name);
  fact(item, ".place", result.city);
  const time = item.querySelector("time");
  time.dateTime = `${result.publish_time.replace(" ", "T")}Z`;
  time.textContent = formatDate(result.publish_time);
  fact(item, ".salary", result.base_salary && formatSalary(result.base_salary));
  fact(item, ".kind", [result.seniority_level, result.employment_type].filter(Boolean).map(humanize).join(" · "));
  fact(item, ".source", result.data_source);
  fact(item, ".score", result.score.toFixed(2));
  const tags = item.querySelector(".tags");
  for (const tag of result.job_tags) {
    const li = document.createElement("li");
    li.textContent = tag;
    tags.append(li);
  }
  if (result.job_tags.length === 0) tags.remove();

  const button = item.querySelector(".toggle-description");
  const description = item.querySelector(".description");
  description.id = `description-${Math.random().toString(36).slice(2)}`;
  button.setAttribute("aria-controls", description.id);
  button.addEventListener("click", () => toggleDescription(button, description, result));
  return item;
}

async function toggleDescription(button, description, result) {
  // Not `disabled` while loading: that would take the keyboard focus away from the button.
  if (button.getAttribute("aria-disabled") === "true") return;
  if (button.getAttribute("aria-expanded") === "true") {
    button.setAttribute("aria-expanded", "false");
    button.textContent = "Show description";
    description.hidden = true;
    return;
  }
  if (!description.dataset.loaded) {
    button.setAttribute("aria-disabled", "true");
    button.textContent = "Loading description…";
    try {
      const text = await fullDescription(result);
      description.textContent = text ?? "The description is no longer available: search again.";
      description.dataset.loaded = "true";
    } catch (error) {
      button.textContent = "Show description";
      report(error);
      return;
    } finally {
      button.removeAttribute("aria-disabled");
    }
  }
  button.setAttribute("aria-expanded", "true");
  button.textContent = "Hide description";
  description.hidden = false;
}

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

function fact(item, selector, value) {
  const node = item.querySelector(selector);
  if (value) node.querySelector("dd").textContent = value;
  else node.remove();
}

function setText(item, selector, value) {
  const node = item.querySelector(selector);
  if (value) node.textContent = value;
  else node.remove();
}

/** FULL_TIME → Full time, senior → Senior; anything else as it is. */
function humanize(value) {
  if (!/^[A-Za-z_]+$/.test(value)) return value;
  const words = value.replaceAll("_", " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The source filter lists the spec's two sources; sources seen in results join them (data sets differ). */
function learnSources(results) {
  const known = new Set([...ui.source.options].map((option) => option.value));
  for (const { data_source: source } of results) {
    if (!known.has(source)) {
      ui.source.append(new Option(source, source));
      known.add(source);
    }
  }
}

function safeUrl(value) {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

function formatDate(publishTime) {
  const date = new Date(`${publishTime.replace(" ", "T")}Z`);
  if (Number.isNaN(date.getTime())) return publishTime;
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }).format(date);
}

const PERIODS = { YEAR: "year", MONTH: "month", WEEK: "week", DAY: "day", HOUR: "hour" };

function formatSalary(salary) {
  const match = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?) ([A-Z]{3})\/(YEAR|MONTH|WEEK|DAY|HOUR)$/.exec(salary);
  if (!match) return salary;
  try {
    const money = new Intl.NumberFormat(undefined, { style: "currency", currency: match[3], maximumFractionDigits: 0 });
    return `${money.format(Number(match[1]))}–${money.format(Number(match[2]))} per ${PERIODS[match[4]]}`;
  } catch {
    return salary;
  }
}

// --- cities and countries for the filters ---

async function loadCities() {
  try {
    const body = await api("/v1/cities");
    cities = body.cities;
  } catch (error) {
    report(error);
    return;
  }
  const names = new Intl.DisplayNames(undefined, { type: "region" });
  const countries = [...new Set(cities.map((c) => c.country).filter(Boolean))]
    .map((code) => ({ code, name: safeRegionName(names, code) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const chosen = ui.country.value || fromAddress().country;
  ui.country.replaceChildren(ui.country.options[0]);
  for (const { code, name } of countries) ui.country.append(new Option(`${name} (${code})`, code));
  if (chosen && !countries.some((c) => c.code === chosen)) ui.country.append(new Option(chosen, chosen));
  ui.country.value = chosen;
  fillCityOptions();
}

function safeRegionName(names, code) {
  try { return names.of(code) ?? code; } catch { return code; }
}

function fillCityOptions() {
  const country = ui.country.value;
  const options = cities
    .filter((c) => !country || c.country === country)
    .map((c) => {
      const option = document.createElement("option");
      option.value = c.city;
      option.label = `${c.country ?? "?"} · ${c.postings} posting${c.postings === 1 ? "" : "s"}`;
      return option;
    });
  ui.cityOptions.replaceChildren(...options);
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
  loadCities();
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

ui.country.addEventListener("change", () => {
  fillCityOptions();
  if (ui.city.value && !cities.some((c) => c.city === ui.city.value && (!ui.country.value || c.country === ui.country.value))) ui.city.value = "";
});

ui.prev.addEventListener("click", () => {
  const { params } = current;
  search({ ...params, offset: Math.max(0, params.offset - Number(params.top_k)) }, { focusResults: true });
});

ui.next.addEventListener("click", () => {
  const { params } = current;
  search({ ...params, offset: params.offset + Number(params.top_k) }, { focusResults: true });
});

window.addEventListener("popstate", () => {
  const params = fromAddress();
  writeForm(params);
  if (params.q) search(params, { push: false });
});

// --- start ---

showKey();
const initial = fromAddress();
writeForm(initial);
if (readKey()) {
  loadCities();
  if (initial.q) search(initial, { push: false });
}
