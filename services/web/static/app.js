/* paperlist: progressive enhancement only — every page works without this file.
   Live results as you type (debounced), facet clicks without reloads, autocomplete,
   copy-to-clipboard for BibTeX, the year-range form, sort auto-submit, the
   foldable filter panel on narrow screens, the charts' readout lines, the reading list kept in
   this browser (stars, /list) and the score box answering in place.

   An ES module (loaded with <script type="module">): nothing is global; each component
   keeps its state (the request in flight, the typing timer, the active suggestion) in
   its own closure and gets what it needs from the others as arguments. */

const DEBOUNCE_MS = 250;
const NARROW = "(max-width: 820px)";

const $ = (sel, root = document) => root.querySelector(sel);
const $all = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const resultsRoot = () => $("[data-results-root]");

/* The search form shows the filters it searches within (ticked boxes, rendered by the server):
   swap them with the results, so a new query keeps the facets clicked in place. */
function syncSearchForm(scopeHtml) {
  const scope = $("[data-live-search] [data-search-scope]");
  if (scope && typeof scopeHtml === "string") { scope.innerHTML = scopeHtml; }
}

function pageTitle(url) {
  const q = new URL(url, location.href).searchParams.get("q");
  const heading = $(".page-heading");
  return (q || (heading ? heading.textContent.trim() : "Search")) + " — paperlist";
}

/* Where keyboard focus was inside the swapped regions, so it can be put back afterwards. */
function focusKey(root) {
  const el = document.activeElement;
  if (!el || !root.contains(el)) { return null; }
  const facet = el.hasAttribute("data-value") && el.closest("[data-facet]");
  if (facet) { return { facet: facet.getAttribute("data-facet"), value: el.getAttribute("data-value") }; }
  return { other: true };
}

function restoreFocus(root, key) {
  if (!key || (document.activeElement && document.activeElement !== document.body && root.contains(document.activeElement))) { return; }
  let target = null;
  if (key.facet && window.CSS && CSS.escape) {
    target = $('[data-facet="' + CSS.escape(key.facet) + '"] [data-value="' + CSS.escape(key.value || "") + '"]', root);
  }
  target = target || $("#results-heading", root);
  if (target) {
    if (!target.hasAttribute("tabindex") && !target.matches("a, button, input, select")) { target.setAttribute("tabindex", "-1"); }
    target.focus({ preventScroll: !!key.facet });
  }
}

/* Parameters in the canonical order the edge keys by (by name, stably; services/web/urls.py
   canonical_order): the address bar shows the one form of a search the app's links use. */
function canonicalPart(part) { return decodeURIComponent(part.split("=")[0].replace(/\+/g, " ")); }
function withParam(url, name, value) {
  const at = url.indexOf("?");
  const parts = at >= 0 ? url.slice(at + 1).split("&").filter(Boolean) : [];
  parts.push(encodeURIComponent(name) + "=" + encodeURIComponent(value));
  parts.sort((a, b) => { const x = canonicalPart(a), y = canonicalPart(b); return x < y ? -1 : x > y ? 1 : 0; });
  return (at >= 0 ? url.slice(0, at) : url) + "?" + parts.join("&");
}

function searchUrlFromForm(form) {
  const params = new URLSearchParams(new FormData(form));
  params.delete("page");
  params.sort();
  // The header form searches /search within its ticked filters; other forms keep their action.
  const action = form.getAttribute("action") || location.pathname;
  const query = params.toString();
  return query ? action + "?" + query : action;
}

/* In-place results: fetch a results URL as fragments and swap them in; one request in flight
   at a time (a newer one aborts it); falls back to navigation on error. */
