extension Duration {
    /// The duration in seconds, as a `Double`.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The duration for a person, rounded to what a person reads: `"250 ms"`, `"3.2 s"`, `"10 s"`,
    /// `"2 min 5 s"`.
    package var spoken: String {
        let seconds = max(self.seconds, 0)
        if seconds < 0.9995 {
            return "\(Int((seconds * 1000).rounded())) ms"
        }
        if seconds < 59.95 {
            let tenths = Int((seconds * 10).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
        }
        let total = Int(seconds.rounded())
        return total % 60 == 0 ? "\(total / 60) min" : "\(total / 60) min \(total % 60) s"
    }
}
