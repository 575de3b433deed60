#!/usr/bin/env python3
"""Independent generator of labelled synthetic phone days (Europe/Berlin) for Guardian's timeline.

Three people: office worker ('office'), school child ('child'), night nurse ('nurse').
Writes, per person and seed, a week of events (Mon 2026-03-16 .. Sun 2026-03-22, plus the
Sunday evening before from 18:00) and the truth: stretches with the set of accepted categories.

usage: gen.py PERSON SEED OUTDIR   -> OUTDIR/PERSON-sSEED.events.jsonl, .truth.json
"""
import json, math, random, sys, os
from datetime import datetime, timedelta, date
from zoneinfo import ZoneInfo

TZ = ZoneInfo("Europe/Berlin")
WEEK = date(2026, 3, 16)  # a Monday; no DST change that week
M = timedelta(minutes=1)


def at(d, h, m=0.0):
    return datetime(d.year, d.month, d.day) + timedelta(hours=h, minutes=m)


class Geo:
    def __init__(self, lat0, lon0):
        self.lat0, self.lon0 = lat0, lon0

    def ll(self, p):
        x, y = p
        return (self.lat0 + y / 111_320.0, self.lon0 + x / (111_320.0 * math.cos(math.radians(self.lat0))))


def ring(rng, center, rmin, rmax):
    a = rng.uniform(0, 2 * math.pi)
    r = rng.uniform(rmin, rmax)
    return (center[0] + r * math.cos(a), center[1] + r * math.sin(a))


class Seg:
    def __init__(self, kind, start, end, truth, label, place=None, legs=None, mode=None):
        self.kind, self.start, self.end = kind, start, end
        self.truth, self.label = sorted(truth), label
        self.place, self.legs, self.mode = place, legs, mode


class Plan:
    """Continuous plan: stays at places and travels between them."""

    def __init__(self, rng, start, place):
        self.rng, self.t, self.place, self.segs = rng, start, place, []

    def stay(self, until, kind, truth, label, mode=None):
        if until <= self.t:
            return
        self.segs.append(Seg(kind, self.t, until, truth, label, place=self.place, mode=mode))
        self.t = until

    def travel(self, dest, legs, truth, label):
        """legs: list of (activity_mode, minutes, waypoint_or_None); last waypoint = dest."""
        start = self.t
        cur = self.place
        out = []
        for i, (mode, mins, wp) in enumerate(legs):
            end_pt = dest if i == len(legs) - 1 else (wp if wp is not None else cur)
            out.append((mode, self.t, self.t + timedelta(minutes=mins), cur, end_pt))
            self.t += timedelta(minutes=mins)
            cur = end_pt
        self.segs.append(Seg("travel", start, self.t, truth, label, legs=out))
        self.place = dest


# ---------------------------------------------------------------- motion / location synthesis

def bouts(rng, s, e, mean_gap, dur, act="walking", conf=("medium", "high"), first=None):
    """Random short activity bouts inside [s, e): list of (start, end, act, conf)."""
    out = []
    t = s + timedelta(minutes=first if first is not None else rng.expovariate(1 / mean_gap))
    while t < e:
        d = timedelta(minutes=rng.uniform(*dur))
        out.append((t, min(t + d, e), act, rng.choice(conf)))
        t = t + d + timedelta(minutes=rng.expovariate(1 / mean_gap))
    return out


