// The page's other views: facet counts beside the results, one whole posting (?job=ID) and postings
// like one (?similar=ID). Posting text reaches the page only through textContent and attribute
// setters, never as HTML.
import { getJob, getSimilar } from "./api.js";
import { card } from "./card.js";

const LABELS = { seniority: "Seniority", employment_type: "Employment", remote: "Remote", city: "City", tags: "Skills" };
const VALUE_LABELS = { true: "Remote", false: "On site" };

/** Each facet's values as buttons "value (count)"; `onPick(name, value)` when one is chosen. Hidden when none. */
export function renderFacets(container, facets, onPick) {
  const sections = Object.entries(facets ?? {})
    .filter(([, counts]) => counts.length > 0)
    .map(([name, counts]) => {
      const section = document.createElement("section");
      const heading = document.createElement("h3");
      heading.textContent = LABELS[name] ?? name;
      const list = document.createElement("ul");
      for (const { value, count } of counts.slice(0, 8)) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "facet";
        button.textContent = `${VALUE_LABELS[value] && name === "remote" ? VALUE_LABELS[value] : value} (${count})`;
        button.addEventListener("click", () => onPick(name, value));
        const item = document.createElement("li");
        item.append(button);
        list.append(item);
      }
      section.append(heading, list);
      return section;
    });
  container.replaceChildren(...sections);
  container.hidden = sections.length === 0;
}

/** One whole posting: title, company, its facts, tags and description, and a link to similar ones. */
export function renderJob(job) {
  const article = document.createElement("article");
  article.className = "job";
  const title = document.createElement("h3");
  title.textContent = job.job_title || "Untitled posting";
  article.append(title);
  const facts = document.createElement("dl");
  facts.className = "facts";
  const rows = [
    ["Company", job.company_name], ["Place", [job.city, job.country].filter(Boolean).join(", ")], ["Published", job.publish_time],
    ["Salary", job.base_salary], ["Seniority", job.seniority_level], ["Employment", job.employment_type],
    ["Skills", job.job_tags.join(", ")], ["Source", job.data_source],
  ];
  facts.append(...rows.filter(([, value]) => value).map(([label, value]) => fact(label, value)));
  article.append(facts);
  const links = document.createElement("p");
  const similar = document.createElement("a");
  similar.className = "similar-link";
  similar.href = `?similar=${encodeURIComponent(job.id)}`;
  similar.textContent = "Similar jobs";
  links.append(similar);
  if (/^https?:\/\//i.test(job.job_url)) {
    const original = document.createElement("a");
    original.href = job.job_url;
    original.rel = "noopener noreferrer";
    original.target = "_blank";
    original.textContent = "Original posting";
    links.append(" · ", original);
  }
  article.append(links);
  const description = document.createElement("div");
  description.className = "description";
  description.textContent = job.job_description;
  article.append(description);
  return article;
}

/** A result's full description, asked for by id (for cards not from a search page, which has its own). */
export async function jobDescription(result) {
  return (await getJob(result.id)).job.job_description;
}

/**
 * Shows the view the address names (one posting, or similar postings) in the results area; resolves
 * false when it names neither (a search, then). `report(error)` and `clearMessage()` are the page's.
 */
export async function showAddressedView(ui, { report, clearMessage }) {
  const address = new URLSearchParams(location.search);
  const job = address.get("job");
  const similar = address.get("similar");
  if (job === null && similar === null) return false;
  clearMessage();
  ui.understood.hidden = true;
  ui.hints.hidden = true;
  ui.facets.hidden = true;
  ui.pager.hidden = true;
  ui.profileRead.hidden = true;
  ui.status.textContent = "Loading…";
  try {
    if (job !== null) {
      const body = await getJob(job);
      const item = document.createElement("li");
      item.append(renderJob(body.job));
      ui.results.replaceChildren(item);
      ui.status.textContent = "One posting.";
      document.title = `${body.job.job_title || "Posting"} – Job search`;
    } else {
      const body = await getSimilar(similar, { top_k: 20 });
      ui.results.replaceChildren(...body.results.map((result) => card(result, { loadDescription: jobDescription, onError: report })));
      ui.status.textContent = body.results.length === 0 ? "No similar postings." : `${body.results.length} postings similar to the one chosen, best first.`;
      document.title = "Similar jobs – Job search";
    }
  } catch (error) {
    ui.results.replaceChildren();
    ui.status.textContent = error.code === "NOT_FOUND" ? "That posting is no longer here." : "The page could not be shown.";
    if (error.code !== "NOT_FOUND") report(error);
  }
  return true;
}

/** One labelled fact of a definition list (text only). */
export function fact(label, value) {
  const div = document.createElement("div");
  div.className = "fact";
  const dt = document.createElement("dt");
  dt.textContent = label;
  const dd = document.createElement("dd");
  dd.textContent = value;
  div.append(dt, dd);
  return div;
}
