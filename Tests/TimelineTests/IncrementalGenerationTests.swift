import Foundation
@testable import GuardianTimeline
import GuardianTimelineEvaluation
import Testing

@Suite("incremental generation")
struct IncrementalGenerationTests {
    let week = SyntheticMonth(firstDay: "2026-03-23", days: 7, seed: 7)
    let generator = TimelineGenerator()

    /// One motion event at each change of activity, `minutes` after `start`.
    func changes(from start: Int64, _ changes: [(minutes: Double, activity: MotionActivity)]) -> [MotionEvent] {
        changes.map { MotionEvent(timestamp: start + Int64($0.minutes * 60_000), activity: $0.activity) }
    }

    /// Generates at each of `instants` from the previous state, as the service would.
    func generate(at instants: [Int64], fallbacks: inout Int, generator: TimelineGenerator = TimelineGenerator()) -> TimelineState {
        var state = TimelineState()
        for instant in instants {
            let (motion, locations) = known(week, at: instant, from: state.resumeFrom)
            if let update = generator.update(state, motion: motion, locations: locations, until: instant) {
                if state.anchor != nil { #expect(update.changedFrom == state.resumeFrom) }
                state = update.state
            } else {
                fallbacks += 1
                let (all, allLocations) = known(week, at: instant)
                state = generator.rebuild(motion: all, locations: allLocations, until: instant, previous: state).state
            }
        }
        return state
    }

    @Test("random splits of a generated week give the slots of a full rebuild, at every step; also cut by local time (nights, meals, working hours)",
          arguments: [nil, TimeZone(identifier: "Europe/Berlin")])
    func randomSplits(timeZone: TimeZone?) {
        let generator = TimelineGenerator(timeZone: timeZone)
        var random = SplitMix64(seed: 2026)
        var fallbacks = 0, generations = 0
        for _ in 0..<12 {
            var instants = (0..<Int.random(in: 1...40, using: &random)).map { _ in Int64.random(in: week.start...week.end, using: &random) }.sorted()
            instants.append(week.end)
            generations += instants.count
            let incremental = generate(at: instants, fallbacks: &fallbacks, generator: generator)
            let (motion, locations) = known(week, at: week.end)
            let full = generator.rebuild(motion: motion, locations: locations, until: week.end).state
            #expect(incremental.slots == full.slots)
            #expect(incremental.slots.count > 100)
        }
        print("incremental generation: \(generations) generations, \(fallbacks) fell back to a rebuild")
        #expect(fallbacks == 0)
    }

    @Test("with a fix astray (300 m east) a minute after each one followed by none for five minutes, and one back at its place a minute later, every intermediate state still equals the full rebuild")
    func everyStepWithStrayFixes() {
        var locations = week.locations
        for (fix, next) in zip(week.locations, week.locations.dropFirst()) where next.timestamp - fix.timestamp >= 5 * minute {
            locations.append(LocationEvent(timestamp: fix.timestamp + minute, location: GeoPoint(lat: fix.location.lat, lon: fix.location.lon + 300 / 67_700.0)))
            locations.append(LocationEvent(timestamp: fix.timestamp + 2 * minute, location: fix.location))
        }
        locations.sort { $0.timestamp < $1.timestamp }
        let dropped = locations.count - TimelineGenerator.placing(locations, motion: week.motion).count
        #expect(dropped > 10, "strays in stillness dropped: \(dropped)")
        var random = SplitMix64(seed: 5)
        var state = TimelineState()
        var instant = week.start
        while instant < week.end {
            instant = min(instant + Int64.random(in: 10 * minute...(9 * 60 * minute), using: &random), week.end)
            let (motion, fixes) = known(motion: week.motion, locations: locations, at: instant, from: state.resumeFrom)
            let update = try! #require(generator.update(state, motion: motion, locations: fixes, until: instant))
            state = update.state
            let (all, allLocations) = known(motion: week.motion, locations: locations, at: instant)
            #expect(state.spans == generator.rebuild(motion: all, locations: allLocations, until: instant).state.spans)
        }
    }

    @Test("every intermediate state equals the full rebuild at that instant; the tail stays short")
    func everyStep() {
        var random = SplitMix64(seed: 11)
        var state = TimelineState()
        var instant = week.start
        var tails: [Int] = []
        while instant < week.end {
            instant = min(instant + Int64.random(in: 10 * minute...(9 * 60 * minute), using: &random), week.end)
            let (motion, locations) = known(week, at: instant, from: state.resumeFrom)
            tails.append(motion.count)
            let update = try! #require(generator.update(state, motion: motion, locations: locations, until: instant))
            state = update.state
            let (all, allLocations) = known(week, at: instant)
            #expect(state.spans == generator.rebuild(motion: all, locations: allLocations, until: instant).state.spans)
        }
        #expect(tails.dropFirst(8).allSatisfy { $0 < week.motion.count / 3 })
    }

    @Test("late events after the anchor are re-segmented; ones that break it make update ask for a rebuild")
    func lateEvents() throws {
        let start: Int64 = 1_000_000_000_000
        func at(_ minutes: Double) -> Int64 { start + Int64(minutes * 60_000) }
        let motion = changes(from: start, [
            (0, .stationary), (300, .walking), (310, .stationary), (800, .walking), (806, .automotive), (840, .stationary),
            (1000, .walking), (1010, .stationary),
        ])
        let first = generator.rebuild(motion: motion, locations: [], until: at(1400)).state
        #expect(first.slots.count == 8)
        // The latest slot start at least 6 hours before the end with two slots after it.
        let anchor = try #require(first.resumeFrom)
        #expect(anchor == at(840))

        // A walk that arrives late, an hour after the anchor: the update re-segments it.
        let late = motion + [MotionEvent(timestamp: at(900), activity: .walking), MotionEvent(timestamp: at(908), activity: .stationary)]
        let update = try #require(generator.update(first, motion: late.filter { $0.timestamp >= anchor }, locations: [], until: at(1400)))
        #expect(update.state.spans == generator.rebuild(motion: late, locations: [], until: at(1400)).state.spans)
        #expect(update.state.slots.contains { $0.start == at(900) })

        // A walk two minutes into the anchor's stay leaves a stay too short to stand alone (it
        // joins the drive before): the timeline no longer splits at the anchor.
        let breaking = motion + [MotionEvent(timestamp: at(842), activity: .walking)]
        #expect(generator.update(first, motion: breaking.filter { $0.timestamp >= anchor }, locations: [], until: at(1400)) == nil)
        let rebuilt = generator.rebuild(motion: breaking, locations: [], until: at(1400), previous: first).state
        #expect(!rebuilt.slots.contains { $0.start == anchor })

        // Two drives of 45 and 200 minutes stay apart (one is over an hour); a late walk 50
        // minutes into the second makes both shorter than an hour, and the merge pass joins them.
        // (Two stays would not do: a stay going on a stillness is never the anchor.)
        let stays = [
            MotionEvent(timestamp: at(0), activity: .automotive), MotionEvent(timestamp: at(45), activity: .automotive),
            MotionEvent(timestamp: at(245), activity: .walking), MotionEvent(timestamp: at(255), activity: .stationary),
            MotionEvent(timestamp: at(600), activity: .walking), MotionEvent(timestamp: at(610), activity: .stationary),
        ]
        let patient = TimelineGenerator(anchorMargin: 900 * minute)
        let second = patient.rebuild(motion: stays, locations: [], until: at(1000)).state
        #expect(second.resumeFrom == at(45))
        let joining = stays + [MotionEvent(timestamp: at(95), activity: .walking), MotionEvent(timestamp: at(105), activity: .stationary)]
        #expect(patient.update(second, motion: joining.filter { $0.timestamp >= at(45) }, locations: [], until: at(1000)) == nil)
        #expect(patient.rebuild(motion: joining, locations: [], until: at(1000)).state.slots.map(\.start) == [at(0), at(95), at(105), at(245), at(255), at(600), at(610)])
    }

    @Test("a stay just arrived at is never the anchor: dinner on coming home is cut the same generating on as rebuilding")
    func arrivalIsNoAnchor() throws {
        let start = utc("2026-11-18 00:00:00")
        func at(_ minutes: Double) -> Int64 { start + Int64(minutes * 60_000) }
        // Home, to the gym by bike at 17:55, home again at 19:21, walks about the flat at 21:00 and 22:00.
        let motion = changes(from: start, [
            (0, .stationary), (1075, .walking), (1077, .cycling), (1089, .stationary), (1143, .walking), (1145, .cycling),
            (1161, .stationary), (1260, .walking), (1265, .stationary), (1320, .walking), (1325, .stationary),
        ]) + stride(from: 1330.0, to: 1700, by: 10).map { MotionEvent(timestamp: at($0), activity: .stationary) }
        let local = TimelineGenerator(timeZone: TimeZone(identifier: "UTC")!)
        let first = local.rebuild(motion: motion.filter { $0.timestamp <= at(1600) }, locations: [], until: at(1600)).state
        #expect(first.slots.contains { $0.start == at(1161) } && first.slots.contains { $0.start == at(1196) })
        let anchor = try #require(first.resumeFrom)
        #expect(anchor < at(1161))
        let update = try #require(local.update(first, motion: motion.filter { $0.timestamp >= anchor }, locations: [], until: at(1700)))
        #expect(update.state.slots == local.rebuild(motion: motion, locations: [], until: at(1700)).state.slots)
    }

    @Test("the last slot is extended while it continues; edits survive re-segmentation")
    func extendAndKeepEdits() throws {
        let start: Int64 = 1_000_000_000_000
        func at(_ minutes: Double) -> Int64 { start + Int64(minutes * 60_000) }
        let motion = [
            MotionEvent(timestamp: at(0), activity: .stationary), MotionEvent(timestamp: at(480), activity: .walking),
            MotionEvent(timestamp: at(490), activity: .automotive),
        ] + stride(from: 520.0, to: 600, by: 10).map { MotionEvent(timestamp: at($0), activity: .stationary) }
        var state = generator.rebuild(motion: motion, locations: [], until: at(600)).state
        #expect(state.slots.map(\.start) == [at(0), at(480), at(490), at(520)])
        state.slots[3].category = .work
        state.slots[3].confidence = 1
        state.slots[3].edited = true
        let more = motion + stride(from: 600.0, to: 900, by: 10).map { MotionEvent(timestamp: at($0), activity: .stationary) }
        let update = try #require(generator.update(state, motion: more.filter { $0.timestamp >= (state.resumeFrom ?? .min) }, locations: [], until: at(900)))
        #expect(update.state.slots.count == 4)
        #expect(update.state.slots[3] == state.slots[3])
        #expect(update.state.spans[3].end == at(900))
    }
}