def stay_motion(rng, seg, person):
    """Motion intervals for a stay (default stationary) and extra location-quality hints."""
    s, e, k = seg.start, seg.end, seg.kind
    mins = (e - s).total_seconds() / 60
    iv = []
    if k == "sleep":
        if mins > 240 and rng.random() < 0.3:  # bathroom
            t = s + timedelta(minutes=rng.uniform(60, mins - 60))
            iv.append((t, t + timedelta(minutes=rng.uniform(1, 3)), "walking", "medium"))
    elif k == "home":
        carried = seg.mode == "carried"
        mg = 35 if carried else 160
        first = None
        if getattr(seg, "after_sleep", False):  # getting up (a carried phone at once, one on a table when picked up)
            first = rng.uniform(0, 4) if carried else rng.uniform(5, 40)
        elif seg.label.startswith("arrive"):
            first = None
        iv += bouts(rng, s, e, mg, (1, 4), first=first)
        if carried and getattr(seg, "tobed", False):  # a carried phone goes to bed with its person
            t = e - timedelta(minutes=rng.uniform(1, 4))
            iv.append((t, e, "walking", "high"))
    elif k == "desk":
        iv += bouts(rng, s, e, 75, (1, 5))
        iv += bouts(rng, s, e, 180, (0.5, 1.5), conf=("low",))  # flicker
    elif k == "school":
        iv += bouts(rng, s, e, 100, (1, 4))  # changing rooms with the bag
        iv += bouts(rng, s, e, 200, (0.5, 1.5), conf=("low",))
    elif k == "ward":
        # a night nurse walks the ward; quieter in the small hours
        for (a, b, act, c) in bouts(rng, s, e, 25, (2, 8)):
            h = a.hour
            if 1 <= h < 5 and rng.random() < 0.5:
                continue
            iv.append((a, b, act, c))
    elif k in ("cafe", "visit"):
        iv += bouts(rng, s, e, 90 if k == "visit" else 120, (0.5, 2), conf=("low", "medium"))
    elif k == "gym":
        iv += bouts(rng, s, e, 7, (1, 3))
        if rng.random() < 0.5:
            t = s + timedelta(minutes=rng.uniform(5, max(6, mins - 30)))
            iv.append((t, t + timedelta(minutes=rng.uniform(10, 20)), "running", "high"))
    elif k == "shop":
        iv += bouts(rng, s, e, 1.5, (1, 4), first=0.2)
    elif k == "park":
        iv += bouts(rng, s, e, 12, (8, 25), first=0.5)
    elif k == "pitch":
        if seg.mode != "bag":
            iv += bouts(rng, s, e, 4, (2, 8), act="running", conf=("medium", "high"))
            iv += bouts(rng, s, e, 6, (1, 3))
    elif k == "outing":
        iv += bouts(rng, s, e, 8, (5, 20), first=0.5)
    iv = [x for x in iv if x[0] < e]
    iv.sort()
    return iv


def travel_motion(rng, leg):
    mode, s, e, a, b = leg
    iv = []
    if mode == "walk":
        iv.append((s, e, "walking", "high"))
    elif mode == "wait":
        iv.append((s, e, "stationary", "medium"))
    elif mode == "bike":
        t = s
        while t < e:
            d = timedelta(minutes=rng.uniform(2, 6))
            r = rng.random()
            if r < 0.65:
                iv.append((t, min(e, t + d), "cycling", rng.choice(["low", "medium", "medium", "high"])))
            elif r < 0.78:
                iv.append((t, min(e, t + d), "automotive", "low"))  # misread
            elif r < 0.88:
                iv.append((t, min(e, t + timedelta(minutes=1)), "stationary", "medium"))  # lights
            else:
                iv.append((t, min(e, t + d), "unknown", "low"))
            t += d
    elif mode in ("car", "train"):
        t = s
        while t < e:
            d = timedelta(minutes=rng.uniform(2, 7) if mode == "car" else rng.uniform(2, 4))
            iv.append((t, min(e, t + d), "automotive", rng.choice(["medium", "high", "high"])))
            t += d
            if t < e and rng.random() < (0.45 if mode == "car" else 0.7):
                d2 = timedelta(minutes=rng.uniform(0.5, 2))
                iv.append((t, min(e, t + d2), "stationary", rng.choice(["low", "medium"])))  # lights / stations
                t += d2
    return iv


def path_point(rng, a, b, f, bend):
    # a bent path (streets): through a midpoint offset sideways by `bend` metres
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    L = math.hypot(dx, dy) or 1
    mx += -dy / L * bend
    my += dx / L * bend
    if f < 0.5:
        g = f * 2
        return (a[0] + (mx - a[0]) * g, a[1] + (my - a[1]) * g)
    g = (f - 0.5) * 2
    return (mx + (b[0] - mx) * g, my + (b[1] - my) * g)


def jitter(rng, p, indoor):
    if indoor and rng.random() < 0.12:
        acc = rng.uniform(80, 220)
    elif indoor:
        acc = rng.uniform(10, 50)
    else:
        acc = rng.uniform(5, 30)
    r = abs(rng.gauss(0, acc * 0.6))
    a = rng.uniform(0, 2 * math.pi)
    return (p[0] + r * math.cos(a), p[1] + r * math.sin(a)), round(acc)


