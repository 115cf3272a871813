// Saving the search on screen (POST /v1/saved-searches): a name, then its feed URL to paste into a feed reader.
import { explain, saveSearch } from "./api.js";

const $ = (id) => document.getElementById(id);

/** Offers to save the search `params` once its results are shown; `offer(undefined)` hides the offer. */
export function setUpSaving() {
  const box = $("save-search");
  const form = $("save-form");
  const name = $("save-name");
  const result = $("save-result");
  let params = null;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!params || !name.value.trim()) return void name.focus();
    form.setAttribute("aria-busy", "true");
    result.replaceChildren("Saving…");
    try {
      const saved = await saveSearch(name.value.trim(), params);
      const link = document.createElement("a");
      link.href = saved.feed_url;
      link.textContent = saved.feed_url;
      link.id = "save-feed";
      result.replaceChildren(`Saved as “${saved.name}”. New matches appear in its feed (paste it into a feed reader; no key needed): `, link);
    } catch (error) {
      result.replaceChildren(error.status === 409 ? `Not saved: ${error.message}.` : explain(error));
    } finally {
      form.removeAttribute("aria-busy");
    }
  });
  return function offer(next) {
    params = next ?? null;
    box.hidden = params === null;
    if (params) {
      name.value = params.q.slice(0, 100);
      result.replaceChildren();
    }
  };
}
