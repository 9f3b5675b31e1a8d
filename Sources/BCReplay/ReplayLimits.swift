/// What the replay server tolerates from its clients, so that its memory stays bounded whatever they do: a
/// client that does not read, one that subscribes to key after key, thousands of keys from many clients.
public struct ReplayLimits: Hashable, Sendable {
    /// Bytes queued for one subscriber past which its channel's playback waits for it to read.
    public var sendQueueHighWater: Int
    /// A subscriber that stays over `sendQueueHighWater` this long is closed (1008, "not reading"), and the
    /// channel plays on for the others.
    public var stalledSubscriberTimeout: Duration
    /// Bytes queued for one client past which it is closed at once (1008), whatever sent them (`push`, ACKs).
    public var maxQueuedBytes: Int
    /// Distinct keys one connection may subscribe to over its life; the next `SUB` gets `ERR` and a close.
    public var maxKeysPerConnection: Int
    /// Channels the server keeps at once; a `SUB` that would open one more gets `ERR` and a close.
    public var maxChannels: Int
    /// How long a channel with no subscriber left keeps its place, so that a client that drops and comes
    /// back resumes where it left; after that the channel is forgotten and a new `SUB` starts from the top.
    public var resumeGrace: Duration
    /// Entries of `ReplayServer.activity` held for a reader that is behind (a slow terminal): past it new
    /// entries are counted, not held, and one `.skipped(count)` says how many once there is room again.
    public var maxPendingActivity: Int

    /// Limits that any client within reason stays under: 256 KiB queued before the playback waits, 8 MiB before a
    /// close, 16 keys per connection, 10,000 channels.
    public init(sendQueueHighWater: Int = 256 * 1024, stalledSubscriberTimeout: Duration = .seconds(10),
                maxQueuedBytes: Int = 8 << 20, maxKeysPerConnection: Int = 16, maxChannels: Int = 10_000,
                resumeGrace: Duration = .seconds(60), maxPendingActivity: Int = 10_000) {
        self.sendQueueHighWater = sendQueueHighWater
        self.stalledSubscriberTimeout = stalledSubscriberTimeout
        self.maxQueuedBytes = maxQueuedBytes
        self.maxKeysPerConnection = maxKeysPerConnection
        self.maxChannels = maxChannels
        self.resumeGrace = resumeGrace
        self.maxPendingActivity = maxPendingActivity
    }
}
