/// The console's only stylesheet and script, served from `/static/`: no build step, no outside
/// host, no web fonts. Colours always come with words or symbols.
enum ConsoleAssets {
    static let css = """
        :root { --ink: #1d2330; --muted: #555d6b; --line: #d5d9e0; --accent: #1f5fbf; --ok: #1c7a3a; --bad: #b3261e; --paper: #ffffff; --wash: #f4f6f9; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--wash); }
        header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .6rem 1rem; background: var(--paper); border-bottom: 1px solid var(--line); }
        .brand { font-weight: 700; }
        nav ul { display: flex; gap: .25rem; margin: 0; padding: 0; list-style: none; }
        nav a { display: inline-block; padding: .35rem .6rem; border-radius: .4rem; color: var(--accent); text-decoration: none; }
        nav a[aria-current="page"] { background: var(--wash); color: var(--ink); font-weight: 600; text-decoration: underline; }
        .signout { margin-left: auto; display: flex; align-items: center; gap: .5rem; }
        .who { color: var(--muted); font-size: .9rem; }
        main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
        h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
        h3 { font-size: 1.05rem; margin: 0 0 .5rem; }
        section, .card { background: var(--paper); border: 1px solid var(--line); border-radius: .6rem; padding: .75rem 1rem; margin-bottom: 1rem; }
        section .card { border-color: var(--line); }
        .cards { list-style: none; margin: 0; padding: 0; display: grid; gap: .75rem; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); }
        .device { color: var(--muted); font-weight: 400; font-size: .9rem; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .75rem; margin: 0; }
        dt { color: var(--muted); }
        dd { margin: 0; overflow-wrap: anywhere; }
        .online { color: var(--ok); font-weight: 600; }
        .offline { color: var(--muted); }
        .ok { color: var(--ok); }
        .failed, .problem, .danger { color: var(--bad); }
        .pending { color: var(--muted); font-style: italic; }
        .policy { margin: 0; padding-left: 1.1rem; }
        form { margin: .25rem 0; }
        label { display: block; font-weight: 600; margin: .4rem 0 .2rem; }
        input[type=text], input[type=password], input[type=date], select { font: inherit; padding: .45rem .5rem; border: 1px solid #8a93a3; border-radius: .4rem; width: 100%; max-width: 30rem; background: var(--paper); color: var(--ink); }
        button { font: inherit; padding: .45rem .9rem; border-radius: .4rem; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; margin-top: .4rem; }
        .signout button { margin: 0; background: var(--paper); color: var(--accent); }
        button.danger { background: var(--bad); border-color: var(--bad); color: #fff; }
        .check { display: flex; gap: .5rem; align-items: flex-start; }
        .check label { margin: 0; }
        .check input { margin-top: .3rem; width: 1.2rem; height: 1.2rem; }
        a { color: var(--accent); }
        :focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 1rem; top: .5rem; background: var(--paper); padding: .4rem; z-index: 1; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        .replies, .notes, .map-list { padding-left: 1.1rem; }
        .replies li, .notes li { margin: .4rem 0; overflow-wrap: anywhere; }
        .note p { margin: .1rem 0; }
        .note-head { color: var(--muted); font-size: .9rem; }
        .note.high { border-left: 4px solid var(--bad); padding-left: .5rem; }
        .answer { margin-left: .5rem; }
        .map-frame { overflow-x: auto; }
        svg { max-width: 100%; height: auto; }
        .timeline svg { display: block; }
        .chart-narrow { display: none; }
        @media (max-width: 48rem) { .chart-wide { display: none; } .chart-narrow { display: block; } }
        .map { width: 100%; max-width: 40rem; border: 1px solid var(--line); border-radius: .4rem; }
        .map-ground { fill: #eef2ee; }
        .zone circle { fill: rgba(179, 38, 30, .15); stroke: var(--bad); stroke-dasharray: 4 3; }
        .zone text, .child text, .scale text { font: 20px sans-serif; fill: var(--ink); paint-order: stroke; stroke: #eef2ee; stroke-width: 5px; }
        .child text { font-weight: 700; }
        .child circle { fill: var(--accent); stroke: #fff; stroke-width: 3; }
        .scale line { stroke: var(--ink); stroke-width: 2; }
        table { border-collapse: collapse; width: 100%; font-size: .95rem; }
        caption { text-align: left; color: var(--muted); padding: .3rem 0; }
        th, td { text-align: left; border-top: 1px solid var(--line); padding: .35rem .3rem; vertical-align: top; }
        .slots select { width: auto; }
        .warning { border-left: 4px solid var(--bad); padding-left: .6rem; }
        .live-state { max-width: 60rem; margin: 0 auto; padding: 0 1rem 1rem; color: var(--muted); font-size: .85rem; }
        .signin { max-width: 22rem; }
        @media (max-width: 30rem) {
          main { padding: .5rem; }
          section, .card { padding: .6rem; }
          .signout { margin-left: 0; width: 100%; justify-content: space-between; }
          dl { grid-template-columns: 1fr; }
          dt { margin-top: .3rem; }
        }
        """

    static let javascript = """
        "use strict";
        (function () {
          function localize(root) {
            root.querySelectorAll("time[datetime]").forEach(function (el) {
              var d = new Date(el.getAttribute("datetime"));
              if (isNaN(d)) return;
              var sameDay = d.toDateString() === new Date().toDateString();
              var clock = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
              el.textContent = sameDay ? clock : d.toLocaleDateString([], { month: "short", day: "numeric" }) + " " + clock;
            });
          }
          function say(form, text) {
            var section = form.closest("[data-live-section]");
            var status = form.parentNode.querySelector(".form-status") || (section && section.querySelector(".form-status"));
            if (status) status.textContent = text;
          }
          function enhance(root) {
            root.querySelectorAll("form[data-enhance]").forEach(function (form) {
              if (form.dataset.enhanced) return;
              form.dataset.enhanced = "1";
              form.addEventListener("submit", function (event) {
                event.preventDefault();
                var body = new URLSearchParams(new FormData(form));
                fetch(form.action, { method: "POST", body: body, credentials: "same-origin", headers: { "X-Console-Fetch": "1" } })
                  .then(function (response) {
                    if (response.status === 401) { location.href = "/signin?expired=1"; return; }
                    if (!response.ok) return response.text().then(function (text) { say(form, text); });
                    say(form, "Sent.");
                    var text = form.querySelector("input[name=text]");
                    if (text && form.classList.contains("command")) text.value = "";
                  })
                  .catch(function () { say(form, "Not sent: the console cannot be reached."); });
              });
            });
          }
          document.addEventListener("DOMContentLoaded", function () {
            localize(document);
            enhance(document);
            var url = document.body.dataset.live;
            if (!url || !window.EventSource) return;
            var state = document.getElementById("live-state");
            var source = new EventSource(url);
            window.consoleUpdates = {};
            document.querySelectorAll("[data-live-section]").forEach(function (el) {
              var name = el.dataset.liveSection;
              source.addEventListener(name, function (event) {
                el.innerHTML = event.data;
                localize(el);
                enhance(el);
                window.consoleUpdates[name] = Date.now();
                el.dataset.updatedAt = String(Date.now());
              });
            });
            source.addEventListener("open", function () { if (state) state.textContent = "Live: updates appear as they happen."; });
            source.addEventListener("error", function () {
              if (source.readyState === EventSource.CLOSED) { location.href = "/signin?expired=1"; return; }
              if (state) state.textContent = "Reconnecting…";
            });
          });
        })();
        """
}
