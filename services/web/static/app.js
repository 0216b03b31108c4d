/* paperlist: progressive enhancement only — every page works without this file.
   Live results as you type (debounced), facet clicks without reloads, autocomplete,
   copy-to-clipboard for BibTeX, the year-range form, sort auto-submit and the
   foldable filter panel on narrow screens. */
(function () {
  "use strict";

  var DEBOUNCE_MS = 250;
  var NARROW = "(max-width: 820px)";
  var inflight = null;
  var typingTimer = null;

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  function resultsRoot() { return $("[data-results-root]"); }

  /* The header form carries the current filters as hidden inputs: keep them in step with the URL,
     so a new query typed after some in-place facet clicks keeps those facets. */
  function syncSearchForm(url) {
    var form = $("[data-live-search]");
    if (!form) { return; }
    $all("input[type=hidden]", form).forEach(function (input) { input.parentNode.removeChild(input); });
    var button = $("button[type=submit]", form);
    new URL(url, location.href).searchParams.forEach(function (value, name) {
      if (name === "q" || name === "page" || name === "partial") { return; }
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.insertBefore(input, button);
    });
  }

  function pageTitle(url) {
    var q = new URL(url, location.href).searchParams.get("q");
    var heading = $(".page-heading");
    return (q || (heading ? heading.textContent.trim() : "Search")) + " — paperlist";
  }

  /* Where keyboard focus was inside the swapped regions, so it can be put back afterwards. */
  function focusKey(root) {
    var el = document.activeElement;
    if (!el || !root.contains(el)) { return null; }
    if (el.hasAttribute("data-facet")) { return { facet: el.getAttribute("data-facet"), value: el.getAttribute("data-value") }; }
    return { other: true };
  }
  function restoreFocus(root, key) {
    if (!key || (document.activeElement && document.activeElement !== document.body && root.contains(document.activeElement))) { return; }
    var target = null;
    if (key.facet && window.CSS && CSS.escape) {
      target = $('[data-facet="' + CSS.escape(key.facet) + '"][data-value="' + CSS.escape(key.value || "") + '"]', root);
    }
    target = target || $("#results-heading", root);
    if (target) {
      if (!target.hasAttribute("tabindex") && !target.matches("a, button, input, select")) { target.setAttribute("tabindex", "-1"); }
      target.focus({ preventScroll: !!key.facet });
    }
  }

  /* Fetch a results URL as fragments and swap them in; falls back to navigation on error. */
  function loadResults(url, push) {
    var root = resultsRoot();
    if (!root || !window.fetch || !window.URL) { window.location.href = url; return; }
    if (inflight) { inflight.abort(); }
    var controller = new AbortController();
    inflight = controller;
    var partial = url + (url.indexOf("?") >= 0 ? "&" : "?") + "partial=1";
    root.setAttribute("aria-busy", "true");
    fetch(partial, { signal: controller.signal, headers: { "Accept": "application/json" } })
      .then(function (resp) {
        if (!resp.ok) { throw new Error("HTTP " + resp.status); }
        return resp.json();
      })
      .then(function (data) {
        var key = focusKey(root);
        $("[data-results]", root).innerHTML = data.results;
        $("[data-facets]", root).innerHTML = data.facets;
        root.removeAttribute("aria-busy");
        if (push) { history.pushState({ url: url }, "", url); } else { history.replaceState({ url: url }, "", url); }
        document.title = pageTitle(url);
        syncSearchForm(url);
        var status = $("[data-results-status]", root);
        var total = $(".total", root);
        if (status && total) { status.textContent = total.textContent.replace(/\s+/g, " ").trim(); }
        restoreFocus(root, key);
        if (inflight === controller) { inflight = null; }
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
    var query = params.toString();
    return query ? action + "?" + query : action;
  }

  /* Live search in the header box, on pages that show results; suggestions everywhere. */
  function initLiveSearch() {
    var form = $("[data-live-search]");
    if (!form) { return; }
    var input = $("input[name=q]", form);
    input.addEventListener("input", function () {
      clearTimeout(typingTimer);
      typingTimer = setTimeout(function () {
        suggest(input);
        if (resultsRoot()) { loadResults(searchUrlFromForm(form), false); }
      }, DEBOUNCE_MS);
    });
    form.addEventListener("submit", function (ev) {
      clearTimeout(typingTimer);
      hideSuggestions();
      if (!resultsRoot()) { return; }
      ev.preventDefault();
      loadResults(searchUrlFromForm(form), true);
    });
  }

  /* Autocomplete: a combobox over a listbox (keyboard: arrows, Enter, Escape). */
  var active = -1;
  var suggestSeq = 0;
  function hideSuggestions() {
    suggestSeq += 1;  // answers still on the way are dropped
    var list = $("#suggestions");
    if (list) { list.hidden = true; list.innerHTML = ""; }
    var input = $("#q");
    if (input) { input.setAttribute("aria-expanded", "false"); input.removeAttribute("aria-activedescendant"); }
    active = -1;
  }
  function setActive(items, index) {
    var input = $("#q");
    active = index;
    items.forEach(function (li, i) {
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
  function suggest(input) {
    var list = $("#suggestions");
    var q = input.value.trim();
    if (!list || q.length < 2 || !window.fetch) { hideSuggestions(); return; }
    var seq = ++suggestSeq;
    fetch("/api/v1/suggest?q=" + encodeURIComponent(q))
      .then(function (r) { return r.ok ? r.json() : { suggestions: [] }; })
      .then(function (data) {
        if (seq !== suggestSeq || document.activeElement !== input) { return; }
        list.innerHTML = "";
        data.suggestions.slice(0, 10).forEach(function (s, i) {
          var li = document.createElement("li");
          li.setAttribute("role", "option");
          li.setAttribute("aria-selected", "false");
          li.id = "sugg-" + i;
          var a = document.createElement("a");
          a.href = s.url;
          a.tabIndex = -1;  // the input keeps focus; options are chosen with the arrow keys
          var text = document.createElement("span");
          text.className = "text";
          text.textContent = s.text;
          var kind = document.createElement("span");
          kind.className = "kind";
          kind.textContent = s.type;
          a.appendChild(text);
          a.appendChild(kind);
          li.appendChild(a);
          list.appendChild(li);
        });
        list.hidden = list.children.length === 0;
        input.setAttribute("aria-expanded", list.hidden ? "false" : "true");
        active = -1;
        input.removeAttribute("aria-activedescendant");
      })
      .catch(function () { if (seq === suggestSeq) { hideSuggestions(); } });
  }
  function initSuggestKeys() {
    var input = $("#q");
    if (!input) { return; }
    input.addEventListener("keydown", function (ev) {
      var items = $all("#suggestions li");
      if (ev.key === "Escape") {
        if (items.length) { ev.preventDefault(); }
        hideSuggestions();
        return;
      }
      if (!items.length || (ev.key !== "ArrowDown" && ev.key !== "ArrowUp" && ev.key !== "Enter")) { return; }
      if (ev.key === "Enter") {
        if (active >= 0) {
          ev.preventDefault();
          clearTimeout(typingTimer);
          var href = $("a", items[active]).href;
          hideSuggestions();
          window.location.href = href;
        }
        return;
      }
      ev.preventDefault();
      var next = ev.key === "ArrowDown" ? active + 1 : active - 1;
      if (next >= items.length) { next = 0; }
      if (next < -1) { next = items.length - 1; }
      setActive(items, next);
    });
    input.addEventListener("blur", function () {
      // Tabbing away closes the list; a click on an option (which takes focus) still navigates.
      setTimeout(function () {
        var focused = document.activeElement;
        if (focused !== input && !(focused && focused.closest && focused.closest("#suggestions"))) { hideSuggestions(); }
      }, 150);
    });
    document.addEventListener("click", function (ev) {
      if (!ev.target.closest(".searchbar")) { hideSuggestions(); }
    });
  }

  /* Facet, pager, did-you-mean and clear links inside the results swap content in place. */
  function initInPlaceLinks() {
    document.addEventListener("click", function (ev) {
      var link = ev.target.closest("[data-results-root] a");
      if (!link || ev.defaultPrevented || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey || ev.button !== 0) { return; }
      var inPlace = link.closest(".facets, .pager, .did-you-mean, .clear-filters");
      if (!inPlace) { return; }
      ev.preventDefault();
      loadResults(link.getAttribute("href"), true);
      var top = resultsRoot();
      if (top && link.closest(".pager")) { top.scrollIntoView({ behavior: "smooth" }); }
    });
    /* Facet links are checkboxes to assistive technology: Space toggles them too. */
    document.addEventListener("keydown", function (ev) {
      if (ev.key !== " " || !ev.target.matches || !ev.target.matches("a[role=checkbox]")) { return; }
      ev.preventDefault();
      ev.target.click();
    });
    if (resultsRoot() && window.history && history.replaceState) {
      history.replaceState({ url: location.pathname + location.search }, "", location.href);
    }
    window.addEventListener("popstate", function (ev) {
      if (!ev.state || !ev.state.url) { location.reload(); return; }
      var input = $("#q");
      if (input) { input.value = new URL(ev.state.url, location.href).searchParams.get("q") || ""; }
      hideSuggestions();
      loadResults(ev.state.url, false);
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

  /* The filter panel is open on wide screens and folded on narrow ones (results first). */
  function initFilterPanel() {
    var panel = $("[data-filters-panel]");
    if (!panel || !window.matchMedia) { return; }
    var query = window.matchMedia(NARROW);
    var apply = function () { panel.open = !query.matches; };
    apply();
    if (query.addEventListener) { query.addEventListener("change", apply); }
  }

  /* Copy buttons: data-copy names the element whose text is copied. */
  function initCopy() {
    document.addEventListener("click", function (ev) {
      var button = ev.target.closest("[data-copy]");
      if (!button) { return; }
      var source = $(button.getAttribute("data-copy"));
      var status = button.parentNode.querySelector(".copy-status");
      var text = source ? source.textContent : "";
      var report = function (ok) {
        if (status) { status.textContent = ok ? "Copied" : "Could not copy: select the text and copy it"; }
        button.dataset.copied = ok ? "true" : "false";
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { report(true); },
                                                 function () { report(fallbackCopy(text)); });
      } else { report(fallbackCopy(text)); }
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
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }

  document.addEventListener("DOMContentLoaded", function () {
    initLiveSearch();
    initSuggestKeys();
    initInPlaceLinks();
    initForms();
    initFilterPanel();
    initCopy();
  });
})();
