import Foundation

/// The process's open-file limit, raised for many connections.
enum DescriptorLimit {
    /// Raises the soft limit on open files to cover `needed` descriptors, up to the hard limit; an error naming
    /// both when even the hard limit is too low.
    static func ensure(_ needed: Int) throws(ChannelKeys.Problem) {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        if limit.rlim_cur >= rlim_t(needed) { return }
        let raised = min(limit.rlim_max, rlim_t(needed))
        var wanted = limit
        wanted.rlim_cur = raised
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &wanted)
        if raised < rlim_t(needed) {
            throw ChannelKeys.Problem(description: "following these channels needs about \(needed) open files; this "
                + "process may open \(limit.rlim_max) (the hard limit, `ulimit -Hn`): raise it, or split the keys "
                + "over several processes")
        }
    }
}