function createResultsLoader() {
  let inflight = null;
  return function loadResults(url, push) {
    const root = resultsRoot();
    if (!root || !window.fetch || !window.URL) { window.location.href = url; return; }
    if (inflight) { inflight.abort(); }
    const controller = new AbortController();
    inflight = controller;
    const partial = withParam(url, "partial", "1");
    root.setAttribute("aria-busy", "true");
    fetch(partial, { signal: controller.signal, headers: { "Accept": "application/json" } })
      .then((resp) => {
        if (!resp.ok) { throw new Error("HTTP " + resp.status); }
        return resp.json();
      })
      .then((data) => {
        const key = focusKey(root);
        $("[data-results]", root).innerHTML = data.results;
        $("[data-facets]", root).innerHTML = data.facets;
        const head = $("[data-results-head]", root);
        if (head && typeof data.head === "string") { head.innerHTML = data.head; }
        root.removeAttribute("aria-busy");
        if (push) { history.pushState({ url }, "", url); } else { history.replaceState({ url }, "", url); }
        document.title = pageTitle(url);
        syncSearchForm(data.scope);
        showCount(data.total);
        const status = $("[data-results-status]", root);
        const total = $(".total", root);
        if (status && total) { status.textContent = total.textContent.replace(/\s+/g, " ").trim(); }
        restoreFocus(root, key);
        foldOnNarrow(root);
        document.dispatchEvent(new CustomEvent("paperlist:results"));
        if (inflight === controller) { inflight = null; }
      })
      .catch((err) => {
        if (err.name === "AbortError") { return; }
        root.removeAttribute("aria-busy");
        window.location.href = url;
      });
  };
}

/* A suggestion too long for its line loses its middle, not its end ("Direct Preference … Reward
   Model"), so titles sharing a start can be told apart; its full text stays in its title and in
   the option's accessible name. A bounded binary search on the characters kept. */
function cutMiddle(span) {
  const full = span.title || span.textContent;
  if (span.scrollWidth <= span.clientWidth || full.length < 12) { return; }
  // Cut at word boundaries: whole words at both ends ("Direct Preference … Reward Model").
  const cut = (keep) => {
    let head = full.slice(0, Math.ceil(keep * 0.6));
    let tail = full.slice(full.length - (keep - Math.ceil(keep * 0.6)));
    if (full[head.length] !== " " && head.includes(" ")) { head = head.slice(0, head.lastIndexOf(" ")); }
    if (full[full.length - tail.length - 1] !== " " && tail.includes(" ")) { tail = tail.slice(tail.indexOf(" ") + 1); }
    return head.trimEnd() + " … " + tail.trimStart();
  };
  const kind = span.nextElementSibling ? ", " + span.nextElementSibling.textContent : "";
  span.closest("[role=option]").setAttribute("aria-label", full + kind);
  let lo = 6;
  let hi = full.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    span.textContent = cut(mid);
    if (span.scrollWidth <= span.clientWidth) { lo = mid; } else { hi = mid - 1; }
  }
  span.textContent = cut(lo);
}

/* Autocomplete: a combobox over a listbox (keyboard: arrows, Enter, Escape). A text longer than
   the API's prefix limit (``longest``: a pasted paragraph) is not sent: it would only be refused. */
