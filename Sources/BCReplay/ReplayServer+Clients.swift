import BCListener
import BCWebSocket

/// The replay server's side of its clients: their commands (`PING`, `SUB` with a checked key), the limits that
/// close them, and what happens to a channel when they come and go.
extension ReplayServer {
    // MARK: - Clients

    func handle(_ event: WebSocketServerEvent) {
        switch event {
        case .connected(let client):
            clients[client] = Subscriber()
        case .disconnected(let client):
            let key = forget(client)?.key
            departureWaiters.removeValue(forKey: client)?.resume()
            log(.left(client, key: key))
            if let key { left(key) }
        case .binary(let client, let bytes):
            log(.unknownCommand(client, "a binary message of \(bytes.count) bytes"))
        case .refused(let client, let message):
            log(.refused(client, message.description))
        case .abandoned(let peer, let after):
            log(.abandoned(peer: peer, after: after))
        case .drained(let client):
            clients[client]?.fullSince = nil
            if let key = clients[client]?.key {
                roomWakeCauses += 1
                wakeRoomWaiters(of: key)
            }
        case .text(let client, let text):
            for line in BCSVRLine.lines(in: text) { command(String(line), from: client) }
        }
    }

    func command(_ line: String, from client: ClientID) {
        guard var subscriber = clients[client], !subscriber.stalled else { return }
        if line == "PING" || line.hasPrefix("PING\t") {
            // Echo the word like the other service of this family does: `PING\tword` → `ACK\tword`.
            server.send("ACK" + line.dropFirst(4), to: client)
        } else if line.hasPrefix("SUB\t") {
            // A key is checked as every key is (`ChannelKey`): one with a TAB, a control or a bidi character is
            // answered `ERR` and not subscribed; the log shows it escaped and bounded.
            let key: String
            do {
                key = try ChannelKey(String(line.dropFirst(4))).text
            } catch {
                server.send("ERR\tSUB: \(error)", to: client)
                log(.badKey(client, String(line.dropFirst(4)), error))
                return
            }
            if !subscriber.keys.contains(key), subscriber.keys.count >= limits.maxKeysPerConnection {
                refuse(client, "more than \(limits.maxKeysPerConnection) keys on one connection")
                return
            }
            if playbacks[key] == nil, schedule != nil, playbacks.count >= limits.maxChannels {
                refuse(client, "the server holds \(limits.maxChannels) channels already")
                return
            }
            subscriber.keys.insert(key)
            clients[client] = subscriber
            let previous = subscribe(client, to: key)
            log(.subscribed(client, key: key))
            if let previous, previous != key { left(previous) }
            subscribed(key, client: client)
        } else {
            log(.unknownCommand(client, line))
        }
    }

    /// Says why in an `ERR` line, then closes (1008): the client broke a limit. A client that does not read
    /// would never get the line: it is closed at once, its queue dropped.
    func refuse(_ client: ClientID, _ why: String, reading: Bool = true) {
        if reading { server.send("ERR\t\(why)", to: client) }
        server.close(client, code: 1008, reason: String(why.prefix(100)), discardingQueued: !reading)
        // Forgotten at once: whatever else it sent (100,000 more SUBs, say) is not heard, nor logged.
        if let key = forget(client)?.key { left(key) }
        log(.refused(client, why))
    }

    /// A subscriber of `key` left it. Once nobody is left, the channel waits `resumeGrace` for one to come back,
    /// then is forgotten.
    func left(_ key: String) {
        roomWakeCauses += 1
        wakeRoomWaiters(of: key)
        guard !hasAnySubscriber(key), playbacks[key] != nil, releases[key] == nil else { return }
        let grace = limits.resumeGrace
        releases[key] = Task {
            try? await Task.sleep(for: grace)
            if !Task.isCancelled { self.release(key) }
        }
    }

    func release(_ key: String) {
        releases[key] = nil
        guard !hasAnySubscriber(key) else { return }
        playbacks.removeValue(forKey: key)?.cancel()
        for waiter in subscriberWaiters.removeValue(forKey: key) ?? [] { waiter.resume() }
        for waiter in roomWaiters.removeValue(forKey: key) ?? [] { waiter.resume() }
        log(.released(key: key))
        stoppedPlaying(key)
    }

    func hasAnySubscriber(_ key: String) -> Bool {
        subscribers[key]?.isEmpty == false
    }

    /// Sets the key `client` listens to (`nil`: none), keeping `subscribers` in step; returns the one before.
    @discardableResult
    func subscribe(_ client: ClientID, to key: String?) -> String? {
        let previous = clients[client]?.key
        guard clients[client] != nil, previous != key else { return previous }
        clients[client]?.key = key
        if let previous { removeSubscriber(client, of: previous) }
        if let key { subscribers[key, default: []].insert(client) }
        return previous
    }

    /// Removes `client`, and its place among its key's subscribers; returns what it was.
    func forget(_ client: ClientID) -> Subscriber? {
        guard let subscriber = clients.removeValue(forKey: client) else { return nil }
        if let key = subscriber.key { removeSubscriber(client, of: key) }
        return subscriber
    }

    private func removeSubscriber(_ client: ClientID, of key: String) {
        subscribers[key]?.remove(client)
        if subscribers[key]?.isEmpty == true { subscribers[key] = nil }
    }

    func subscribed(_ key: String, client: ClientID) {
        releases.removeValue(forKey: key)?.cancel()
        for waiter in subscriberWaiters.removeValue(forKey: key) ?? [] { waiter.resume() }
        guard playbacks[key] == nil, let schedule else { return }
        playing.insert(key)
        guard let bytes = faults.oversizedBytes else {
            playbacks[key] = Task { await self.play(schedule, on: key) }
            return
        }
        server.send("MSG\t\(key)\t\(ReplayFaults.oversizedMessage(bytes: bytes))", to: client,
                    fragments: faults.fragments)
        log(.fault(client, "sent one message of \(bytes) bytes"))
        // A client whose limit is lower closes now; what the playback sent it meanwhile would be lost. So the
        // playback waits for that client to leave (at most two seconds, for a client that takes the message).
        playbacks[key] = Task {
            await self.waitForDeparture(of: client, atMost: .seconds(2))
            await self.play(schedule, on: key)
        }
    }

    func waitForDeparture(of client: ClientID, atMost limit: Duration) async {
        guard clients[client] != nil else { return }
        let timeout = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self.departureWaiters.removeValue(forKey: client)?.resume()
        }
        await withCheckedContinuation { departureWaiters[client] = $0 }
        timeout.cancel()
    }

    func hasSubscribers(_ key: String) -> Bool {
        (subscribers[key] ?? []).contains { clients[$0]?.stalled == false }
    }
}
