import Foundation
import GuardianTimeline

/// A made-up person with a routine and their own places, for labelled evaluation data.
public struct SyntheticPerson: Sendable, Hashable {
    /// How a person's weeks go.
    public enum Routine: String, Sendable, CaseIterable, Hashable {
        /// Drives to an office on weekdays, lunch out, runs some evenings, a bar some Fridays.
        case officeWorker = "office-worker"
        /// Walks to school on weekdays (school is the child's `work`), football on Wednesdays.
        case schoolChild = "school-child"
        /// Works hospital nights Monday to Thursday (22:00–06:30) and rests at home by day.
        case nightWorker = "night-worker"
        /// Works at home on weekdays (lunch at home, a walk some afternoons), cycles to the gym Monday and Wednesday evenings.
        case homeWorker = "home-worker"
        /// No work: a walk or the shops in the morning, a nap, coffee out some afternoons, family on Wednesdays, early nights.
        case retiree
        /// University at different hours every day (none on Fridays), lunch in the canteen, late nights, a bar on Thursdays.
        case student
        /// Drives a child to school, works part-time, picks the child up and takes them to football on Tuesdays.
        case schoolRunParent = "school-run-parent"
        /// Factory shifts rotating by the week: early (06:00–14:00), late (14:00–22:00), nights (22:00–06:00).
        case shiftWorker = "shift-worker"
        /// An office worker flying to London (an hour behind) for three days of the second week, living on London time there.
        case traveller

        /// The routines measured from the start (what the tests' weeks hold).
        public static let everyday: [Routine] = [.officeWorker, .schoolChild, .nightWorker]
    }

    /// The places a person goes to.
    public enum Place: String, Sendable, CaseIterable, Hashable {
        case home, work, lunch, supermarket, park, family, bar, pitch
        case gym, school, airport, awayAirport, hotel, awayOffice
    }

    public var deviceId: String
    public var routine: Routine
    public var places: [Place: GeoPoint]
    /// At home the phone lies on a table: most walks about the flat are not seen, so an evening
    /// can look as still as the night after it. Half the people of the newer routines; the
    /// `everyday` routines' people keep theirs in a pocket (the tests' weeks stay as they were).
    public var leavesPhoneDown = false
    /// Charges the phone overnight at home: plugged in going to bed, unplugged on getting up.
    /// Half the people of the newer routines (whether or not they leave it on a table).
    public var chargesOvernight = false
    /// For comparison only: the phone shows every walk at home, as a carried one does, even where
    /// the person leaves it on a table (`leavesPhoneDown`). Their days are the same; only what the
    /// phone shows differs, so what is still lost then is the rules', not the phone's.
    public var showsEveryWalk = false

    /// A person of `routine` living somewhere in a 10 km square, with places placed for `seed`.
    public init(deviceId: String, routine: Routine, seed: UInt64) {
        self.deviceId = deviceId
        self.routine = routine
        var random = SplitMix64(seed: seed)
        func around(_ centre: GeoPoint, _ distance: ClosedRange<Double>) -> GeoPoint {
            let metres = Double.random(in: distance, using: &random), angle = Double.random(in: 0..<(2 * .pi), using: &random)
            return centre.moved(east: metres * cos(angle), north: metres * sin(angle))
        }
        let city = GeoPoint(lat: 52.52, lon: 13.405)
        let home = around(city, 0...5_000)
        let work = routine == .schoolChild ? around(home, 700...1_200) : around(home, 3_000...9_000)
        places = [
            .home: home, .work: work, .lunch: around(work, 250...400), .supermarket: around(home, 500...900),
            .park: around(home, 1_200...1_800), .family: around(home, 8_000...15_000), .bar: around(home, 2_000...4_000),
            .pitch: around(home, 1_500...2_500),
        ]
        let london = GeoPoint(lat: 51.5074, lon: -0.1278)
        let hotel = around(london, 0...3_000)
        places[.gym] = around(home, 1_000...2_500)
        places[.school] = around(home, 600...1_200)
        places[.airport] = GeoPoint(lat: 52.3667, lon: 13.5033)
        places[.awayAirport] = GeoPoint(lat: 51.4700, lon: -0.4543)
        places[.hotel] = hotel
        places[.awayOffice] = around(hotel, 1_500...4_000)
        leavesPhoneDown = !Routine.everyday.contains(routine) && Bool.random(using: &random)
        chargesOvernight = !Routine.everyday.contains(routine) && Bool.random(using: &random)
    }

    public subscript(place: Place) -> GeoPoint { places[place]! }
}

extension GeoPoint {
    /// The point `east` and `north` metres away.
    func moved(east: Double, north: Double) -> GeoPoint {
        let metresPerDegree = 111_195.0
        return GeoPoint(lat: lat + north / metresPerDegree, lon: lon + east / (metresPerDegree * cos(lat * .pi / 180)))
    }
}
