/// What the phone's motion coprocessor said the person was doing, as the contract's `motion.activity`.
public enum MotionActivity: String, Sendable, Codable, CaseIterable, Hashable {
    case stationary, walking, running, cycling, automotive, unknown
}
