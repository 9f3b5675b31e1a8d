import Dispatch
import Foundation

/// Runs `body` so that Ctrl-C (SIGINT) or SIGTERM cancels it instead of killing the process: a listener then
/// closes its connections with a close frame, a replay server says goodbye to its clients, and the summary
/// is still printed. A second signal, while the first is being handled, ends the process at once.
func cancellingOnInterrupt<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let task = Task { try await body() }
    let signals = [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            if task.isCancelled { exit(130) }
            task.cancel()
        }
        source.resume()
        return source
    }
    defer {
        for source in signals { source.cancel() }
    }
    return try await task.value
}