function createSuggestions(input, list, endpoint, longest) {
  let active = -1;
  let seq = 0;

  function hide() {
    seq += 1;  // answers still on the way are dropped
    list.hidden = true;
    list.innerHTML = "";
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function setActive(items, index) {
    active = index;
    items.forEach((li, i) => {
      li.classList.toggle("active", i === active);
      li.setAttribute("aria-selected", i === active ? "true" : "false");
    });
    if (active >= 0) {
      input.setAttribute("aria-activedescendant", items[active].id);
      items[active].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function option(s, i) {
    const li = document.createElement("li");
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    li.id = "sugg-" + i;
    // An option holds no link (a listbox's options are not to nest controls: axe's nested-interactive, issue 49):
    // the input keeps the focus, the arrows choose, Enter or a click opens the option's address.
    li.dataset.href = s.url;
    const a = document.createElement("span");
    a.className = "choice";
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = s.text;
    text.title = s.text;
    const kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = s.detail ? s.type + " · " + s.detail : s.type;
    a.append(text, kind);
    li.appendChild(a);
    return li;
  }

  function show() {
    const q = input.value.trim();
    if (q.length < 2 || q.length > longest || !window.fetch) { hide(); return; }
    const mine = ++seq;
    fetch(endpoint + "?q=" + encodeURIComponent(q))
      .then((r) => (r.ok ? r.json() : { suggestions: [] }))
      .then((data) => {
        if (mine !== seq || document.activeElement !== input) { return; }
        list.innerHTML = "";
        data.suggestions.slice(0, 10).forEach((s, i) => list.appendChild(option(s, i)));
        list.hidden = list.children.length === 0;
        $all(".text", list).forEach(cutMiddle);
        input.setAttribute("aria-expanded", list.hidden ? "false" : "true");
        active = -1;
        input.removeAttribute("aria-activedescendant");
      })
      .catch(() => { if (mine === seq) { hide(); } });
  }

  /* Keys on the input; ``beforeOpen`` runs before an option is opened with Enter. */
  function onKeydown(ev, beforeOpen) {
    const items = $all("li", list);
    if (ev.key === "Escape") {
      if (items.length) { ev.preventDefault(); }
      hide();
      return;
    }
    if (!items.length || (ev.key !== "ArrowDown" && ev.key !== "ArrowUp" && ev.key !== "Enter")) { return; }
    if (ev.key === "Enter") {
      if (active >= 0) {
        ev.preventDefault();
        beforeOpen();
        const href = items[active].dataset.href;
        hide();
        window.location.href = href;
      }
      return;
    }
    ev.preventDefault();
    let next = ev.key === "ArrowDown" ? active + 1 : active - 1;
    if (next >= items.length) { next = 0; }
    if (next < -1) { next = items.length - 1; }
    setActive(items, next);
  }

  // A press on an option leaves the focus in the input (the list stays open until the click opens the option).
  list.addEventListener("mousedown", (ev) => { ev.preventDefault(); });
  list.addEventListener("click", (ev) => {
    const li = ev.target.closest && ev.target.closest("li[data-href]");
    if (!li) { return; }
    const href = li.dataset.href;
    hide();
    window.location.href = href;
  });
  input.addEventListener("blur", () => {
    // Tabbing away closes the list.
    setTimeout(() => {
      const focused = document.activeElement;
      if (focused !== input && !(focused && focused.closest && focused.closest("#suggestions"))) { hide(); }
    }, 150);
  });
  document.addEventListener("click", (ev) => {
    if (!ev.target.closest(".searchbar")) { hide(); }
  });
  return { show, hide, onKeydown };
}

/* The header search box: suggestions everywhere, live results on pages that show results. */
function initSearchBox(loadResults) {
  const form = $("[data-live-search]");
  const input = form && $("input[name=q]", form);
  const list = $("#suggestions");
  if (!form || !input || !list) { return null; }
  const suggestions = createSuggestions(input, list, form.getAttribute("data-suggest-url"),
                                        Number(form.getAttribute("data-suggest-max")) || Infinity);
  let typingTimer = null;
  const stopTyping = () => clearTimeout(typingTimer);
  input.addEventListener("input", () => {
    stopTyping();
    typingTimer = setTimeout(() => {
      suggestions.show();
      if (resultsRoot()) { loadResults(searchUrlFromForm(form), false); }
    }, DEBOUNCE_MS);
  });
  input.addEventListener("keydown", (ev) => suggestions.onKeydown(ev, stopTyping));
  form.addEventListener("submit", (ev) => {
    stopTyping();
    suggestions.hide();
    if (!resultsRoot()) { return; }
    ev.preventDefault();
    loadResults(searchUrlFromForm(form), true);
  });
  return suggestions;
}

/* Facet, pager, did-you-mean and clear links inside the results swap content in place;
   Back and Forward replay them. */
function initInPlaceLinks(loadResults, suggestions) {
  document.addEventListener("click", (ev) => {
    const link = ev.target.closest("[data-results-root] a");
    if (!link || ev.defaultPrevented || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey || ev.button !== 0) { return; }
    if (!link.closest(".facets, .pager, .did-you-mean, .clear-filters, .chips, .hidden-note")) { return; }
    ev.preventDefault();
    loadResults(link.getAttribute("href"), true);
    const top = resultsRoot();
    if (top && link.closest(".pager")) { top.scrollIntoView({ behavior: "smooth" }); }
  });
  /* Facet links are checkboxes to assistive technology: Space toggles them too. */
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== " " || !ev.target.matches || !ev.target.matches("a[role=checkbox]")) { return; }
    ev.preventDefault();
    ev.target.click();
  });
  if (resultsRoot() && window.history && history.replaceState) {
    history.replaceState({ url: location.pathname + location.search }, "", location.href);
  }
  window.addEventListener("popstate", (ev) => {
    if (!ev.state || !ev.state.url) { location.reload(); return; }
    const input = $("#q");
    if (input) { input.value = new URL(ev.state.url, location.href).searchParams.get("q") || ""; }
    if (suggestions) { suggestions.hide(); }
    loadResults(ev.state.url, false);
  });
}

