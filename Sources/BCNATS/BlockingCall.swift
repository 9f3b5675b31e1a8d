import Dispatch

/// nats.c's calls that wait for the server (connect, a JetStream publish until its ack, a fetch, stream
/// administration) block their thread for up to their timeout. They must never run on Swift's cooperative pool,
/// whose few threads every task shares: each runs on this queue's threads instead, and the awaiting task is
/// resumed when it returns. Such a call cannot be cancelled; its own timeout bounds it.
enum BlockingCall {
    private static let queue = DispatchQueue(label: "bcstream.nats.blocking", attributes: .concurrent)

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws(NATSError) -> T) async throws(NATSError) -> T {
        let result: Result<T, NATSError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(NATSError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
