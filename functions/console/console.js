// The groundplan web console: plain JavaScript, no build step, no third-party code.
//
// It signs in with the control plane's API token (kept in sessionStorage, so it lives as long
// as the tab) and calls the JSON API beside it with `Authorization: Bearer TOKEN`. Views are
// chosen by the location's hash:
//   #/                               workspaces, their drift status and active run
//   #/workspaces/NAME                a workspace's runs
//   #/runs/ID                        a run: status, Approve/Reject, its apply graph (each node
//                                    pending / running / applied / failed / skipped, refreshed
//                                    while the run goes on), history, its (redacted) plan
//   #/workspaces/NAME/state          the state inspector: resources, the state's versions, each
//                                    older version with a Restore button
//   #/workspaces/NAME/state/ADDRESS  one resource's instances (sensitive values redacted)
// Everything the API answers is put on the page as text (never as HTML).
"use strict";

(function () {
  const TOKEN_KEY = "groundplan.token";
  // run statuses after which nothing changes any more; an open run page refreshes until then
  const FINAL = ["planned_and_finished", "applied", "errored", "discarded", "canceled"];
  const REFRESH_MS = 1500;
  let refresh = null;
  let lastShown = null;
  // The API's base path: the console is served at <base>/console (base is /v1 on API Gateway).
  const BASE = window.location.pathname.replace(/\/console(\/.*)?$/, "");

  const view = document.getElementById("view");
  const signIn = document.getElementById("sign-in");
  const signOut = document.getElementById("sign-out");
  const alertBox = document.getElementById("alert");
  const statusBox = document.getElementById("status");
  const main = document.getElementById("main");

  class ApiError extends Error {
    constructor(status, code, message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  function token() {
    return window.sessionStorage.getItem(TOKEN_KEY);
  }

  async function api(method, path, body) {
    const init = { method: method, headers: { Authorization: "Bearer " + token() } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const resp = await fetch(BASE + path, init);
    const text = await resp.text();
    const isJson = (resp.headers.get("Content-Type") || "").indexOf("json") >= 0;
    const doc = isJson && text ? JSON.parse(text) : text;
    if (!resp.ok) {
      const err = (doc && doc.error) || {};
      throw new ApiError(resp.status, err.code || "error",
                         err.message || (doc && doc.message) || String(resp.status));
    }
    return doc;
  }

  // -- building the page ------------------------------------------------------------------
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children || []) {
      if (child !== null && child !== undefined) {
        node.append(typeof child === "string" ? document.createTextNode(child) : child);
      }
    }
    return node;
  }

  function link(href, text) {
    return el("a", { href: href, text: text });
  }

  function badge(value) {
    const text = value || "unknown";
    return el("span", { class: "badge " + text, text: text });
  }

  function table(caption, headers, rows) {
    return el("table", {}, [
      el("caption", { class: "muted", text: caption }),
      el("thead", {}, [el("tr", {}, headers.map((h) => el("th", { scope: "col", text: h })))]),
      el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c) =>
        el("td", {}, [typeof c === "string" || c === null ? String(c === null ? "" : c) : c]))))),
    ]);
  }

  function details(pairs) {
    const dl = el("dl");
    for (const [name, value] of pairs) {
      dl.append(el("dt", { text: name }), el("dd", {}, [typeof value === "string" ? value : value]));
    }
    return dl;
  }

  function show(title, parts) {
    alertBox.hidden = true;
    view.replaceChildren(el("h1", { id: "view-title", text: title }), ...parts);
    view.hidden = false;
    document.title = title + " - groundplan console";
    if (lastShown !== window.location.hash) {  // a new view: announce it, move focus to it
      lastShown = window.location.hash;
      statusBox.textContent = title;
      main.focus();
    }
  }

  function fail(err) {
    if (err instanceof ApiError && err.status === 401) {
      window.sessionStorage.removeItem(TOKEN_KEY);
      route();
      showAlert("The token was refused: sign in again.");
      return;
    }
    showAlert(err instanceof ApiError ? err.message + " (" + err.code + ")" : String(err));
  }

  function showAlert(text) {
    alertBox.textContent = text;
    alertBox.hidden = false;
  }

  // terraform's plan symbols, coloured as its terminal output colours them
  function planText(text) {
    const pre = el("pre", { id: "plan-text", "aria-label": "Plan" });
    for (const line of text.split("\n")) {
      const t = line.trimStart();
      let cls = "";
      if (t.startsWith("-/+") || t.startsWith("+/-")) cls = "plan-chg";
      else if (t.startsWith("+")) cls = "plan-add";
      else if (t.startsWith("-")) cls = "plan-del";
      else if (t.startsWith("~")) cls = "plan-chg";
      pre.append(cls ? el("span", { class: cls, text: line }) : document.createTextNode(line), "\n");
    }
    return pre;
  }

  // The apply graph by level: level 0 holds the nodes that wait for nothing, level n the
  // nodes whose furthest dependency is on level n - 1; each node says what it waits for.
  function graphView(nodes) {
    if (!nodes.length) {
      return el("p", { id: "graph-empty", class: "muted",
                       text: "The apply graph appears here once the apply starts (after approval)." });
    }
    const levels = [];
    for (const node of nodes) {
      while (levels.length <= node.level) levels.push([]);
      levels[node.level].push(node);
    }
    const counts = {};
    for (const node of nodes) counts[node.status] = (counts[node.status] || 0) + 1;
    const summary = Object.keys(counts).sort().map((k) => counts[k] + " " + k).join(", ");
    return el("div", { id: "graph" }, [
      el("p", { id: "graph-summary", class: "muted", text: nodes.length + " nodes: " + summary }),
      el("ol", { class: "graph", "aria-label": "Apply graph, by level" }, levels.map((level, i) =>
        el("li", { class: "graph-level" }, [
          el("h3", { text: "Level " + i }),
          el("ul", {}, level.map((node) =>
            el("li", { class: "graph-node " + node.status, "data-node": node.id }, [
              el("code", { text: node.id }), " ", badge(node.status),
              node.depends_on.length
                ? el("span", { class: "muted waits", text: "after " + node.depends_on.join(", ") })
                : null,
            ]))),
        ]))),
    ]);
  }

  // -- views -------------------------------------------------------------------------------
  async function workspacesView() {
    const doc = await api("GET", "/workspaces");
    const rows = doc.workspaces.map((ws) => [
      link("#/workspaces/" + encodeURIComponent(ws.name), ws.name),
      badge(ws.drift.status || "unchecked"),
      ws.drift.last_checked || "never",
      ws.active_run ? link("#/runs/" + encodeURIComponent(ws.active_run), ws.active_run) : "none",
      link("#/workspaces/" + encodeURIComponent(ws.name) + "/state", "state"),
    ]);
    show("Workspaces", [
      rows.length ? table("Workspaces", ["Workspace", "Drift", "Last checked", "Active run", "State"], rows)
        : el("p", { text: "No workspaces yet." }),
    ]);
  }

  async function runsView(name) {
    const [ws, doc] = await Promise.all([
      api("GET", "/workspaces/" + encodeURIComponent(name)),
      api("GET", "/workspaces/" + encodeURIComponent(name) + "/runs"),
    ]);
    const rows = doc.runs.map((run) => [
      link("#/runs/" + encodeURIComponent(run.id), run.id), run.operation, badge(run.status),
      run.created_by, run.created_at, run.approved_by || "",
    ]);
    show("Workspace " + ws.name, [
      details([["Drift", badge(ws.drift.status || "unchecked")],
               ["Active run", ws.active_run ? link("#/runs/" + encodeURIComponent(ws.active_run), ws.active_run) : "none"],
               ["Approvers", (ws.approvers || []).join(", ") || "none"],
               ["State", link("#/workspaces/" + encodeURIComponent(ws.name) + "/state", "inspect the state")]]),
      el("h2", { text: "Runs" }),
      rows.length ? table("Runs, newest first", ["Run", "Operation", "Status", "Started by", "Started at", "Approved by"], rows)
        : el("p", { text: "No runs yet." }),
    ]);
  }

  async function runView(id) {
    const run = await api("GET", "/runs/" + encodeURIComponent(id));
    let plan = null;
    if (run.plan_digest) plan = await api("GET", "/runs/" + encodeURIComponent(id) + "/plan");
    const graph = await api("GET", "/runs/" + encodeURIComponent(id) + "/graph");
    const changes = run.resource_changes;
    const parts = [
      details([
        ["Workspace", link("#/workspaces/" + encodeURIComponent(run.workspace), run.workspace)],
        ["Status", el("span", { id: "run-status", class: "badge " + run.status, text: run.status })],
        ["Operation", run.operation],
        ["Started by", run.created_by + " at " + run.created_at],
        ["Approved by", run.approved_by || "not approved"],
        ["Changes", changes ? changes.add + " to add, " + changes.change + " to change, " +
          changes.destroy + " to destroy" : "not planned yet"],
        ["Error", run.error || "none"],
      ]),
    ];
    if (run.status === "awaiting_approval") {
      parts.push(el("div", { class: "actions" }, [
        el("button", { type: "button", id: "approve", text: "Approve", onclick: () => decide(id, "approve") }),
        " ",
        el("button", { type: "button", id: "reject", class: "reject", text: "Reject", onclick: () => decide(id, "reject") }),
      ]));
    }
    parts.push(el("h2", { text: "Apply graph" }), graphView(graph.nodes));
    parts.push(el("h2", { text: "History" }), table("Status history", ["Status", "At", "By", "Why"],
      run.status_history.map((h) => [h.status, h.at, h.by || "", h.reason || ""])));
    parts.push(el("h2", { text: "Plan" }), plan !== null ? planText(plan) : el("p", { text: "No plan yet." }));
    show("Run " + run.id, parts);
    if (FINAL.indexOf(run.status) < 0) {
      const here = window.location.hash;
      refresh = window.setTimeout(() => { if (window.location.hash === here) route(); }, REFRESH_MS);
    }
  }

  async function decide(id, action) {
    try {
      await api("POST", "/runs/" + encodeURIComponent(id) + "/actions/" + action, {});
      route();
    } catch (err) {
      fail(err);
    }
  }

  async function restore(name, version) {
    const what = "the version with serial " + version.serial + " (" + version.id + ")";
    if (!window.confirm("Restore " + what + "? It becomes the current state, as a new version."))
      return;
    try {
      const done = await api("POST", "/workspaces/" + encodeURIComponent(name) + "/state/versions/" +
        encodeURIComponent(version.id) + "/restore", {});
      await stateView(name);
      const notice = el("p", { id: "notice", class: "notice", role: "status",
        text: "Restored " + what + " as serial " + done.serial + "." });
      view.insertBefore(notice, view.children[1]);
    } catch (err) {
      fail(err);
    }
  }

  async function stateView(name) {
    const path = "/workspaces/" + encodeURIComponent(name) + "/state/";
    const [doc, history] = await Promise.all([api("GET", path + "resources"),
                                              api("GET", path + "versions")]);
    const base = "#/workspaces/" + encodeURIComponent(name) + "/state/";
    const rows = doc.resources.map((r) => [
      link(base + encodeURIComponent(r.address), r.address), r.type, r.provider || "",
      r.module || "(root)", String(r.instances),
    ]);
    show("State of " + name, [
      el("p", {}, [link("#/workspaces/" + encodeURIComponent(name), "Back to the workspace")]),
      rows.length ? table("Resources in the state", ["Address", "Type", "Provider", "Module", "Instances"], rows)
        : el("p", { text: "The state has no resources." }),
      el("h2", { text: "Versions" }),
      table("State versions, newest first", ["Serial", "Version", "Written by", "Run", "At", "Action"],
        history.versions.map((v) => [String(v.serial), v.id, v.actor || "", v.run || "",
                                     v.last_modified, v.is_latest ? "current" :
          el("button", { type: "button", class: "restore", text: "Restore",
                         "aria-label": "Restore the version with serial " + v.serial,
                         onclick: () => restore(name, v) })])),
    ]);
  }

  async function resourceView(name, address) {
    const doc = await api("GET", "/workspaces/" + encodeURIComponent(name) + "/state/resources/" +
      encodeURIComponent(address));
    const parts = [
      el("p", {}, [link("#/workspaces/" + encodeURIComponent(name) + "/state", "Back to the resources")]),
      details([["Type", doc.type], ["Provider", doc.provider || ""]]),
    ];
    doc.instances.forEach((inst, i) => {
      const key = inst.index_key === undefined ? "" : "[" + JSON.stringify(inst.index_key) + "]";
      parts.push(el("h2", { text: key ? "Instance " + key : "Instance " + (i + 1) + " (no key)" }),
                 el("pre", { class: "attributes", text: JSON.stringify(inst.attributes, null, 2) }));
    });
    show(address, parts);
  }

  // -- routing -----------------------------------------------------------------------------
  function route() {
    if (refresh !== null) {
      window.clearTimeout(refresh);
      refresh = null;
    }
    const signedIn = Boolean(token());
    signIn.hidden = signedIn;
    signOut.hidden = !signedIn;
    if (!signedIn) {
      view.hidden = true;
      view.replaceChildren();
      document.title = "Sign in - groundplan console";
      document.getElementById("token").focus();
      return;
    }
    const parts = window.location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
    let shown;
    if (parts[0] === "workspaces" && parts[1] && parts[2] === "state" && parts.length > 3) {
      shown = resourceView(parts[1], parts.slice(3).join("/"));
    } else if (parts[0] === "workspaces" && parts[1] && parts[2] === "state") {
      shown = stateView(parts[1]);
    } else if (parts[0] === "workspaces" && parts[1]) {
      shown = runsView(parts[1]);
    } else if (parts[0] === "runs" && parts[1]) {
      shown = runView(parts[1]);
    } else {
      shown = workspacesView();
    }
    shown.catch(fail);
  }

  document.getElementById("sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = document.getElementById("token");
    window.sessionStorage.setItem(TOKEN_KEY, input.value.trim());
    input.value = "";
    route();
  });
  signOut.addEventListener("click", () => {
    window.sessionStorage.removeItem(TOKEN_KEY);
    window.location.hash = "#/";
    route();
  });
  window.addEventListener("hashchange", route);
  route();
})();
