import Foundation

/// Labels a device's slots: the user's corrections first (`CorrectionMemory`), then context
/// (`SlotContext.guess`), and for what context leaves open a libsvm C-SVC (RBF kernel,
/// probability estimates) trained on the standard day and the slots the user labelled. One per
/// device; train again after feedback.
///
/// Features (all in [-1, 1]): the local start time and weekday on the unit circle, the duration
/// on a log scale, the location relative to the user's home in a frame scaled to their places
/// (`PlaceFrame`), and the top activity one-hot. Training is deterministic (fixed `srand`).
public final class SlotClassifier: Sendable {
    /// A best category below this probability is published as `unknown`.
    public static let minimumConfidence = 0.5
    static let parameters = SVMModel.Parameters(c: 8, gamma: 1)

    public struct Guess: Sendable, Hashable {
        /// `unknown` when the best category's probability is under `minimumConfidence`.
        public var category: TimelineCategory
        /// The best category's probability.
        public var confidence: Double
        public var best: TimelineCategory
        public var probabilities: [TimelineCategory: Double]
    }

    public let frame: PlaceFrame?
    /// The number of training examples, the standard day's included.
    public let exampleCount: Int
    let model: SVMModel
    let categories: [TimelineCategory]
    /// The person's labelled slots, applied to slots of the same kind before anything else.
    let memory: CorrectionMemory

    init(model: SVMModel, frame: PlaceFrame?, exampleCount: Int, corrections: [LabelledSlot] = []) throws {
        self.model = model
        self.frame = frame
        self.exampleCount = exampleCount
        memory = CorrectionMemory(corrections: corrections)
        categories = try model.labels.map { label in
            guard TimelineCategory.learnable.indices.contains(Int(label)) else { throw SVMError.unreadableModel }
            return TimelineCategory.learnable[Int(label)]
        }
    }

    /// Trains on `standardDay` and `examples` (those labelled `unknown` are ignored). The place
    /// frame is fitted to `places` (every slot of the device, say), or to the examples if empty.
    public static func train(
        examples: [LabelledSlot], places: [SlotSpan] = [], timeZone: TimeZone, standardDay: StandardDay = .standard
    ) throws -> SlotClassifier {
        try train(examples: examples, places: places, timeZone: timeZone, standardDay: standardDay, parameters: parameters)
    }

    static func train(
        examples: [LabelledSlot], places: [SlotSpan], timeZone: TimeZone, standardDay: StandardDay, parameters: SVMModel.Parameters
    ) throws -> SlotClassifier {
        let labelled = examples.filter { $0.category != .unknown }
            .sorted { ($0.start, $0.category.rawValue) < ($1.start, $1.category.rawValue) }
            .map { (SlotObservation(start: $0.start, duration: $0.duration, activity: $0.activity, timeZone: timeZone), $0.location, $0.category) }
        let located = places.isEmpty
            ? labelled.compactMap { observation, location, _ in location.map { (observation, $0) } }
            : places.compactMap { span in
                span.slot.location.map {
                    (SlotObservation(start: span.start, duration: span.duration, activity: span.slot.activity, timeZone: timeZone), $0)
                }
            }
        let frame = PlaceFrame.fit(located)
        let all = standardDay.observations(in: frame) + labelled
        let features = all.map { observation, location, _ in observation.features(location: Self.coordinates(location, frame)) }
        let labels = all.map { Int32(TimelineCategory.learnable.firstIndex(of: $0.2)!) }
        let model = try SVMModel.train(features: features, labels: labels, parameters: parameters)
        let corrections = examples.filter { $0.category != .unknown }.sorted { ($0.start, $0.category.rawValue) < ($1.start, $1.category.rawValue) }
        return try SlotClassifier(model: model, frame: frame, exampleCount: all.count, corrections: corrections)
    }

