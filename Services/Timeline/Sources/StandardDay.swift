/// The built-in week the classifier starts from before the user has labelled anything: slots
/// most people share. The user's labelled slots outnumber it within days and override it
/// where their habits differ.
public struct StandardDay: Sendable, Hashable {
    public enum Days: Sendable, Hashable {
        case everyDay, weekdays, weekend, saturday, sunday

        var weekdays: [Int] {
            switch self {
            case .everyDay: Array(0..<7)
            case .weekdays: Array(0..<5)
            case .weekend: [5, 6]
            case .saturday: [5]
            case .sunday: [6]
            }
        }
    }

    /// Where an entry takes place, resolved against the user's `PlaceFrame`; `elsewhere`
    /// (and a place the frame does not know) means no location.
    public enum Place: Sendable, Hashable {
        case home, work, elsewhere
    }

    public struct Entry: Sendable, Hashable {
        public var category: TimelineCategory
        public var days: Days
        /// Local start, minutes after midnight.
        public var start: Int
        public var minutes: Int
        public var activity: MotionActivity
        public var place: Place

        public init(_ category: TimelineCategory, _ days: Days, at start: Int, for minutes: Int, _ activity: MotionActivity, _ place: Place) {
            self.category = category
            self.days = days
            self.start = start
            self.minutes = minutes
            self.activity = activity
            self.place = place
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    public static let standard = StandardDay(entries: [
        // Adults sleep 7–9 hours, most falling asleep between 22:00 and midnight, at home.
        Entry(.sleep, .everyDay, at: 23 * 60, for: 8 * 60, .stationary, .home),
        // A night broken by a short walk (the bathroom) resumes as a second slot after midnight.
        Entry(.sleep, .everyDay, at: 3 * 60, for: 4 * 60, .stationary, .home),
        // Weekends start later.
        Entry(.sleep, .weekend, at: 0, for: 9 * 60, .stationary, .home),
        // Breakfast: a short stay at home after waking.
        Entry(.food, .everyDay, at: 7 * 60, for: 30, .stationary, .home),
        // Lunch: under an hour around 12:30, near work on weekdays, at home at weekends.
        Entry(.food, .weekdays, at: 12 * 60 + 30, for: 45, .stationary, .work),
        Entry(.food, .weekend, at: 13 * 60, for: 60, .stationary, .home),
        // Dinner: under an hour at home in the evening.
        Entry(.food, .everyDay, at: 19 * 60 + 30, for: 45, .stationary, .home),
        // Getting to work and back, in a vehicle, around 08:00 and 17:30.
        Entry(.commute, .weekdays, at: 8 * 60, for: 30, .automotive, .elsewhere),
        Entry(.commute, .weekdays, at: 17 * 60 + 30, for: 30, .automotive, .elsewhere),
        // Driving is usually getting somewhere, at any time.
        Entry(.commute, .everyDay, at: 14 * 60, for: 30, .automotive, .elsewhere),
        // Walking to the next thing: short walks are transport.
        Entry(.commute, .weekdays, at: 8 * 60 + 45, for: 10, .walking, .elsewhere),
        // Working hours on weekdays, split by lunch.
        Entry(.work, .weekdays, at: 9 * 60, for: 3 * 60 + 30, .stationary, .work),
        Entry(.work, .weekdays, at: 13 * 60 + 30, for: 4 * 60, .stationary, .work),
        // Evenings at home are free time.
        Entry(.leisure, .everyDay, at: 20 * 60 + 30, for: 2 * 60 + 30, .stationary, .home),
        // Weekend afternoons: a long walk out.
        Entry(.leisure, .weekend, at: 15 * 60, for: 90, .walking, .elsewhere),
        // Running is exercise whenever it happens; so is a long weekend ride.
        Entry(.exercise, .everyDay, at: 18 * 60 + 30, for: 45, .running, .elsewhere),
        Entry(.exercise, .weekend, at: 10 * 60, for: 90, .cycling, .elsewhere),
        // The weekly shop, on foot in a store, Saturday morning.
        Entry(.shopping, .saturday, at: 10 * 60 + 30, for: 60, .walking, .elsewhere),
        // Seeing family: a long stay away from home at the weekend.
        Entry(.family, .sunday, at: 14 * 60, for: 3 * 60, .stationary, .elsewhere),
    ])

    /// One observation per entry and day it applies to, with its location resolved in `frame`.
    func observations(in frame: PlaceFrame?) -> [(SlotObservation, GeoPoint?, TimelineCategory)] {
        entries.flatMap { entry in
            entry.days.weekdays.map { weekday in
                let location: GeoPoint? = switch entry.place {
                case .home: frame?.home
                case .work: frame?.work
                case .elsewhere: nil
                }
                let observation = SlotObservation(
                    minuteOfDay: Double(entry.start), weekday: weekday, minutes: Double(entry.minutes), activity: entry.activity)
                return (observation, location, entry.category)
            }
        }
    }
}
