/// A run of consecutive annotated events (indices `first...last`) treated as one.
struct Span: Sendable, Hashable {
    /// What a pass looks at: the activity (of the first event) and the duration.
    struct Shape: Sendable, Hashable, Codable {
        var activity: MotionActivity
        var duration: Int64
    }

    var first: Int
    var last: Int
    var start: Int64
    var end: Int64
    var activity: MotionActivity

    var shape: Shape { Shape(activity: activity, duration: end - start) }

    mutating func absorb(_ next: Span) {
        last = next.last
        end = next.end
    }
}

/// The spans entering each pass (`stages[k]` is the input of pass `k`) and, last, the result.
struct Segmentation: Sendable {
    var stages: [[Span]]
    var spans: [Span] { stages[stages.count - 1] }

    /// The span of pass `k`'s input that ends just before event `index`, if any survived.
    func span(endingBefore index: Int, stage k: Int) -> Span? {
        let spans = stages[k]
        var low = 0, high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].first < index { low = mid + 1 } else { high = mid }
        }
        guard low > 0, spans[low - 1].last == index - 1 else { return nil }
        return spans[low - 1]
    }
}

/// Runs the segmentation passes in order over annotated events.
struct Segmenter: Sendable {
    var passes: [SegmentationPass]

    func run(_ events: [AnnotatedEvent]) -> Segmentation {
        var current = events.indices.map {
            Span(first: $0, last: $0, start: events[$0].start, end: events[$0].end, activity: events[$0].activity)
        }
        var stages = [current]
        stages.reserveCapacity(passes.count + 1)
        for pass in passes {
            current = apply(pass, to: current)
            stages.append(current)
        }
        return Segmentation(stages: stages)
    }

    func apply(_ pass: SegmentationPass, to spans: [Span]) -> [Span] {
        var output: [Span] = []
        output.reserveCapacity(spans.count)
        switch pass.kind {
        case .merge:
            for (index, span) in spans.enumerated() {
                if index > 0, pass.joins(spans[index - 1].shape, span.shape) {
                    output[output.count - 1].absorb(span)
                } else {
                    output.append(span)
                }
            }
        case .drop:
            for span in spans {
                if pass.removes(span.shape) {
                    if !output.isEmpty { output[output.count - 1].absorb(span) }
                } else {
                    output.append(span)
                }
            }
        }
        return output
    }

    /// Whether segmenting a timeline whole gives the slots of its events before an anchor
    /// followed by `tail`, the segmentation of its events from the anchor on.
    ///
    /// `before[k]` is the last span of the events before the anchor entering pass `k` when they
    /// are segmented alone. By induction over the passes: while every earlier pass kept the
    /// anchor's span apart, pass `k` sees the two sides' spans side by side, and only the pair
    /// `before[k]`, `tail.stages[k].first` can interact; a merge joins them only if
    /// `joins(before, first)`, and a drop hands the first to the last only if `removes(first)`.
    /// If no pass joins them, every pass acts on each side as it would alone.
    func separates(before: [Span.Shape?], tail: Segmentation) -> Bool {
        guard before.count == passes.count else { return false }
        for (k, pass) in passes.enumerated() {
            guard let first = tail.stages[k].first, first.first == 0 else { return false }
            guard let last = before[k] else { continue }
            switch pass.kind {
            case .merge: if pass.joins(last, first.shape) { return false }
            case .drop: if pass.removes(first.shape) { return false }
            }
        }
        return true
    }
}