def synthesize(rng, plan, geo, charger_nights, gaps):
    """Turn the plan into CoreLocation / CoreMotion-like events."""
    motion = []  # (start, end, act, conf), to be flattened
    locs = []  # (t, lat, lon, acc, speed)
    for seg in plan.segs:
        if seg.kind == "travel":
            for leg in seg.legs:
                mode, s, e, a, b = leg
                for iv in travel_motion(rng, leg):
                    motion.append(iv)
                dist = math.hypot(b[0] - a[0], b[1] - a[1])
                bend = rng.uniform(-0.15, 0.15) * dist
                spd = dist / max(1, (e - s).total_seconds())
                t = s
                while t <= e:
                    f = (t - s) / (e - s) if e > s else 1
                    p, acc = jitter(rng, path_point(rng, a, b, f, bend), False)
                    locs.append((t, p, acc, spd if mode != "wait" else 0))
                    t += timedelta(minutes=rng.uniform(1, 5))
        else:
            motion.append((seg.start, seg.end, "stationary", "high"))
            motion += stay_motion(rng, seg, None)
            indoor = seg.kind not in ("park", "pitch", "outing")
            t = seg.start + timedelta(minutes=rng.uniform(0, 3))
            while t < seg.end:
                p, acc = jitter(rng, seg.place, indoor)
                locs.append((t, p, acc, None))
                t += timedelta(minutes=rng.uniform(10, 60) if seg.kind not in ("park", "outing", "shop") else rng.uniform(3, 10))
    # flatten motion: a per-30s timeline where later (more specific) intervals win over the base
    start = plan.segs[0].start
    end = plan.segs[-1].end
    step = timedelta(seconds=30)
    n = int((end - start) / step)
    acts = [("stationary", "high")] * n
    for iv in sorted(motion, key=lambda x: -(x[1] - x[0]).total_seconds()):
        i0 = max(0, int((iv[0] - start) / step))
        i1 = min(n, int(math.ceil((iv[1] - start) / step)))
        for i in range(i0, i1):
            acts[i] = (iv[2], iv[3])
    events = []
    prev = None
    last_emit = None
    for i in range(n):
        t = start + i * step
        a = acts[i]
        if a != prev:
            events.append((t, {"activity": a[0], "confidence": a[1]}))
            last_emit = t
        elif a[0] == "stationary" and t - last_emit > timedelta(minutes=rng.uniform(90, 240)):
            # CoreMotion re-reports the same activity when its confidence changes
            events.append((t, {"activity": "stationary", "confidence": rng.choice(["medium", "high"])}))
            last_emit = t
        prev = a
    for (t, p, acc, spd) in locs:
        lat, lon = geo.ll(p)
        d = {"lat": round(lat, 6), "lon": round(lon, 6), "acc": acc}
        if spd is not None and spd > 0:
            d["speed"] = round(max(0, spd + rng.gauss(0, 0.5)), 1)
        events.append((t, d))
    for (a, b) in charger_nights:
        events.append((a, {"batteryState": "charging", "batteryLevel": round(rng.uniform(0.1, 0.5), 2)}))
        events.append((b, {"batteryState": "unplugged", "batteryLevel": 1.0}))
    # gaps: nothing at all; when data resumes, the current activity is reported again half the time
    kept = []
    for (t, d) in events:
        if any(g0 <= t < g1 for g0, g1 in gaps):
            continue
        kept.append((t, d))
    for g0, g1 in gaps:
        i = int((g1 - start) / step)
        if 0 <= i < n and rng.random() < 0.5:
            kept.append((g1, {"activity": acts[i][0], "confidence": acts[i][1]}))
    kept.sort(key=lambda x: x[0])
    return kept


# ---------------------------------------------------------------- people

SLEEP = {"sleep"}
MORNING = {"food", "family", "leisure"}
EVENING = {"leisure", "family"}
DINNER = {"food", "family"}
COMMUTE = {"commute"}


def u(rng, a, b):
    return rng.uniform(a, b)


def home_mode(rng, p_carried):
    return "carried" if rng.random() < p_carried else "table"


