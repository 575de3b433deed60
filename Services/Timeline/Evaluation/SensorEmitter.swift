import GuardianTimeline

/// What a phone reports of a person's life: motion every `spacing` milliseconds (1% `unknown`,
/// and now and then half an hour or so missing in a long stay), a location fix on every
/// significant move with GPS noise, and the odd fix a few hundred metres off during a stay.
struct SensorEmitter {
    var random: SplitMix64
    var spacing: ClosedRange<Int64>
    var motion: [MotionEvent] = []
    var locations: [LocationEvent] = []
    var lastFix: GeoPoint?

    init(seed: UInt64, spacing: ClosedRange<Int64>) {
        random = SplitMix64(seed: seed)
        self.spacing = spacing
    }

    mutating func emit(_ piece: LifePiece) {
        guard !piece.phoneOff else {
            lastFix = nil
            return
        }
        let activity: MotionActivity
        var silent: Range<Int64>?
        switch piece.motion {
        case .stay(let place):
            activity = .stationary
            if lastFix.map({ place.distance(to: $0) > 200 }) ?? true {
                fix(at: min(piece.start + Int64.random(in: 30_000...150_000, using: &random), piece.end - 1), place)
            }
            let minutes = (piece.end - piece.start) / 60_000
            if minutes > 90, chance(0.15) {
                let from = piece.start + Int64.random(in: 20...(minutes - 60), using: &random) * 60_000
                silent = from..<(from + Int64.random(in: 20...50, using: &random) * 60_000)
            }
            if minutes > 30, chance(0.1) {
                let at = piece.start + Int64.random(in: 5...(minutes - 10), using: &random) * 60_000
                fix(at: at, place.moved(east: Double.random(in: 150...400, using: &random), north: Double.random(in: -300...300, using: &random)))
                fix(at: at + Int64.random(in: 2...5, using: &random) * 60_000, place)
            }
        case .move(let moving, let from, let to):
            activity = moving
            if lastFix == nil { fix(at: piece.start, from) }
            for (fraction, point) in from.waypoints(to: to, every: 600) {
                fix(at: piece.start + Int64(Double(piece.end - piece.start) * fraction), point)
            }
        }
        var time = piece.start
        while time < piece.end {
            if silent?.contains(time) != true {
                motion.append(MotionEvent(timestamp: time, activity: chance(0.01) ? .unknown : activity))
            }
            time += Int64.random(in: spacing, using: &random)
        }
    }

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }

    /// A fix near `point` (GPS noise up to about 40 m).
    mutating func fix(at time: Int64, _ point: GeoPoint) {
        let noisy = point.moved(east: Double.random(in: -40...40, using: &random), north: Double.random(in: -40...40, using: &random))
        locations.append(LocationEvent(timestamp: time, location: noisy))
        lastFix = point
    }
}
