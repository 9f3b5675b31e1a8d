@testable import BCWebSocket
import Testing

@Suite("The link's pongs, keepalive and close order, without a socket")
struct WebSocketLinkStateMachineTests {
    typealias Machine = WebSocketLinkStateMachine
    private let frame1002 = Machine.CloseFrame(code: 1002, text: "protocol error")

    /// Every write the machine asks for until it has nothing more, with `queued` data frames waiting.
    private func drain(_ machine: inout Machine, queued: Int) -> [Machine.Write] {
        var writes: [Machine.Write] = []
        var queued = queued
        while machine.wantsToWrite(hasQueuedData: queued > 0), writes.count < 100 {
            let write = machine.nextWrite(hasQueuedData: queued > 0)
            if write == .data { queued -= 1 }
            writes.append(write)
            if write == .closeSocket || write == .nothing { break }
        }
        return writes
    }

    @Test("every ping is answered, in order (Autobahn 2.10: ten back to back)", arguments: [1, 2, 10, 32])
    func everyPingAnswered(count: Int) {
        var machine = Machine()
        for index in 0..<count { #expect(machine.pingReceived([UInt8(index)]) == .answer) }
        #expect(drain(&machine, queued: 0) == (0..<count).map { .pong([UInt8($0)]) })
    }

    @Test("a peer that pings past the cap before a pong can go out is flooding; the owed pongs are dropped")
    func pingFlood() {
        var machine = Machine()
        for _ in 0..<Machine.maxOwedPongs { #expect(machine.pingReceived(Array(repeating: 1, count: 125)) == .answer) }
        #expect(machine.owedPongs.count * 125 <= 4096)
        let got1 = machine.pingReceived([])
        #expect(got1 == .flooded)
        #expect(machine.owedPongs.isEmpty)
        // Writing pongs as they come keeps the count low: no flood however many pings.
        var steady = Machine()
        for _ in 0..<1000 {
            let got2 = steady.pingReceived([7])
            #expect(got2 == .answer)
            let got3 = steady.nextWrite(hasQueuedData: false)
            #expect(got3 == .pong([7]))
        }
    }

    @Test("pongs go before a keepalive ping, which goes before data; a close asked for waits for both")
    func writeOrder() {
        var machine = Machine()
        let got1 = machine.keepAliveTick(silence: .seconds(31), pingAfter: .seconds(30), hangUpAfter: .seconds(60))
        #expect(got1 == .ping)
        _ = machine.pingReceived([9])
        machine.requestClose(.init(code: 1000, text: ""), discardingQueued: false)
        #expect(drain(&machine, queued: 2) == [.pong([9]), .ping, .data, .data, .close(.init(code: 1000, text: ""))])
        #expect(machine.closing == .closeSent && machine.closeWritten)
        let got2 = machine.closeReceived(echo: .init(code: 1000, text: ""))
        #expect(got2 == .handshakeDone)
    }

    @Test("the peer broke a rule after messages whose answers are queued: they go out, then the close (Autobahn 3.2)")
    func faultAfterQueued() {
        var machine = Machine()
        let got1 = machine.requestClose(frame1002, discardingQueued: false)
        #expect(got1)
        #expect(machine.isClosing && !machine.closeFrameExchanged)
        let got2 = machine.pingReceived([1])
        #expect(got2 == .answer)  // until our close is written
        #expect(drain(&machine, queued: 1) == [.pong([1]), .data, .close(frame1002)])
        let got3 = machine.nextWrite(hasQueuedData: false)
        #expect(got3 == .nothing)
        let got4 = machine.pingReceived([2])
        #expect(got4 == .ignored)
    }

    @Test("a close waiting behind data still hangs up on a silent peer; once it is written, the deadline rules")
    func keepAliveWhileClosing() {
        var machine = Machine()
        machine.requestClose(.init(code: 1000, text: ""), discardingQueued: false)
        let got1 = machine.keepAliveTick(silence: .seconds(61), pingAfter: .seconds(30), hangUpAfter: .seconds(60))
        #expect(got1 == .hangUp)
        #expect(machine.nextWrite(hasQueuedData: false) == .close(.init(code: 1000, text: "")))
        let got2 = machine.keepAliveTick(silence: .seconds(61), pingAfter: .seconds(30), hangUpAfter: .seconds(60))
        #expect(got2 == .none)
    }

    @Test("a close that discards the queue goes first, and drops the pongs owed")
    func discardingClose() {
        var machine = Machine()
        _ = machine.pingReceived([1])
        let got1 = machine.requestClose(.init(code: 1008, text: "not reading"), discardingQueued: true)
        #expect(got1)
        let got2 = machine.nextWrite(hasQueuedData: true)
        #expect(got2 == .close(.init(code: 1008, text: "not reading")))
        #expect(!machine.wantsToWrite(hasQueuedData: true))
    }

    @Test("the peer's close is answered before anything still owed, then the socket closes", arguments: [nil, 1000, 1002] as [UInt16?])
    func answersPeerClose(echo: UInt16?) {
        var machine = Machine()
        _ = machine.pingReceived([1])
        let answer = Machine.CloseFrame(code: echo, text: "")
        let got1 = machine.closeReceived(echo: answer)
        #expect(got1 == .answerOwed)
        #expect(machine.closeFrameExchanged)
        let got2 = machine.nextWrite(hasQueuedData: true)
        #expect(got2 == .close(answer))
        #expect(machine.closing == .answered)
        let got3 = machine.nextWrite(hasQueuedData: true)
        #expect(got3 == .closeSocket)
        #expect(answer.payload == (echo.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? []))
    }

    @Test("a close decided stands: a second request changes nothing")
    func firstCloseStands() {
        var machine = Machine()
        let got1 = machine.requestClose(frame1002, discardingQueued: false)
        #expect(got1)
        let got2 = machine.requestClose(.init(code: 1000, text: ""), discardingQueued: true)
        #expect(!got2)
        #expect(machine.closing == .closeRequested(frame1002, discardingQueued: false))
    }

    @Test("keepalive: a ping once silent past the interval, none again until a pong, a hangup past the window")
    func keepAlive() {
        var machine = Machine()
        let ping = Duration.seconds(30), hangup = Duration.seconds(60)
        let got1 = machine.keepAliveTick(silence: .seconds(29), pingAfter: ping, hangUpAfter: hangup)
        #expect(got1 == .none)
        let got2 = machine.keepAliveTick(silence: .seconds(30), pingAfter: ping, hangUpAfter: hangup)
        #expect(got2 == .ping)
        let got3 = machine.nextWrite(hasQueuedData: false)
        #expect(got3 == .ping)
        let got4 = machine.keepAliveTick(silence: .seconds(45), pingAfter: ping, hangUpAfter: hangup)
        #expect(got4 == .none)
        let got5 = machine.keepAliveTick(silence: .seconds(60), pingAfter: ping, hangUpAfter: hangup)
        #expect(got5 == .hangUp)
        machine.pongReceived()
        let got6 = machine.keepAliveTick(silence: .seconds(30), pingAfter: ping, hangUpAfter: hangup)
        #expect(got6 == .ping)
    }

    @Test("a close reason is cut to fit the frame at a character boundary")
    func closePayload() {
        let long = Machine.CloseFrame(code: 1000, text: String(repeating: "é", count: 100))
        #expect(long.payload.count == 124)  // 2 + 61 two-byte characters: 123 bytes would split one
        #expect(String(validating: long.payload.dropFirst(2), as: UTF8.self) != nil)
    }
}