def office(rng, seed):
    geo = Geo(52.5405 + rng.uniform(-0.005, 0.005), 13.4120 + rng.uniform(-0.005, 0.005))
    home = (0, 0)
    office_p = (5200 + u(rng, -300, 300), -2600 + u(rng, -300, 300))
    cafe = ring(rng, office_p, 150, 300)
    gym = ring(rng, home, 1000, 2000)
    market = ring(rng, home, 500, 900)
    park = ring(rng, home, 1200, 1800)
    family = ring(rng, home, 9500, 10500)
    st_home = ring(rng, home, 400, 600)
    st_off = ring(rng, office_p, 300, 500)
    bike_days = rng.random() < 0.5  # cycles when the weather is fine
    p_carried = [0.7, 0.4, 0.15][seed % 3]
    gym_days = rng.sample([0, 1, 2, 3], 2)
    gym_days = [d if d != 4 else 3 for d in gym_days]
    cafe_days = set(rng.sample(range(5), rng.choice([3, 4, 4, 5])))
    start = at(WEEK - timedelta(days=1), 18)
    P = Plan(rng, start, home)
    nights = []
    bed = at(WEEK - timedelta(days=1), 23, u(rng, -30, 30))
    P.stay(at(WEEK - timedelta(days=1), 19, u(rng, 0, 20)), "home", EVENING, "evening", home_mode(rng, p_carried))
    P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", DINNER, "dinner", home_mode(rng, p_carried))
    P.stay(bed, "home", EVENING, "evening", home_mode(rng, p_carried))
    P.segs[-1].tobed = True
    for di in range(7):
        d = WEEK + timedelta(days=di)
        wd = di < 5
        if wd:
            wake = at(d, 6, u(rng, 30, 75))
        else:
            wake = at(d, 8, u(rng, 0, 90))
        nights.append((P.t, wake))
        P.stay(wake, "sleep", SLEEP, "sleep")
        if wd:
            leave = at(d, 7, u(rng, 45, 60)) if wake.hour < 7 else wake + timedelta(minutes=u(rng, 40, 50))
            P.stay(leave, "home", MORNING, "morning", home_mode(rng, p_carried))
            bike = rng.random() < (0.8 if bike_days else 0.2)
            if bike:
                legs = [("walk", u(rng, 1, 2), None), ("bike", u(rng, 24, 32), None)]
            else:
                legs = [("walk", u(rng, 6, 8), st_home), ("wait", u(rng, 2, 5), st_home), ("train", u(rng, 16, 22), st_off), ("walk", u(rng, 5, 7), None)]
            P.travel(office_p, legs, COMMUTE, "commute")
            lunch = at(d, 12, u(rng, 0, 45))
            P.stay(lunch, "desk", {"work"}, "work")
            if di in cafe_days:
                w = u(rng, 3, 5)
                P.travel(cafe, [("walk", w, None)], {"commute", "food"}, "walk-to-lunch")
                P.stay(P.t + timedelta(minutes=u(rng, 20, 40)), "cafe", {"food"}, "cafe-lunch")
                P.travel(office_p, [("walk", w, None)], {"commute", "food"}, "walk-from-lunch")
            else:
                P.stay(P.t + timedelta(minutes=u(rng, 20, 30)), "desk", {"food", "work"}, "desk-lunch")
            P.stay(at(d, 17, u(rng, 20, 50)), "desk", {"work"}, "work")
            if bike:
                legs = [("walk", u(rng, 1, 2), None), ("bike", u(rng, 25, 35), None)]
            else:
                legs = [("walk", u(rng, 5, 7), st_off), ("wait", u(rng, 2, 6), st_off), ("train", u(rng, 16, 22), st_home), ("walk", u(rng, 6, 8), None)]
            P.travel(home, legs, COMMUTE, "commute")
            if di in gym_days:
                P.stay(P.t + timedelta(minutes=u(rng, 20, 40)), "home", EVENING, "evening", home_mode(rng, p_carried))
                if rng.random() < 0.5:
                    P.travel(gym, [("walk", u(rng, 14, 22), None)], {"commute", "exercise"}, "to-gym")
                else:
                    P.travel(gym, [("walk", 1, None), ("car", u(rng, 5, 8), None), ("walk", 1, None)], {"commute", "exercise"}, "to-gym")
                P.stay(P.t + timedelta(minutes=u(rng, 55, 70)), "gym", {"exercise"}, "gym")
                back = P.segs[-2].legs
                P.travel(home, [(m, (e - s).total_seconds() / 60, None) for (m, s, e, a, b) in back], {"commute", "exercise"}, "from-gym")
                P.stay(P.t + timedelta(minutes=u(rng, 5, 15)), "home", EVENING, "evening", home_mode(rng, p_carried))
                P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", DINNER, "dinner", home_mode(rng, p_carried))
            else:
                P.stay(at(d, 19, u(rng, -10, 30)), "home", EVENING, "evening", home_mode(rng, p_carried))
                P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", DINNER, "dinner", home_mode(rng, p_carried))
            bed = at(d, 22, u(rng, 30, 90))
            P.stay(bed, "home", EVENING, "evening", home_mode(rng, p_carried))
            P.segs[-1].tobed = True
        elif di == 5:  # Saturday
            P.stay(wake + timedelta(minutes=u(rng, 50, 80)), "home", MORNING, "late-breakfast", home_mode(rng, p_carried))
            P.stay(P.t + timedelta(minutes=u(rng, 20, 60)), "home", EVENING, "morning-home", home_mode(rng, p_carried))
            walk = rng.random() < 0.6
            mk = (lambda: [("walk", u(rng, 7, 12), None)]) if walk else (lambda: [("walk", 1, None), ("car", u(rng, 4, 7), None), ("walk", 1, None)])
            P.travel(market, mk(), {"commute", "shopping"}, "to-shop")
            P.stay(P.t + timedelta(minutes=u(rng, 25, 45)), "shop", {"shopping"}, "supermarket")
            P.travel(home, mk(), {"commute", "shopping"}, "from-shop")
            P.stay(at(d, 13, u(rng, 0, 30)), "home", EVENING, "home", home_mode(rng, p_carried))
            P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", DINNER, "lunch", home_mode(rng, p_carried))
            if rng.random() < 0.5:
                P.travel(park, [("walk", u(rng, 18, 25), None)], {"commute", "leisure"}, "to-park")
                P.stay(P.t + timedelta(minutes=u(rng, 90, 150)), "park", {"leisure", "exercise", "family"}, "park")
                P.travel(home, [("walk", u(rng, 18, 25), None)], {"commute", "leisure"}, "from-park")
            else:
                P.travel(family, [("walk", u(rng, 5, 8), st_home), ("wait", u(rng, 2, 6), st_home), ("train", u(rng, 22, 30), None), ("walk", u(rng, 5, 8), None)], COMMUTE, "to-family")
                P.stay(P.t + timedelta(minutes=u(rng, 150, 210)), "visit", {"family", "leisure", "food"}, "family-visit")
                P.travel(home, [("walk", u(rng, 5, 8), st_home), ("wait", u(rng, 2, 6), st_home), ("train", u(rng, 22, 30), None), ("walk", u(rng, 5, 8), None)], COMMUTE, "from-family")
            P.stay(max(P.t + timedelta(minutes=20), at(d, 19, u(rng, 0, 30))), "home", EVENING, "evening", home_mode(rng, p_carried))
            P.stay(P.t + timedelta(minutes=u(rng, 35, 50)), "home", DINNER, "dinner", home_mode(rng, p_carried))
            P.stay(at(d, 23, u(rng, 0, 60)), "home", EVENING, "evening", home_mode(rng, p_carried))
            P.segs[-1].tobed = True
        else:  # Sunday
            P.stay(wake + timedelta(minutes=u(rng, 50, 80)), "home", MORNING, "late-breakfast", home_mode(rng, p_carried))
            P.stay(at(d, 13, u(rng, 0, 30)), "home", EVENING, "home", home_mode(rng, p_carried))
            P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", DINNER, "lunch", home_mode(rng, p_carried))
            P.stay(at(d, 15, u(rng, 0, 30)), "home", EVENING, "home", home_mode(rng, p_carried))
            P.travel(park, [("walk", u(rng, 18, 25), None)], {"commute", "leisure"}, "to-park")
            P.stay(P.t + timedelta(minutes=u(rng, 40, 80)), "park", {"leisure", "exercise", "family"}, "park")
            P.travel(home, [("walk", u(rng, 18, 25), None)], {"commute", "leisure"}, "from-park")
            P.stay(at(d, 18, u(rng, 45, 75)), "home", EVENING, "evening", home_mode(rng, p_carried))
            P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", DINNER, "dinner", home_mode(rng, p_carried))
            P.stay(at(d, 22, u(rng, 30, 75)), "home", EVENING, "evening", home_mode(rng, p_carried))
            P.segs[-1].tobed = True
    P.stay(at(WEEK + timedelta(days=7), 6, 0), "sleep", SLEEP, "sleep")
    return geo, P, nights