/* "/" focuses the search box (as on many sites), unless the user is typing somewhere. */
function initSlashKey() {
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) { return; }
    const target = ev.target;
    if (target && (target.isContentEditable || (target.closest && target.closest("input, textarea, select")))) { return; }
    const input = $("[data-live-search] input[name=q]");
    if (!input) { return; }
    ev.preventDefault();
    input.focus();
    input.select();
  });
}

/* Sort select and year-range form. */
function initForms(loadResults) {
  document.addEventListener("change", (ev) => {
    if (ev.target.matches("[data-autosubmit]")) {
      const form = ev.target.form;
      if (resultsRoot()) { loadResults(searchUrlFromForm(form), true); } else { form.submit(); }
    }
  });
  document.addEventListener("submit", (ev) => {
    const form = ev.target;
    if (form.matches(".year-range")) {
      const from = $("[data-year-from]", form).value.trim();
      const to = $("[data-year-to]", form).value.trim();
      const hidden = $("[data-year-value]", form);
      if (!from && !to) { ev.preventDefault(); return; }
      hidden.disabled = false;
      hidden.value = from && to ? from + "-" + to : (from || to);
      if (resultsRoot()) { ev.preventDefault(); loadResults(searchUrlFromForm(form), true); }
    } else if (form.matches(".sort") && resultsRoot()) {
      ev.preventDefault();
      loadResults(searchUrlFromForm(form), true);
    }
  });
}

/* Secondary blocks (the trends chart) start folded on a narrow screen, so results come first. */
function foldOnNarrow(scope) {
  if (!window.matchMedia || !window.matchMedia(NARROW).matches) { return; }
  for (const block of (scope || document).querySelectorAll("details[data-fold-narrow]")) { block.open = false; }
}

/* A results page's trends are folded and fetched only when opened (views.trends): their charts and tables
   replace the section's link; on an error the link stays, and opens them on a page of their own. Toggle
   events do not bubble: one listener in the capture phase serves sections swapped in with new results. */
function initTrends() {
  document.addEventListener("toggle", (ev) => {
    const section = ev.target;
    if (!section.matches || !section.matches("details[data-trends]") || !section.open || !window.fetch) { return; }
    if (section.hasAttribute("data-trends-loaded") || section.getAttribute("aria-busy") === "true") { return; }
    const body = $("[data-trends-body]", section);
    section.setAttribute("aria-busy", "true");
    fetch(withParam(section.getAttribute("data-trends"), "partial", "1"), { headers: { "Accept": "text/html" } })
      .then((resp) => {
        if (!resp.ok) { throw new Error("HTTP " + resp.status); }
        return resp.text();
      })
      .then((html) => {
        body.innerHTML = html;
        section.setAttribute("data-trends-loaded", "");
      })
      .catch(() => {})
      .finally(() => section.removeAttribute("aria-busy"));
  }, true);
}

