import BCListener
import Foundation

/// The process's open-file limit, raised for many connections.
enum DescriptorLimit {
    /// Raises the soft limit on open files to cover `needed` descriptors, up to the hard limit; an error naming
    /// both when even the hard limit is too low.
    static func ensure(_ needed: Int) throws(ChannelKeys.Problem) {
        let hard = raise(toward: needed)
        if hard < needed {
            throw ChannelKeys.Problem(description: "following these channels needs about \(needed) open files; this "
                + "process may open \(hard) (the hard limit, `ulimit -Hn`): raise it, or split the keys "
                + "over several processes")
        }
    }

    /// Raises the soft limit on open files to `needed`, or to the hard limit if that is lower; returns the hard
    /// limit (`Int.max` when it cannot be read).
    @discardableResult
    static func raise(toward needed: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int.max }
        let hard = Int(clamping: limit.rlim_max)
        if limit.rlim_cur >= rlim_t(needed) { return hard }
        var wanted = limit
        wanted.rlim_cur = min(limit.rlim_max, rlim_t(needed))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &wanted)
        return hard
    }
}
