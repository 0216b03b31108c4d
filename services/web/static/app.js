/* paperlist: progressive enhancement only — every page works without this file.
   Live results as you type (debounced), facet clicks without reloads, autocomplete,
   copy-to-clipboard for BibTeX, the year-range form and sort auto-submit. */
(function () {
  "use strict";

  var DEBOUNCE_MS = 250;
  var inflight = null;

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  function resultsRoot() { return $("[data-results-root]"); }

  /* Fetch a results URL as fragments and swap them in; falls back to navigation on error. */
  function loadResults(url, push) {
    var root = resultsRoot();
    if (!root || !window.fetch) { window.location.href = url; return; }
    if (inflight) { inflight.abort(); }
    inflight = new AbortController();
    var partial = url + (url.indexOf("?") >= 0 ? "&" : "?") + "partial=1";
    root.setAttribute("aria-busy", "true");
    fetch(partial, { signal: inflight.signal, headers: { "Accept": "application/json" } })
      .then(function (resp) {
        if (!resp.ok) { throw new Error("HTTP " + resp.status); }
        return resp.json();
      })
      .then(function (data) {
        $("[data-results]", root).innerHTML = data.results;
        $("[data-facets]", root).innerHTML = data.facets;
        root.removeAttribute("aria-busy");
        if (push) { history.pushState({ url: url }, "", url); } else { history.replaceState({ url: url }, "", url); }
        document.title = (new URL(url, location.href).searchParams.get("q") || "Search") + " — paperlist";
      })
      .catch(function (err) {
        if (err.name === "AbortError") { return; }
        window.location.href = url;
      });
  }

  function searchUrlFromForm(form) {
    var params = new URLSearchParams(new FormData(form));
    params.delete("page");
    var action = form.getAttribute("action") || "/search";
    if (resultsRoot() && action === "/search" && location.pathname !== "/search") { action = location.pathname; }
    return action + "?" + params.toString();
  }

  /* Live search in the header box, on pages that show results. */
  function initLiveSearch() {
    var form = $("[data-live-search]");
    if (!form) { return; }
    var input = $("input[name=q]", form);
    var timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        suggest(input);
        if (resultsRoot()) { loadResults(searchUrlFromForm(form), false); }
      }, DEBOUNCE_MS);
    });
    form.addEventListener("submit", function (ev) {
      if (!resultsRoot()) { return; }
      ev.preventDefault();
      hideSuggestions();
      loadResults(searchUrlFromForm(form), true);
    });
  }

  /* Autocomplete list under the search box (keyboard: arrows, Enter, Escape). */
  var active = -1;
  function hideSuggestions() {
    var list = $("#suggestions");
    if (list) { list.hidden = true; list.innerHTML = ""; }
    var input = $("#q");
    if (input) { input.setAttribute("aria-expanded", "false"); }
    active = -1;
  }
  function suggest(input) {
    var list = $("#suggestions");
    var q = input.value.trim();
    if (!list || q.length < 2 || !window.fetch) { hideSuggestions(); return; }
    fetch("/api/v1/suggest?q=" + encodeURIComponent(q))
      .then(function (r) { return r.ok ? r.json() : { suggestions: [] }; })
      .then(function (data) {
        list.innerHTML = "";
        data.suggestions.slice(0, 10).forEach(function (s, i) {
          var li = document.createElement("li");
          li.setAttribute("role", "option");
          li.id = "sugg-" + i;
          var a = document.createElement("a");
          a.href = s.url;
          a.textContent = s.text;
          var kind = document.createElement("span");
          kind.className = "kind";
          kind.textContent = s.type;
          a.appendChild(kind);
          li.appendChild(a);
          list.appendChild(li);
        });
        list.hidden = data.suggestions.length === 0;
        input.setAttribute("aria-expanded", list.hidden ? "false" : "true");
        active = -1;
      })
      .catch(hideSuggestions);
  }
  function initSuggestKeys() {
    var input = $("#q");
    if (!input) { return; }
    input.addEventListener("keydown", function (ev) {
      var items = $all("#suggestions li");
      if (ev.key === "Escape") { hideSuggestions(); return; }
      if (!items.length || (ev.key !== "ArrowDown" && ev.key !== "ArrowUp" && ev.key !== "Enter")) { return; }
      if (ev.key === "Enter") {
        if (active >= 0) { ev.preventDefault(); window.location.href = $("a", items[active]).href; }
        return;
      }
      ev.preventDefault();
      active = (active + (ev.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
      items.forEach(function (li, i) { li.classList.toggle("active", i === active); });
      input.setAttribute("aria-activedescendant", items[active].id);
    });
    document.addEventListener("click", function (ev) {
      if (!ev.target.closest(".searchbar")) { hideSuggestions(); }
    });
  }

  /* Facet, pager and did-you-mean links inside the results swap content in place. */
  function initInPlaceLinks() {
    document.addEventListener("click", function (ev) {
      var link = ev.target.closest("[data-results-root] a");
      if (!link || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.button !== 0) { return; }
      var inPlace = link.closest(".facets, .pager, .did-you-mean, .clear-filters");
      if (!inPlace) { return; }
      ev.preventDefault();
      loadResults(link.getAttribute("href"), true);
      var top = resultsRoot();
      if (top && link.closest(".pager")) { top.scrollIntoView({ behavior: "smooth" }); }
    });
    window.addEventListener("popstate", function (ev) {
      if (ev.state && ev.state.url) { loadResults(ev.state.url, false); } else { location.reload(); }
    });
  }

  /* Sort select and year-range form. */
  function initForms() {
    document.addEventListener("change", function (ev) {
      if (ev.target.matches("[data-autosubmit]")) {
        var form = ev.target.form;
        if (resultsRoot()) { loadResults(searchUrlFromForm(form), true); } else { form.submit(); }
      }
    });
    document.addEventListener("submit", function (ev) {
      var form = ev.target;
      if (form.matches(".year-range")) {
        var from = $("[data-year-from]", form).value.trim();
        var to = $("[data-year-to]", form).value.trim();
        var hidden = $("[data-year-value]", form);
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

  /* Copy buttons: data-copy names the element whose text is copied. */
  function initCopy() {
    document.addEventListener("click", function (ev) {
      var button = ev.target.closest("[data-copy]");
      if (!button) { return; }
      var source = $(button.getAttribute("data-copy"));
      var status = button.parentNode.querySelector(".copy-status");
      var text = source ? source.textContent : "";
      var done = function () { if (status) { status.textContent = "Copied"; } button.dataset.copied = "true"; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
      } else { fallbackCopy(text); done(); }
    });
  }
  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "absolute";
    area.style.left = "-9999px";
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); } catch (e) { /* nothing more we can do */ }
    document.body.removeChild(area);
  }

  document.addEventListener("DOMContentLoaded", function () {
    initLiveSearch();
    initSuggestKeys();
    initInPlaceLinks();
    initForms();
    initCopy();
  });
})();