/* The filter panel is open on wide screens and folded on narrow ones (results first).
   On a narrow screen it stays open while filters are chosen (each updates the results in
   place, its count on the panel's "Show N papers" button); that button folds it and shows
   the results. */
function initFilterPanel() {
  const panel = $("[data-filters-panel]");
  if (!panel || !window.matchMedia) { return; }
  const query = window.matchMedia(NARROW);
  const apply = () => { panel.open = !query.matches; };
  apply();
  if (query.addEventListener) { query.addEventListener("change", apply); }
  panel.addEventListener("click", (ev) => {
    if (!ev.target.closest || !ev.target.closest("[data-show-results]") || !query.matches) { return; }
    panel.open = false;
    const results = $(".results", resultsRoot() || document);
    if (results && results.scrollIntoView) { results.scrollIntoView({ block: "start" }); }
    // The button is folded away with the panel: the focus goes to the results' heading, not to the page.
    const heading = $("#results-heading");
    if (heading) { heading.tabIndex = -1; heading.focus({ preventScroll: true }); }
  });
}

/* A phone's row of a venue's years shows the newest; "all N years" shows the rest. */
function initMoreYears() {
  document.addEventListener("click", (ev) => {
    const button = ev.target.closest && ev.target.closest("[data-more-years]");
    if (button) { button.closest(".year-links").classList.add("all"); }
  });
}

/* The count the filter panel's button shows, after an in-place update. */
function showCount(total) {
  for (const el of $all("[data-results-count]")) { el.textContent = Number(total).toLocaleString("en-US"); }
}

/* A chart's readout line shows the numbers of the mark under the pointer or the keyboard focus
   (the mark's own tooltip, which needs a steady mouse and no keyboard). */
function initChartReadouts() {
  const show = (ev) => {
    const mark = ev.target.closest && ev.target.closest("[data-chart] a");
    const chart = mark && mark.closest("[data-chart]");
    const readout = chart && chart.nextElementSibling;
    if (!readout || !readout.matches("[data-chart-readout]")) { return; }
    const title = mark.getAttribute("title") || (mark.querySelector("title") || {}).textContent || "";
    readout.textContent = title;
  };
  document.addEventListener("mouseover", show);
  document.addEventListener("focusin", show);
}

function fallbackCopy(text) {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "absolute";
  area.style.left = "-9999px";
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
  area.remove();
  return ok;
}

/* Copy buttons: data-copy names the element whose text is copied. */
function initCopy() {
  document.addEventListener("click", (ev) => {
    const button = ev.target.closest("[data-copy]");
    if (!button) { return; }
    const source = $(button.getAttribute("data-copy"));
    const status = button.parentNode.querySelector(".copy-status");
    const text = source ? source.textContent : "";
    const report = (ok) => {
      if (status) { status.textContent = ok ? "Copied" : "Could not copy: select the text and copy it"; }
      button.dataset.copied = ok ? "true" : "false";
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(() => report(true), () => report(fallbackCopy(text)));
    } else { report(fallbackCopy(text)); }
  });
}

/* The reading list: paper ids kept in this browser (localStorage), never on the server. A star on
   every paper (a toggle button: aria-pressed) adds or removes one; the header's link opens the list's
   page, /list?ids=…, which renders the papers server-side (and without JavaScript). On that page the
   list in the address is compared with the one kept here: the visitor may keep it, or add its papers. */
const LIST_KEY = "paperlist.readingList";

