import Foundation

/// Makes a `posix_spawn` child start with only the descriptors its file actions set up (0, 1, 2): every other
/// one open in this process now is closed in the child. A tmux server started by a test lives on as a daemon,
/// and would otherwise hold other tests' pipes open (their reads never see EOF) for as long as it runs.
/// (`posix_spawn_file_actions_addclosefrom_np` would do it in one call, but Swift's Glibc does not export it.)
func closeInheritedDescriptors(in actions: inout posix_spawn_file_actions_t) {
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for name in open {
        guard let descriptor = Int32(name), descriptor > 2 else { continue }
        posix_spawn_file_actions_addclose(&actions, descriptor)
    }
}
