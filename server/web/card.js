// One result as a card. Posting text reaches the page only through textContent and attribute
// setters, never as HTML, and a posting's URL becomes a link only when it is http(s).

const template = document.getElementById("card-template");

/**
 * A card for `result` (a search's, or a match's with `result.match`: its reasons and skills). `loadDescription(result)` resolves to the full description (undefined when
 * gone); `onError(error)` is told when that fails.
 */
export function card(result, { loadDescription, onError }) {
  const item = template.content.firstElementChild.cloneNode(true);
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
  // A match's skills, matched and missing, are the posting's tags and more: shown instead of them.
  if (result.job_tags.length === 0 || result.match) tags.remove();
  else appendItems(tags, result.job_tags);
  if (result.match) showMatch(item.querySelector(".match"), result.match);
  item.querySelector(".details-link").href = `?job=${encodeURIComponent(result.id)}`;
  item.querySelector(".similar-link").href = `?similar=${encodeURIComponent(result.id)}`;

  const button = item.querySelector(".toggle-description");
  const description = item.querySelector(".description");
  description.id = `description-${Math.random().toString(36).slice(2)}`;
  button.setAttribute("aria-controls", description.id);
  button.addEventListener("click", () => toggleDescription(button, description, () => loadDescription(result), onError));
  return item;
}

// --- internal ---

async function toggleDescription(button, description, load, onError) {
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
      const text = await load();
      description.textContent = text ?? "The description is no longer available: search again.";
      description.dataset.loaded = "true";
    } catch (error) {
      button.textContent = "Show description";
      onError(error);
      return;
    } finally {
      button.removeAttribute("aria-disabled");
    }
  }
  button.setAttribute("aria-expanded", "true");
  button.textContent = "Hide description";
  description.hidden = false;
}

/** Why the posting matches a profile: the reasons, the skills both name and those it asks for beyond the profile. */
function showMatch(part, match) {
  part.hidden = false;
  setText(part, ".reasons", match.reasons.join(" · "));
  for (const [selector, skills] of [[".matched", match.matched_skills], [".missing", match.missing_skills]]) {
    const dd = part.querySelector(`${selector} dd`);
    if (skills.length === 0) dd.textContent = "none";
    else appendItems(dd.querySelector("ul"), skills);
  }
}

function appendItems(list, values) {
  for (const value of values) {
    const li = document.createElement("li");
    li.textContent = value;
    list.append(li);
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