function createReadingList() {
  const link = $("[data-list-link]");
  const max = Number(link && link.getAttribute("data-list-max")) || Infinity;  // the page carries the server's limit
  const read = () => {
    try {
      const ids = JSON.parse(localStorage.getItem(LIST_KEY) || "[]");
      return Array.isArray(ids) ? ids.filter((id) => typeof id === "string" && id).slice(0, max) : [];
    } catch (e) { return []; }
  };
  const listUrl = (ids) => (ids.length ? "/list?ids=" + encodeURIComponent(ids.join(",")) : "/list");
  const announce = (text) => { const status = $("[data-list-status]"); if (status) { status.textContent = text; } };
  const papers = (n) => n + " paper" + (n === 1 ? "" : "s");

  function render(root) {
    const ids = read();
    const kept = new Set(ids);
    for (const star of $all("[data-star]", root || document)) {
      const on = kept.has(star.getAttribute("data-star"));
      star.setAttribute("aria-pressed", on ? "true" : "false");
      star.title = on ? "In my reading list: press to remove" : "Keep in my reading list";
    }
    if (link) {
      link.href = listUrl(ids);
      link.classList.toggle("has-papers", ids.length > 0);
      const count = $("[data-list-count]", link);
      if (count) { count.textContent = String(ids.length); count.hidden = !ids.length; }
      link.setAttribute("aria-label", "Reading list, " + papers(ids.length));
    }
    return ids;
  }

  function write(ids) {
    try { localStorage.setItem(LIST_KEY, JSON.stringify(ids)); } catch (e) {
      announce("This browser does not let the site keep a reading list (storage is off).");
      return false;
    }
    render();
    return true;
  }

  function toggle(id) {
    const ids = read();
    const at = ids.indexOf(id);
    if (at >= 0) {
      ids.splice(at, 1);
      if (write(ids)) { announce("Removed from the reading list: " + papers(ids.length) + " in it."); }
    } else if (ids.length >= max) {
      announce("The reading list is full (" + max + " papers): remove one first.");
    } else {
      ids.push(id);
      if (write(ids)) { announce("Added to the reading list: " + papers(ids.length) + " in it."); }
    }
    return read();
  }

  document.addEventListener("click", (ev) => {
    const star = ev.target.closest && ev.target.closest("[data-star]");
    if (!star) { return; }
    ev.preventDefault();
    const ids = toggle(star.getAttribute("data-star"));
    listPage(ids);
  });
  // Another tab changed the list: follow it.
  window.addEventListener("storage", (ev) => { if (ev.key === LIST_KEY) { render(); listPage(read()); } });

  /* /list: without ids in its address, go to the kept list's own; with ids, say whether they are the
     kept list, and offer to keep them or add them. While the page shows the kept list, a star pressed
     on it updates the address and the export links, so a reload or a copied link shows the same. */
  const page = $("[data-reading-list]");
  let shownIsMine = false;
  function listPage(ids) {
    if (!page) { return; }
    const shown = (page.getAttribute("data-list-ids") || "").split(",").filter(Boolean);
    const sync = $("[data-list-sync]", page);
    if (shownIsMine) {
      for (const card of $all(".paper-card", page)) {
        const star = $("[data-star]", card);
        card.classList.toggle("removed", !!star && !ids.includes(star.getAttribute("data-star")));
      }
      const still = shown.filter((id) => ids.includes(id));
      const query = "ids=" + encodeURIComponent(still.join(","));
      for (const a of $all("[data-export]", page)) { a.href = "/api/v1/export?format=" + a.getAttribute("data-export") + "&" + query; }
      const linkText = $("#list-link", page);
      if (linkText) { linkText.textContent = linkText.textContent.replace(/\/list(\?.*)?$/, still.length ? "/list?ids=" + still.join(",") : "/list"); }
      const total = $("[data-list-total]", page);
      if (total) { total.textContent = String(still.length); }
      if (window.history && history.replaceState) { history.replaceState(null, "", listUrl(still)); }
      return;
    }
    if (!sync) { return; }
    const same = sameIds(shown, ids);
    const missing = shown.filter((id) => !ids.includes(id));
    sync.hidden = same || !shown.length;
    const text = $("[data-list-sync-text]", sync);
    if (text) {
      text.textContent = !ids.length ? "This list is not kept in this browser yet."
        : missing.length ? "This is not the reading list kept in this browser (" + papers(ids.length) + "); " + papers(missing.length) + " here are not in it."
        : "All these papers are in the reading list kept in this browser (" + papers(ids.length) + ").";
    }
    const add = $("[data-list-add]", sync);
    if (add) { add.hidden = !ids.length || !missing.length; }
  }
  const sameIds = (a, b) => a.length === b.length && a.every((id, i) => id === b[i]);
  if (page) {
    const asked = (page.getAttribute("data-list-asked") || "").split(",").filter(Boolean);
    const shown = (page.getAttribute("data-list-ids") || "").split(",").filter(Boolean);
    const mine = read();
    if (!asked.length && mine.length) {
      location.replace(listUrl(mine));  // the header's link before this script set it
      return { render };
    }
    if (asked.length && sameIds(asked, mine)) {
      shownIsMine = true;
      if (!sameIds(shown, mine)) { write(shown); }  // papers gone from the index leave the kept list too
    }
    page.addEventListener("click", (ev) => {
      const keep = ev.target.closest("[data-list-keep]");
      const add = ev.target.closest("[data-list-add]");
      if (!keep && !add) { return; }
      const now = read();
      const next = keep ? shown.slice(0, max) : now.concat(shown.filter((id) => !now.includes(id))).slice(0, max);
      if (write(next)) {
        announce((keep ? "Kept this list as yours: " : "Added to your reading list: ") + papers(next.length) + ".");
        shownIsMine = sameIds(next, shown);
        listPage(next);
        $("[data-list-sync]", page).hidden = true;
      }
    });
  }
  listPage(render());
  return { render };
}