def child(rng, seed):
    geo = Geo(52.4870 + rng.uniform(-0.005, 0.005), 13.4250 + rng.uniform(-0.005, 0.005))
    home = (0, 0)
    school = ring(rng, home, 800, 1200)
    pitch = ring(rng, home, 1800, 2500)
    outing = ring(rng, home, 5000, 8000)
    grand = ring(rng, home, 6000, 9000)
    p_carried = [0.7, 0.45, 0.2][seed % 3]
    bag = rng.random() < 0.6
    start = at(WEEK - timedelta(days=1), 18)
    P = Plan(rng, start, home)
    nights = []
    P.stay(at(WEEK - timedelta(days=1), 18, u(rng, 20, 40)), "home", EVENING, "evening", home_mode(rng, p_carried))
    P.stay(P.t + timedelta(minutes=u(rng, 25, 40)), "home", DINNER, "dinner", home_mode(rng, p_carried))
    P.stay(at(WEEK - timedelta(days=1), 21, u(rng, -10, 20)), "home", EVENING, "evening", home_mode(rng, p_carried))
    P.segs[-1].tobed = True
    for di in range(7):
        d = WEEK + timedelta(days=di)
        wd = di < 5
        wake = at(d, 7, u(rng, -10, 8)) if wd else at(d, 8, u(rng, -30, 40))
        nights.append((P.t, wake))
        P.stay(wake, "sleep", SLEEP, "sleep")
        if wd:
            walk = u(rng, 10, 15)
            P.stay(at(d, 7, 55) - timedelta(minutes=walk + u(rng, 1, 4)), "home", MORNING, "morning", home_mode(rng, p_carried))
            P.travel(school, [("walk", walk, None)], COMMUTE, "to-school")
            lunch = at(d, 12, u(rng, 15, 45))
            P.stay(lunch, "school", {"work"}, "school")
            P.stay(P.t + timedelta(minutes=u(rng, 25, 35)), "school", {"work", "food"}, "school-lunch")
            P.stay(at(d, 16, u(rng, 25, 40)), "school", {"work"}, "school")
            P.travel(home, [("walk", u(rng, 12, 18), None)], COMMUTE, "from-school")
            P.stay(P.t + timedelta(minutes=u(rng, 60, 90)), "home", {"work", "leisure", "family"}, "homework")
            P.stay(at(d, 18, u(rng, 20, 40)), "home", EVENING, "leisure", home_mode(rng, p_carried))
            P.stay(P.t + timedelta(minutes=u(rng, 25, 40)), "home", DINNER, "dinner", home_mode(rng, p_carried))
            P.stay(at(d, 21, u(rng, -10, 20)), "home", EVENING, "evening", home_mode(rng, p_carried))
            P.segs[-1].tobed = True
            if P.segs[-6].mode is None:
                P.segs[-6].mode = home_mode(rng, p_carried)
        elif di == 5:  # Saturday: football, family outing
            P.stay(at(d, 9, u(rng, 20, 30)), "home", MORNING, "breakfast", home_mode(rng, p_carried))
            car = rng.random() < 0.5
            legs = (lambda: [("walk", 1, None), ("car", u(rng, 7, 10), None), ("walk", 1, None)]) if car else (lambda: [("walk", 2, None), ("bike", u(rng, 10, 14), None)])
            P.travel(pitch, legs(), COMMUTE, "to-football")
            P.stay(at(d, 11, 30), "pitch", {"exercise"}, "football", "bag" if bag else "pocket")
            P.travel(home, legs(), COMMUTE, "from-football")
            P.stay(at(d, 12, u(rng, 30, 50)), "home", EVENING, "home", home_mode(rng, p_carried))
            P.stay(P.t + timedelta(minutes=u(rng, 25, 40)), "home", DINNER, "lunch", home_mode(rng, p_carried))
            P.stay(at(d, 14, u(rng, 0, 30)), "home", EVENING, "home", home_mode(rng, p_carried))
            P.travel(outing, [("walk", 1, None), ("car", u(rng, 18, 25), None), ("walk", u(rng, 2, 4), None)], COMMUTE, "to-outing")
            P.stay(P.t + timedelta(minutes=u(rng, 120, 180)), "outing", {"family", "leisure"}, "family-outing")
            P.travel(home, [("walk", u(rng, 2, 4), None), ("car", u(rng, 18, 25), None), ("walk", 1, None)], COMMUTE, "from-outing")
            P.stay(max(P.t + timedelta(minutes=15), at(d, 18, u(rng, 30, 50))), "home", EVENING, "evening", home_mode(rng, p_carried))
            P.stay(P.t + timedelta(minutes=u(rng, 25, 40)), "home", DINNER, "dinner", home_mode(rng, p_carried))
            P.stay(at(d, 21, u(rng, 15, 45)), "home", EVENING, "evening", home_mode(rng, p_carried))
            P.segs[-1].tobed = True
        else:  # Sunday: grandparents for lunch
            P.stay(at(d, 9, u(rng, 20, 40)), "home", MORNING, "breakfast", home_mode(rng, p_carried))
            P.stay(at(d, 11, u(rng, 0, 30)), "home", EVENING, "home", home_mode(rng, p_carried))
            P.travel(grand, [("walk", 1, None), ("car", u(rng, 18, 25), None), ("walk", 1, None)], COMMUTE, "to-grandparents")
            P.stay(P.t + timedelta(minutes=u(rng, 180, 240)), "visit", {"family", "food", "leisure"}, "grandparents")
            P.travel(home, [("walk", 1, None), ("car", u(rng, 18, 25), None), ("walk", 1, None)], COMMUTE, "from-grandparents")
            P.stay(at(d, 18, u(rng, 20, 40)), "home", EVENING, "evening", home_mode(rng, p_carried))
            P.stay(P.t + timedelta(minutes=u(rng, 25, 40)), "home", DINNER, "dinner", home_mode(rng, p_carried))
            P.stay(at(d, 21, u(rng, -10, 15)), "home", EVENING, "evening", home_mode(rng, p_carried))
            P.segs[-1].tobed = True
    P.stay(at(WEEK + timedelta(days=7), 6, 0), "sleep", SLEEP, "sleep")
    for s in P.segs:
        if s.kind == "home" and s.mode is None:
            s.mode = home_mode(rng, p_carried)
    return geo, P, nights


