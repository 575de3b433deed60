#!/usr/bin/env python3
"""Score Guardian's `timeline build` on gen.py's labelled days.

usage: score.py [--bin PATH] [--seeds 0,1,2] [--out DIR]   (`make timeline-check` runs it)
Builds, per person and seed: the whole week in one file, and two first days (a weekday and the
Saturday) each from its own events only (the previous evening from 18:00 included; the day scored
00:00-24:00 local). Writes DIR/report.txt (the figures, the biggest mistakes, the failure families
#28 names) and DIR/days.txt (each day's slots beside the truth). The days are made by gen.py, written
apart from the project's own generator (Services/Timeline/Evaluation) and its rules.
"""
import json, os, subprocess, sys, argparse, collections
from datetime import datetime, timedelta, date
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen

TZ = ZoneInfo("Europe/Berlin")
UTC = ZoneInfo("UTC")


def parse(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


def run_build(binpath, path):
    r = subprocess.run([binpath, "timeline", "build", path, "--timezone", "Europe/Berlin"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"build failed on {path}: {r.stderr[:2000]}")
    return json.loads(r.stdout)


def minutes_of_day(d):
    s = datetime(d.year, d.month, d.day, tzinfo=TZ)
    return [s + timedelta(minutes=i) for i in range(int((datetime(d.year, d.month, d.day, tzinfo=TZ) + timedelta(days=1) - s).total_seconds() // 60))]


def truth_at(truth, t):
    for seg in truth:
        if seg["_s"] <= t < seg["_e"]:
            return seg
    return None


def score_day(days_out, truth, d):
    """Per-minute comparison for local day d. Returns dict."""
    day = next((x for x in days_out if x["date"] == d.isoformat()), None)
    slots = []
    if day:
        for s in day["slots"]:
            slots.append((parse(s["start"]), parse(s["end"]), s["category"]))
    slots.sort()
    ok = tot = 0
    conf = collections.Counter()  # (truth label, drawn) -> minutes when wrong
    runs = []  # contiguous wrong stretches
    cur = None
    for t in minutes_of_day(d):
        mid = t + timedelta(seconds=30)
        seg = truth_at(truth, mid)
        if seg is None:
            continue
        cat = next((c for (a, b, c) in slots if a <= mid < b), "none")
        tot += 1
        good = cat in seg["accept"]
        ok += good
        if not good:
            conf[(seg["label"], cat)] += 1
            key = (seg["label"], tuple(seg["accept"]), cat)
            if cur and cur[0] == key and cur[2] == t:
                cur[2] = t + timedelta(minutes=1)
            else:
                if cur:
                    runs.append(cur)
                cur = [key, t, t + timedelta(minutes=1)]
    if cur:
        runs.append(cur)
    # slots drawn within the day vs the truth's stretches (neighbours with the same label merged)
    ds = datetime(d.year, d.month, d.day, tzinfo=TZ)
    de = ds + timedelta(days=1)
    nslots = sum(1 for (a, b, c) in slots if a < de and b > ds)
    tl = [seg["label"] for seg in truth if seg["_s"] < de and seg["_e"] > ds]
    ntruth = sum(1 for i, l in enumerate(tl) if i == 0 or l != tl[i - 1])
    return {"ok": ok, "tot": tot, "conf": conf, "runs": runs, "nslots": nslots, "ntruth": ntruth,
            "slots": [(a.astimezone(TZ).strftime("%a %H:%M"), b.astimezone(TZ).strftime("%H:%M"), c) for (a, b, c) in slots if a < de and b > ds]}


def write_events(path, ev, lo=None, hi=None):
    n = 0
    with open(path, "w") as f:
        for t, d in ev:
            if lo and t < lo:
                continue
            if hi and t >= hi:
                continue
            o = {"ts": t.replace(tzinfo=TZ).isoformat(timespec="seconds")}
            o.update(d)
            f.write(json.dumps(o) + "\n")
            n += 1
    return n


def current_activity(ev, t):
    last = None
    for tt, d in ev:
        if tt > t:
            break
        if "activity" in d:
            last = d
    return last


def main():
    ap = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--bin", default=os.path.join(root, ".build", "debug", "guardian"))
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--out", default=os.path.join(root, ".build", "timeline-check"))
    ap.add_argument("--people", default="office,child,nurse")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    seeds = [int(x) for x in a.seeds.split(",")]
    results = {}
    for person in a.people.split(","):
        for seed in seeds:
            ev, truth, gaps = gen.generate(person, seed)
            for s in truth:
                s["_s"] = datetime.fromisoformat(s["start"])
                s["_e"] = datetime.fromisoformat(s["end"])
            base = os.path.join(a.out, f"{person}-s{seed}")
            json.dump({"truth": [{k: v for k, v in s.items() if not k.startswith("_")} for s in truth],
                       "gaps": [[x.isoformat(), y.isoformat()] for x, y in gaps]}, open(base + ".truth.json", "w"), indent=1)
            # --- whole week
            write_events(base + ".week.jsonl", ev)
            out = run_build(a.bin, base + ".week.jsonl")
            json.dump(out, open(base + ".week.out.json", "w"), indent=1)
            week = {}
            for di in range(7):
                d = gen.WEEK + timedelta(days=di)
                week[d.isoformat()] = score_day(out, truth, d)
            # --- first days
            if person == "nurse":
                # a weekday after a night shift (the hardest, and the nurse's typical working day)
                wd = next((di for di in range(5) if any(s["label"] == "day-sleep" and s["_s"].date() == gen.WEEK + timedelta(days=di) for s in truth)), 1)
            else:
                wd = 2  # Wednesday
            first = {}
            for di in (wd, 5):
                d = gen.WEEK + timedelta(days=di)
                lo = datetime(d.year, d.month, d.day) - timedelta(hours=6)
                hi = datetime(d.year, d.month, d.day) + timedelta(days=1)
                sub = [(t, x) for (t, x) in ev if lo <= t < hi]
                cur = current_activity(ev, lo)
                if cur and not (sub and sub[0][0] == lo and "activity" in sub[0][1]):
                    sub.insert(0, (lo, dict(cur)))  # the app starts: current activity reported
                end = current_activity(ev, hi - timedelta(minutes=1))
                if end:
                    sub.append((hi - timedelta(minutes=1), dict(end)))  # still reporting at 23:59 (as samples/day.jsonl)
                p = f"{base}.first-{d.isoformat()}.jsonl"
                write_events(p, sub)
                o = run_build(a.bin, p)
                json.dump(o, open(p.replace(".jsonl", ".out.json"), "w"), indent=1)
                first[d.isoformat()] = score_day(o, truth, d)
            results[(person, seed)] = {"week": week, "first": first, "truth": truth}
            wk_ok = sum(v["ok"] for v in week.values()); wk_tot = sum(v["tot"] for v in week.values())
            fd = "  ".join(f"{k[5:]} {100*v['ok']/v['tot']:.1f}%" for k, v in first.items())
            print(f"{person:7s} s{seed}  week {100*wk_ok/wk_tot:.1f}%   first days: {fd}", flush=True)
    # ---- report
    rep = []
    rep.append("person  seed | first weekday | first Saturday | week  | slots drawn/truth (week)")
    tot_ok = tot_n = 0
    per_person = collections.defaultdict(lambda: [0, 0])
    for (person, seed), r in results.items():
        f = list(r["first"].items())
        wk_ok = sum(v["ok"] for v in r["week"].values()); wk_tot = sum(v["tot"] for v in r["week"].values())
        ns = sum(v["nslots"] for v in r["week"].values()); nt = sum(v["ntruth"] for v in r["week"].values())
        per_person[person][0] += wk_ok; per_person[person][1] += wk_tot
        tot_ok += wk_ok; tot_n += wk_tot
        rep.append(f"{person:7s} {seed}    | {f[0][0][5:]} {100*f[0][1]['ok']/f[0][1]['tot']:5.1f} | {100*f[1][1]['ok']/f[1][1]['tot']:5.1f}          | {100*wk_ok/wk_tot:5.1f} | {ns}/{nt}")
    for p, (o, n) in per_person.items():
        rep.append(f"week {p}: {100*o/n:.1f}%")
    rep.append(f"week overall: {100*tot_ok/tot_n:.1f}%")
    firsts = [100 * v["ok"] / v["tot"] for r in results.values() for v in r["first"].values()]
    rep.append(f"first days: {sum(firsts)/len(firsts):.1f}% on average, lowest {min(firsts):.1f}%")
    # biggest mistakes per person (week + first days)
    for person in a.people.split(","):
        for part in ("first", "week"):
            c = collections.Counter()
            runs = []
            for (p, seed), r in results.items():
                if p != person:
                    continue
                for d, v in r[part].items():
                    c.update(v["conf"])
                    runs += [(seed, d, k, s, e) for (k, s, e) in v["runs"]]
            rep.append(f"-- {person} {part}: wrong minutes by (truth stretch -> drawn): " + ", ".join(f"{k[0]}->{k[1]} {m}" for k, m in c.most_common(8)))
            runs.sort(key=lambda x: -(x[4] - x[3]).total_seconds())
            for (seed, d, k, s, e) in runs[:6]:
                rep.append(f"   s{seed} {s.strftime('%a %m-%d %H:%M')}-{e.strftime('%H:%M')} {k[0]} (accept {'/'.join(k[1])}) drawn {k[2]} ({int((e-s).total_seconds()//60)} min)")
    # failure families
    rep.append("-- failure families (minutes; all seeds)")
    fam = collections.Counter()
    ex = {}
    for (p, seed), r in results.items():
        for part in ("first", "week"):
            for d, v in r[part].items():
                for (k, s, e) in v["runs"]:
                    lab, acc, cat = k
                    m = int((e - s).total_seconds() // 60)
                    key = None
                    if lab in ("evening", "before-shift", "afternoon", "home", "leisure", "homework") and cat == "sleep" and s.hour >= 17:
                        key = "a evening->sleep"
                    elif lab == "cafe-lunch" and cat == "work":
                        key = "b cafe->work"
                    elif "work" in acc and cat == "family":
                        key = "c work/school->family"
                    elif lab == "gym" and cat == "leisure":
                        key = "d gym->leisure"
                    if key:
                        fam[(key, part, p)] += m
                        if m > ex.get((key, part, p), (0,))[0]:
                            ex[(key, part, p)] = (m, f"s{seed} {s.strftime('%a %H:%M')}-{e.strftime('%H:%M')} {lab} drawn {cat}")
    # shares: how much of each kind of truth stretch went to the family's wrong label
    kinds = {"a evening->sleep": (lambda s: s["label"] in ("evening", "before-shift", "afternoon", "home", "leisure", "homework") and s["_s"].hour >= 17, "sleep"),
             "b cafe->work": (lambda s: s["label"] == "cafe-lunch", "work"),
             "d gym->leisure": (lambda s: s["label"] == "gym", "leisure")}
    for key, (pred, bad) in kinds.items():
        for part in ("first", "week"):
            n = badm = 0
            for (p, seed), r in results.items():
                for d, v in r[part].items():
                    for s in r["truth"]:
                        if pred(s):
                            dd = date.fromisoformat(d)
                            ds = datetime(dd.year, dd.month, dd.day, tzinfo=TZ); de = ds + timedelta(days=1)
                            n += max(0, (min(s["_e"], de) - max(s["_s"], ds)).total_seconds() / 60)
            badm = sum(m for (k2, part2, p2), m in fam.items() if k2 == key and part2 == part)
            if n:
                rep.append(f"   {key} {part}: {badm} of {int(n)} truth minutes ({100*badm/n:.0f} %)")
    for k, m in sorted(fam.items()):
        rep.append(f"   {k[0]:22s} {k[1]:5s} {k[2]:6s} {m:5d} min; longest: {ex[k][1]}")
    txt = "\n".join(rep)
    print(txt)
    open(os.path.join(a.out, "report.txt"), "w").write(txt + "\n")
    # per-day detail
    with open(os.path.join(a.out, "days.txt"), "w") as f:
        for (p, seed), r in results.items():
            for part in ("first", "week"):
                for d, v in r[part].items():
                    f.write(f"== {p} s{seed} {part} {d}: {100*v['ok']/max(1,v['tot']):.1f}% slots {v['nslots']} truth {v['ntruth']}\n")
                    for sl in v["slots"]:
                        f.write(f"   {sl[0]}-{sl[1]} {sl[2]}\n")
                    dd = date.fromisoformat(d)
                    ds = datetime(dd.year, dd.month, dd.day, tzinfo=TZ); de = ds + timedelta(days=1)
                    f.write("   truth:\n")
                    for s in r["truth"]:
                        if s["_s"] < de and s["_e"] > ds:
                            f.write(f"   {s['_s'].strftime('%a %H:%M')}-{s['_e'].strftime('%H:%M')} {s['label']} {'/'.join(s['accept'])} {s['phone'] or ''}\n")


if __name__ == "__main__":
    main()
