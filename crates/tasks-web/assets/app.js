// The Task Center's script: the create/edit modal (focus, preview, submit), times in
// the browser's zone, submit locks, and refresh when the store changes. No framework,
// no build step; the pages work without it except for the modal.
"use strict";

(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

  // ---- times: add the browser's own time when its zone differs ----------------------
  function localTimes(root) {
    root.querySelectorAll("time.fire[data-zone]").forEach((el) => {
      if (el.dataset.done || el.dataset.zone === browserZone) return;
      const at = new Date(el.getAttribute("datetime"));
      if (isNaN(at)) return;
      const text = new Intl.DateTimeFormat(undefined, {
        weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: browserZone,
      }).format(at);
      const span = document.createElement("span");
      span.className = "browser-time";
      span.textContent = " · " + text + " your time";
      el.after(span);
      el.dataset.done = "1";
    });
  }

  // ---- submit locks: a form is sent once while in flight ----------------------------
  function locks(root) {
    root.querySelectorAll("form[data-lock]").forEach((form) => {
      if (form.dataset.bound) return;
      form.dataset.bound = "1";
      form.addEventListener("submit", () => {
        setTimeout(() => form.querySelectorAll("button[type=submit]").forEach((b) => (b.disabled = true)), 0);
      });
    });
  }

  // ---- the modal ---------------------------------------------------------------------
  const backdrop = document.getElementById("modal-backdrop");
  const dialog = document.getElementById("modal");
  const form = document.getElementById("schedule-form");
  let opener = null;
  let editing = null;
  let previewTimer = null;
  let inFlight = false;

  function focusables() {
    return Array.from(
      dialog.querySelectorAll("input, select, textarea, button, a[href]")
    ).filter((el) => !el.disabled && el.offsetParent !== null && el.tabIndex >= 0 &&
      !(el.type === "radio" && !el.checked && groupHasChecked(el)));
  }

  function groupHasChecked(radio) {
    return !!dialog.querySelector('input[type=radio][name="' + radio.name + '"]:checked');
  }

  function field(name) {
    return form.elements[name];
  }

  function value(name) {
    const el = form.elements[name];
    if (!el) return "";
    if (el instanceof RadioNodeList) return el.value;
    return el.value;
  }

  function frequency() {
    return value("frequency");
  }

  function showFrequencyFields() {
    const f = frequency();
    form.querySelectorAll("[data-for]").forEach((el) => {
      el.hidden = !el.dataset.for.split(" ").includes(f);
    });
    const existing = value("conversation_kind") === "existing";
    field("conversation").disabled = !existing;
    field("conversation_title").disabled = existing;
  }

  function collect() {
    const weekdays = Array.from(form.querySelectorAll('input[name=weekday]:checked')).map((c) => c.value);
    const existing = value("conversation_kind") === "existing";
    return {
      name: value("name"),
      requirement: value("requirement"),
      conversation: existing ? value("conversation") : "new",
      conversation_title: existing ? "" : value("conversation_title"),
      mode: value("mode"),
      frequency: frequency(),
      date: value("date"),
      time: value("time"),
      weekdays: weekdays.join(","),
      day: value("day"),
      cron: value("cron"),
      zone: value("zone"),
    };
  }

  function clearErrors() {
    form.querySelectorAll(".field-error, .form-error").forEach((p) => (p.textContent = ""));
    form.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
  }

  function showError(err, focus) {
    const target = document.getElementById("e-" + err.field) || document.getElementById("e-form");
    target.textContent = err.message;
    const input = form.elements[err.field];
    if (input && !(input instanceof RadioNodeList) && input.setAttribute) {
      input.setAttribute("aria-invalid", "true");
      if (focus) input.focus();
    }
  }

  function renderPreview(data) {
    const list = document.getElementById("preview-list");
    const summary = document.getElementById("summary");
    list.replaceChildren();
    summary.replaceChildren();
    data.firings.forEach((f) => {
      const li = document.createElement("li");
      li.dataset.at = f.at;
      li.textContent = f.local;
      list.appendChild(li);
    });
    if (!data.firings.length) {
      const li = document.createElement("li");
      li.textContent = "no firing left";
      list.appendChild(li);
    }
    data.summary.forEach((line) => {
      const li = document.createElement("li");
      li.textContent = "✓ " + line;
      summary.appendChild(li);
    });
  }

  async function preview() {
    const params = new URLSearchParams(collect());
    try {
      const resp = await fetch("/api/preview?" + params.toString(), { credentials: "same-origin" });
      const data = await resp.json();
      clearErrors();
      if (resp.ok) {
        renderPreview(data);
      } else {
        document.getElementById("preview-list").replaceChildren();
        document.getElementById("summary").replaceChildren();
        showError(data.error, false);
      }
    } catch (e) {
      document.getElementById("e-form").textContent = "The preview could not be loaded: " + e.message;
    }
  }

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(preview, 120);
  }

  function fill(data) {
    Object.entries(data).forEach(([k, v]) => {
      if (k === "weekdays") {
        const days = String(v || "").split(",");
        form.querySelectorAll("input[name=weekday]").forEach((c) => (c.checked = days.includes(c.value)));
        return;
      }
      const el = form.elements[k];
      if (!el) return;
      if (el instanceof RadioNodeList) {
        el.forEach((r) => (r.checked = r.value === v));
      } else {
        el.value = v;
      }
    });
  }

  function openModal(button) {
    opener = button;
    editing = button.dataset.openModal === "edit" ? button.dataset.task : null;
    form.reset();
    clearErrors();
    field("zone").value = browserZone;
    field("date").value = new Date().toISOString().slice(0, 10);
    document.getElementById("modal-title").textContent = editing ? "Edit scheduled Task" : "New scheduled Task";
    document.getElementById("modal-submit").textContent = editing ? "Save changes" : "Create Task";
    document.getElementById("f-conversation-set").hidden = !!editing;
    field("name").disabled = !!editing;
    if (editing) {
      fill(JSON.parse(button.dataset.form || "{}"));
    }
    backdrop.hidden = false;
    showFrequencyFields();
    const first = editing ? field("requirement") : field("name");
    first.focus();
    preview();
  }

  function closeModal() {
    if (inFlight) return;
    backdrop.hidden = true;
    if (opener) opener.focus();
  }

  async function submit(ev) {
    ev.preventDefault();
    if (inFlight) return;
    const button = document.getElementById("modal-submit");
    inFlight = true;
    button.disabled = true;
    clearErrors();
    const url = editing ? "/api/schedules/" + encodeURIComponent(editing) : "/api/schedules";
    try {
      const resp = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify(collect()),
      });
      let data = null;
      try { data = await resp.json(); } catch (_) { data = null; }
      if (resp.ok && data) {
        inFlight = false;
        window.location.assign(data.url + "?notice=" + encodeURIComponent(editing ? "Changed " + data.task : "Created " + data.task));
        return;
      }
      if (data && data.error) {
        showError(data.error, true);
      } else {
        document.getElementById("e-form").textContent = "The server answered " + resp.status + ". Nothing was created; try again.";
        button.textContent = "Retry";
      }
    } catch (e) {
      document.getElementById("e-form").textContent = "Could not reach the server (" + e.message + "). Nothing was lost; try again.";
      button.textContent = "Retry";
    }
    inFlight = false;
    button.disabled = false;
  }

  if (dialog) {
    form.addEventListener("input", () => { showFrequencyFields(); schedulePreview(); });
    form.addEventListener("change", () => { showFrequencyFields(); schedulePreview(); });
    form.addEventListener("submit", submit);
    document.getElementById("modal-cancel").addEventListener("click", closeModal);
    dialog.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") {
        ev.preventDefault();
        closeModal();
        return;
      }
      if (ev.key !== "Tab") return;
      const items = focusables();
      if (!items.length) return;
      const first = items[0];
      const last = items[items.length - 1];
      if (ev.shiftKey && document.activeElement === first) {
        ev.preventDefault();
        last.focus();
      } else if (!ev.shiftKey && document.activeElement === last) {
        ev.preventDefault();
        first.focus();
      }
    });
    if (Intl.supportedValuesOf) {
      const list = document.createElement("datalist");
      list.id = "zones";
      Intl.supportedValuesOf("timeZone").forEach((z) => {
        const o = document.createElement("option");
        o.value = z;
        list.appendChild(o);
      });
      document.body.appendChild(list);
      field("zone").setAttribute("list", "zones");
    }
  }

  document.addEventListener("click", (ev) => {
    const button = ev.target.closest("[data-open-modal]");
    if (button && dialog) {
      ev.preventDefault();
      openModal(button);
    }
  });

  // ---- refresh when the store changed (the daemon, the bot, a CLI) ------------------
  async function poll() {
    try {
      const resp = await fetch("/api/stamp", { credentials: "same-origin" });
      if (!resp.ok) return;
      const data = await resp.json();
      const busy = (backdrop && !backdrop.hidden) ||
        (document.activeElement && ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName) && document.activeElement.value);
      if (String(data.stamp) === document.body.dataset.stamp || busy) return;
      const page = await fetch(window.location.pathname, { credentials: "same-origin" });
      if (!page.ok) return;
      const doc = new DOMParser().parseFromString(await page.text(), "text/html");
      const main = doc.getElementById("main");
      if (!main) return;
      const scroll = window.scrollY;
      // Keep the modal (and what the script bound to it) across the refresh.
      const fresh = main.querySelector("#modal-backdrop");
      if (fresh && backdrop) fresh.replaceWith(backdrop);
      document.getElementById("main").replaceWith(main);
      document.body.dataset.stamp = doc.body.dataset.stamp;
      enhance(main);
      window.scrollTo(0, scroll);
    } catch (_) {
      // The server stopped or restarts: try again on the next tick.
    }
  }

  function enhance(root) {
    localTimes(root);
    locks(root);
  }

  enhance(document);
  setInterval(poll, 2000);
})();