def nurse(rng, seed):
    geo = Geo(52.5000 + rng.uniform(-0.005, 0.005), 13.3000 + rng.uniform(-0.005, 0.005))
    home = (0, 0)
    hosp = ring(rng, home, 4700, 5300)
    market = ring(rng, home, 600, 1000)
    park = ring(rng, home, 1000, 1600)
    p_carried = [0.7, 0.4, 0.15][seed % 3]
    # nights worked: the night starting on day index i (Sun before = -1)
    patterns = [[0, 1, 3, 4], [-1, 0, 1], [2, 3, 4, 5], [0, 1, 2], [3, 4, 5, 6]]
    shifts = set(patterns[rng.randrange(len(patterns))])
    start = at(WEEK - timedelta(days=1), 18)
    P = Plan(rng, start, home)
    nights = []

    def drive(dest, label="commute"):
        P.travel(dest, [("walk", u(rng, 1, 2), None), ("car", u(rng, 13, 18), None), ("walk", u(rng, 1, 3), None)], COMMUTE, label)

    def evening_to_shift(d):
        leave = at(d, 19, u(rng, 30, 40))
        P.stay(leave, "home", EVENING, "before-shift", home_mode(rng, p_carried))
        drive(hosp)
        P.stay(at(d + timedelta(days=1), 7, u(rng, 30, 40)), "ward", {"work"}, "night-shift")

    d0 = WEEK - timedelta(days=1)
    if -1 in shifts:
        P.stay(at(d0, 18, u(rng, 30, 50)), "home", DINNER, "dinner", home_mode(rng, p_carried))
        evening_to_shift(d0)
    else:
        P.stay(at(d0, 19, u(rng, 0, 20)), "home", EVENING, "evening", home_mode(rng, p_carried))
        P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", DINNER, "dinner", home_mode(rng, p_carried))
        P.stay(at(d0, 23, u(rng, -20, 40)), "home", EVENING, "evening", home_mode(rng, p_carried))
        P.segs[-1].tobed = True
    for di in range(7):
        d = WEEK + timedelta(days=di)
        worked_last = (di - 1) in shifts
        works = di in shifts
        if worked_last:
            drive(home)
            P.stay(at(d, 8, u(rng, 20, 40)), "home", MORNING, "after-shift", home_mode(rng, p_carried))
            wake = at(d, 14, u(rng, 45, 75))
            nights.append((P.t, wake))
            P.stay(wake, "sleep", SLEEP, "day-sleep")
            if works:
                P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", MORNING, "after-sleep", home_mode(rng, p_carried))
                P.stay(at(d, 18, u(rng, 0, 20)), "home", EVENING, "afternoon", home_mode(rng, p_carried))
                P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", DINNER, "dinner", home_mode(rng, p_carried))
                evening_to_shift(d)
            else:
                P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", MORNING, "after-sleep", home_mode(rng, p_carried))
                P.stay(at(d, 16, u(rng, 30, 60)), "home", EVENING, "afternoon", home_mode(rng, p_carried))
                mk = lambda: [("walk", u(rng, 9, 14), None)]
                P.travel(market, mk(), {"commute", "shopping"}, "to-shop")
                P.stay(P.t + timedelta(minutes=u(rng, 20, 40)), "shop", {"shopping"}, "supermarket")
                P.travel(home, mk(), {"commute", "shopping"}, "from-shop")
                P.stay(at(d, 19, u(rng, 0, 30)), "home", EVENING, "evening", home_mode(rng, p_carried))
                P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", DINNER, "dinner", home_mode(rng, p_carried))
                P.stay(at(d, 23, u(rng, 30, 90)), "home", EVENING, "evening", home_mode(rng, p_carried))
                P.segs[-1].tobed = True
        else:
            wake = at(d, 8, u(rng, 0, 75)) if not (di - 2) in shifts else at(d, 8, u(rng, 30, 100))
            nights.append((P.t, wake))
            P.stay(wake, "sleep", SLEEP, "sleep")
            P.stay(P.t + timedelta(minutes=u(rng, 40, 60)), "home", MORNING, "breakfast", home_mode(rng, p_carried))
            P.stay(at(d, 10, u(rng, 30, 60)), "home", EVENING, "home", home_mode(rng, p_carried))
            if rng.random() < 0.6:
                P.travel(park, [("walk", u(rng, 12, 20), None)], {"commute", "leisure"}, "to-park")
                P.stay(P.t + timedelta(minutes=u(rng, 40, 80)), "park", {"leisure", "exercise"}, "park")
                P.travel(home, [("walk", u(rng, 12, 20), None)], {"commute", "leisure"}, "from-park")
            else:
                mk = lambda: [("walk", u(rng, 9, 14), None)]
                P.travel(market, mk(), {"commute", "shopping"}, "to-shop")
                P.stay(P.t + timedelta(minutes=u(rng, 20, 40)), "shop", {"shopping"}, "supermarket")
                P.travel(home, mk(), {"commute", "shopping"}, "from-shop")
            P.stay(at(d, 12, u(rng, 45, 75)), "home", EVENING, "home", home_mode(rng, p_carried))
            P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", DINNER, "lunch", home_mode(rng, p_carried))
            if works:
                P.stay(at(d, 14, u(rng, 0, 30)), "home", EVENING, "home", home_mode(rng, p_carried))
                P.stay(at(d, 17, u(rng, 0, 20)), "sleep", SLEEP, "nap")
                P.stay(at(d, 18, u(rng, 20, 40)), "home", EVENING, "afternoon", home_mode(rng, p_carried))
                P.stay(P.t + timedelta(minutes=u(rng, 30, 40)), "home", DINNER, "dinner", home_mode(rng, p_carried))
                evening_to_shift(d)
            else:
                P.stay(at(d, 19, u(rng, 0, 30)), "home", EVENING, "home", home_mode(rng, p_carried))
                P.stay(P.t + timedelta(minutes=u(rng, 30, 45)), "home", DINNER, "dinner", home_mode(rng, p_carried))
                P.stay(at(d, 23, u(rng, -15, 60)), "home", EVENING, "evening", home_mode(rng, p_carried))
                P.segs[-1].tobed = True
    if P.segs[-1].kind == "ward":
        drive(home)
    P.stay(max(P.t + timedelta(hours=1), at(WEEK + timedelta(days=7), 8, 0)), "sleep", SLEEP, "sleep")
    return geo, P, nights


