import BCListener
import Foundation

/// `listen <user page> --wait [--follow-next]`: polls the streamer's profile (`PollSchedule`: interval with
/// jitter, back-off after failures) until they go live, follows that live to its end, and with `followNext`
/// waits for the next one, for ever. Each poll and its outcome is a line on stderr.
public struct StreamerWatch: Sendable {
    /// Where the profile and the live's info are read.
    public let directory: LiveDirectory
    /// The streamer watched.
    public let userID: String
    /// After a live, wait for the next one (for ever) rather than return.
    public let followNext: Bool
    /// When the profile is checked.
    public let schedule: PollSchedule

    /// A watch of `userID`'s profile in `directory`, checked on `schedule`.
    public init(directory: LiveDirectory, userID: String, followNext: Bool, schedule: PollSchedule) {
        self.directory = directory
        self.userID = userID
        self.followNext = followNext
        self.schedule = schedule
    }

    /// Returns the exit status: 0 after a live was followed (without --follow-next), 1 when that session
    /// failed, or the status of an API failure that waiting cannot cure (401, 404, an unusable answer).
    /// Cancellation (Ctrl-C) ends it with 0.
    public func run(follow: @Sendable (LiveInfo) async -> Bool) async -> Int32 {
        let status = StatusLine()
        var failures = 0
        /// The live just followed: the profile may still name it for a while after it ended.
        var followed: String?
        status.note("watching user \(userID): their profile is checked every \(Self.spoken(schedule.interval)), ±20%")
        while !Task.isCancelled {
            var liveToFollow: LiveInfo?
            do throws(LiveDirectoryError) {
                let streamer = try await directory.streamerStatus(userID: userID)
                failures = 0
                if let liveID = streamer.liveID, liveID != followed {
                    do throws(LiveDirectoryError) {
                        liveToFollow = try await directory.liveInfo(liveID: liveID)
                    } catch .liveEnded, .livePrivate {
                        followed = liveID  // not one to follow; wait for the next
                    }
                }
            } catch {
                guard error.isTransient else {
                    status.note(error.description)
                    return ListenExitStatus.of(error)
                }
                failures += 1
                status.note("\(error.description) (failure \(failures) in a row)")
            }
            if let info = liveToFollow {
                followed = info.liveID
                status.note("user \(userID) is live: following live \(info.liveID)")
                let failed = await follow(info)
                guard followNext else { return failed ? 1 : 0 }
                if Task.isCancelled { break }
                status.note("live \(info.liveID) is over; waiting for user \(userID)'s next live")
                continue
            }
            let delay = schedule.delay(afterFailures: failures)
            let next = Date().addingTimeInterval(Double(delay.components.seconds)
                + Double(delay.components.attoseconds) / 1e18)
            status.note("waiting for user \(userID) to go live; next check at \(Self.clock(next)) "
                + "(in \(Self.spoken(delay)))")
            do {
                try await Task.sleep(for: delay)
            } catch {
                break
            }
        }
        return 0
    }

    private static func spoken(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 10 ? String(format: "%.1f s", seconds) : "\(Int(seconds.rounded())) s"
    }

    private static func clock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }
}