/* A box that answers as you type asks its page's partial answer (partial=1, JSON); a newer question
   aborts the one still in flight (its promise rejects with an AbortError, which callers ignore). */
function partialAnswers() {
  let inflight = null;
  return (url) => {
    if (inflight) { inflight.abort(); }
    const controller = new AbortController();
    inflight = controller;
    return fetch(withParam(url, "partial", "1"), { signal: controller.signal, headers: { "Accept": "application/json" } })
      .then((resp) => (resp.ok ? resp.json() : Promise.reject(new Error("HTTP " + resp.status))));
  };
}

/* The score box (/conferences/<slug>/<year>/scores): the page answers ?score=… by itself (no
   JavaScript needed); here the answer comes as you type, from the same page's partial answer. */
function initScoreBox() {
  const form = $("[data-score-box]");
  const answer = $("[data-score-answer]");
  if (!form || !answer || !window.fetch) { return; }
  const input = $("input[name=score]", form);
  let timer = null;
  const partial = partialAnswers();
  const ask = (push) => {
    const value = input.value.trim();
    const action = form.getAttribute("action").split("#")[0];
    const url = value ? withParam(action, "score", value) : action;
    partial(url)
      .then((data) => {
        answer.innerHTML = data.answer;
        if (window.history && history.replaceState) { history[push ? "pushState" : "replaceState"](null, "", url); }
      })
      .catch((err) => {
        if (err.name === "AbortError") { return; }
        answer.innerHTML = "";
        const p = document.createElement("p");
        p.className = "muted";
        p.textContent = "Give a mean score as a number, such as 6.25.";
        answer.appendChild(p);
      });
  };
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => ask(false), DEBOUNCE_MS); });
  form.addEventListener("submit", (ev) => { ev.preventDefault(); clearTimeout(timer); ask(true); });
}