PEOPLE = {"office": office, "child": child, "nurse": nurse}


def generate(person, seed):
    rng = random.Random(f"{person}-{seed}")
    geo, P, nights = PEOPLE[person](rng, seed)
    # the wake walk after a night: first bout at the start of the next home stay is handled in stay_motion
    # charger: seed 1 and 2 put the phone on the charger most nights (seed 0's app records no battery state)
    charger = []
    if seed % 3 != 0:
        for (a, b) in nights:
            if rng.random() < 0.7:
                charger.append((a - timedelta(minutes=u(rng, 0, 5)), b + timedelta(minutes=u(rng, 0, 20))))
    # gaps: on about half of the days one stretch of 20-90 min with no data at all
    gaps = []
    for di in range(7):
        if rng.random() < 0.5:
            g0 = at(WEEK + timedelta(days=di), u(rng, 7, 22))
            gaps.append((g0, g0 + timedelta(minutes=u(rng, 20, 90))))
    for a, b in zip(P.segs, P.segs[1:]):
        if b.kind == "sleep" and a.kind == "home":
            a.tobed = True
        if a.kind == "sleep" and b.kind == "home":
            b.after_sleep = True
    ev = synthesize(rng, P, geo, charger, gaps)
    # a carried phone is walked to bed: add the walk at the end of "tobed" evenings (done here, cheap)
    truth = [{"start": s.start.replace(tzinfo=TZ).isoformat(), "end": s.end.replace(tzinfo=TZ).isoformat(),
              "accept": s.truth, "label": s.label, "kind": s.kind, "phone": s.mode} for s in P.segs]
    return ev, truth, gaps


def main():
    person, seed, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(out, exist_ok=True)
    ev, truth, gaps = generate(person, seed)
    base = os.path.join(out, f"{person}-s{seed}")
    with open(base + ".events.jsonl", "w") as f:
        for t, d in ev:
            o = {"ts": t.replace(tzinfo=TZ).isoformat(timespec="seconds")}
            o.update(d)
            f.write(json.dumps(o) + "\n")
    with open(base + ".truth.json", "w") as f:
        json.dump({"person": person, "seed": seed, "truth": truth,
                   "gaps": [[a.replace(tzinfo=TZ).isoformat(), b.replace(tzinfo=TZ).isoformat()] for a, b in gaps]}, f, indent=1)
    print(base, len(ev), "events")


if __name__ == "__main__":
    main()
