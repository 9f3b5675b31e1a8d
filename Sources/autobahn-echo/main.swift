import BCWebSocket
import Foundation

// The echo peer the Autobahn TestSuite needs to test BCWebSocket (scripts/autobahn.sh), through the public API only:
//   autobahn-echo client <ws-url> <agent> [--max-message-size N]   the client under test (fuzzing server mode)
//   autobahn-echo server <port> [--max-message-size N]             the server under test (fuzzing client mode)
// Not a product: it ships with nothing and builds only in this repository.

let usage = """
    usage: autobahn-echo client <ws-url> <agent> [--max-message-size BYTES]
           autobahn-echo server <port> [--max-message-size BYTES]
    """

func fail(_ message: String) -> Never {
    print("autobahn-echo: \(message)")
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var maxMessageSize = 1 << 20
if let flag = arguments.firstIndex(of: "--max-message-size") {
    guard flag + 1 < arguments.count, let size = Int(arguments[flag + 1]), size > 0 else {
        fail("--max-message-size needs a positive number of bytes\n\(usage)")
    }
    maxMessageSize = size
    arguments.removeSubrange(flag...(flag + 1))
}

switch (arguments.first, arguments.count) {
case ("client", 3):
    guard let base = WebSocketURL(string: arguments[1]) else { fail("not a ws:// URL: \(arguments[1])") }
    await AutobahnClient(base: base, agent: arguments[2], maxMessageSize: maxMessageSize).run()
case ("server", 2):
    guard let port = Int(arguments[1]), (1...65_535).contains(port) else { fail("not a port: \(arguments[1])") }
    await AutobahnServer(port: port, maxMessageSize: maxMessageSize).run()
default:
    fail("expected a role and its arguments\n\(usage)")
}