    static func coordinates(_ location: GeoPoint?, _ frame: PlaceFrame?) -> (Double, Double) {
        frame?.coordinates(of: location) ?? (0, 0)
    }

    public func guess(start: Int64, duration: Int64, activity: MotionActivity, location: GeoPoint?, timeZone: TimeZone) -> Guess {
        let observation = SlotObservation(start: start, duration: duration, activity: activity, timeZone: timeZone)
        let estimates = model.probabilities(observation.features(location: Self.coordinates(location, frame)))
        var probabilities: [TimelineCategory: Double] = [:]
        for (category, probability) in zip(categories, estimates) { probabilities[category] = probability }
        let bestIndex = estimates.indices.max { (estimates[$0], $1) < (estimates[$1], $0) } ?? 0
        let best = categories.isEmpty ? .unknown : categories[bestIndex]
        let confidence = estimates.isEmpty ? 0 : estimates[bestIndex]
        return Guess(
            category: confidence >= Self.minimumConfidence ? best : .unknown, confidence: confidence,
            best: best, probabilities: probabilities)
    }

    public func guess(_ span: SlotSpan, timeZone: TimeZone) -> Guess {
        guess(start: span.start, duration: span.duration, activity: span.slot.activity, location: span.slot.location, timeZone: timeZone)
    }

    /// Labels every slot the user has not edited from `from` on (every slot if `nil`): as the
    /// person labelled the same kind of slot (`CorrectionMemory`), else from context (the
    /// device's places and the neighbouring slots, `SlotContext.guess`), else the SVM's guess.
    /// Gaps in the data stay `unknown`.
    public func label(_ state: TimelineState, from: Int64? = nil, timeZone: TimeZone) -> TimelineState {
        var state = state
        let spans = state.spans
        let places = DevicePlaces.learn(from: spans, timeZone: timeZone)
        let contexts = SlotContext.of(spans, places: places, timeZone: timeZone)
        var fromContext: Set<Int> = []
        for (index, span) in spans.enumerated() where !span.slot.edited && span.start >= (from ?? .min) {
            let labelled: (TimelineCategory, Double)
            let context = span.slot.isGap ? nil : contexts[index].guess
            let machine = span.slot.isGap || context != nil ? nil : guess(span, timeZone: timeZone)
            if span.slot.isGap {
                labelled = (.unknown, 0)
            } else if let corrected = memory.category(for: span, guess: context?.category ?? machine?.category, timeZone: timeZone),
                      corrected.share >= Self.minimumConfidence {
                labelled = (corrected.category, corrected.share)
            } else if let context {
                labelled = context
                fromContext.insert(index)
            } else if let machine {
                labelled = (machine.category, machine.confidence)
            } else {
                labelled = (.unknown, 0)
            }
            (state.slots[index].category, state.slots[index].confidence) = labelled
        }
        for (walk, stay) in Self.movingAbout(spans, contexts) where fromContext.contains(walk) {
            (state.slots[walk].category, state.slots[walk].confidence) = (state.slots[stay].category, state.slots[stay].confidence)
        }
        return state
    }

    struct Stored: Codable {
        var version: Int
        var frame: PlaceFrame?
        var exampleCount: Int
        var model: String
        /// Since version 2.
        var corrections: [LabelledSlot]?
    }

    /// The classifier as bytes to persist (JSON holding libsvm's model text and the place frame).
    public func serialized() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(Stored(
            version: 2, frame: frame, exampleCount: exampleCount, model: String(decoding: model.bytes, as: UTF8.self),
            corrections: memory.corrections))
    }

    public convenience init(serialized: Data) throws {
        let stored = try JSONDecoder().decode(Stored.self, from: serialized)
        guard (1...2).contains(stored.version) else { throw SVMError.unreadableModel }
        try self.init(
            model: SVMModel(bytes: Data(stored.model.utf8)), frame: stored.frame, exampleCount: stored.exampleCount,
            corrections: stored.corrections ?? [])
    }
}