/* A venue-year's map (/conferences/<slug>/<year>/map): the page works without JavaScript (points are links,
   the box and the cluster list reload the page); here the box highlights as you type, from the page's own
   partial answer (the search's paper ids), a point's title shows under the map, and pointing at or focusing
   a cluster in the list picks it out on the map. */
function initMap() {
  const frame = $("[data-map]");
  if (!frame) { return; }
  const readout = $("[data-map-readout]");
  const circles = new Map();
  $all("svg.map g[data-cluster] a", frame).forEach((a) => {
    const href = a.getAttribute("href");
    circles.set(decodeURIComponent(href.slice(href.lastIndexOf("/") + 1)), a.firstElementChild);
  });
  frame.addEventListener("mouseover", (ev) => {
    const title = ev.target.closest("circle") && ev.target.closest("circle").querySelector("title");
    if (title && readout) { readout.textContent = title.textContent; }
  });
  const rows = $all("[data-map-clusters] li[data-cluster]");
  const groups = new Map($all("svg.map g[data-cluster]", frame).map((g) => [g.dataset.cluster, g]));
  const chosen = $("svg.map g.chosen", frame);
  const pick = (id) => {
    groups.forEach((g, key) => g.classList.toggle("chosen", key === id || (id === null && g === chosen)));
    frame.classList.toggle("choosing", id !== null || Boolean(chosen));
  };
  rows.forEach((li) => {
    const link = $("a", li);
    ["mouseenter", "focusin"].forEach((name) => li.addEventListener(name, () => pick(li.dataset.cluster)));
    ["mouseleave", "focusout"].forEach((name) => li.addEventListener(name, () => pick(null)));
    if (link) { link.addEventListener("click", () => pick(li.dataset.cluster)); }
  });
  const form = $("[data-map-search]");
  const status = $("[data-map-matches]");
  if (!form || !status || !window.fetch) { return; }
  const input = $("input[name=q]", form);
  let timer = null;
  const partial = partialAnswers();
  const show = (ids) => {
    const hits = new Set(ids);
    const perCluster = new Map();
    circles.forEach((circle, id) => {
      const hit = hits.has(id);
      circle.classList.toggle("hit", hit);
      if (hit) {
        const key = circle.closest("g[data-cluster]").dataset.cluster;
        perCluster.set(key, (perCluster.get(key) || 0) + 1);
      }
    });
    const searching = input.value.trim() !== "" || form.querySelector("input[type=hidden]") !== null;
    frame.classList.toggle("searching", searching);
    rows.forEach((li) => {
      const span = $("[data-hits]", li);
      if (span) { span.textContent = searching ? ", " + (perCluster.get(li.dataset.cluster) || 0).toLocaleString("en") + " highlighted" : ""; }
    });
  };
  const ask = (push) => {
    const action = form.getAttribute("action");
    const params = new URLSearchParams(new FormData(form));
    if (!input.value.trim()) { params.delete("q"); }
    const query = params.toString();
    const url = query ? action + "?" + query : action;
    partial(url)
      .then((data) => {
        status.innerHTML = data.summary;
        show(data.ids);
        if (window.history && history.replaceState) { history[push ? "pushState" : "replaceState"](null, "", url); }
      })
      .catch((err) => {
        if (err.name === "AbortError") { return; }
        status.textContent = "The search could not be run; press Highlight to try again.";
      });
  };
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => ask(false), DEBOUNCE_MS); });
  form.addEventListener("submit", (ev) => { ev.preventDefault(); clearTimeout(timer); ask(true); });
}

/* Modules run once the document is parsed (they are deferred), so the page is there. */
const readingList = createReadingList();
initScoreBox();
initMap();
const loadResults = createResultsLoader();
const suggestions = initSearchBox(loadResults);
initInPlaceLinks(loadResults, suggestions);
initForms(loadResults);
initFilterPanel();
foldOnNarrow(document);
initCopy();
initSlashKey();
initChartReadouts();
initTrends();
initMoreYears();
document.addEventListener("paperlist:results", () => readingList.render());
