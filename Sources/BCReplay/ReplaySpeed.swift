import Foundation
/// How fast a recording plays: its recorded pace times a factor, or as fast as the subscriber takes it.
public enum ReplaySpeed: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The recorded pace multiplied by the factor: `2` plays twice as fast, `0.5` at half speed. A factor
    /// that is not a positive finite number plays like `max`.
    case times(Double)
    /// No pause at all between the frames of a recording.
    case max

    /// The recorded pace.
    public static let recorded = ReplaySpeed.times(1)

    /// Reads `--speed`: `max`, or a positive factor such as `2`, `0.5` or `2x`. Nil for anything else.
    public init?(_ text: String) {
        let word = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if word == "max" {
            self = .max
            return
        }
        guard let factor = Double(word.hasSuffix("x") ? String(word.dropLast()) : word),
              factor.isFinite, factor > 0
        else { return nil }
        self = .times(factor)
    }

    /// A recorded pause at this speed.
    public func scale(_ pause: Duration) -> Duration {
        guard case .times(let factor) = self, factor.isFinite, factor > 0 else { return .zero }
        return pause / factor
    }

    public var description: String {
        switch self {
        case .times(let factor): factor == factor.rounded() && abs(factor) < 1e15 ? "\(Int(factor))x" : "\(factor)x"
        case .max: "max"
        }
    }
}
