import BCConsole
import BCListener
import Foundation

extension FleetMessageMaker {
    /// A maker that publishes exactly the lines `--format ndjson` prints (`MessageFormatter`).
    public init(run: String = UUID().uuidString.lowercased()) {
        let formatter = MessageFormatter(format: .ndjson)
        self.init(run: run) { event, key in
            switch event {
            case .message(let response, let raw, _, let at):
                return (formatter.line(for: response, raw: raw, key: key), response.kind, at)
            case .undecodable(let error?, let raw, _):
                return (formatter.line(for: error, raw: raw, key: key), FleetMessage.errorKind, Date())
            case .undecodable(nil, let raw, let reason):
                return (formatter.line(forProblem: reason, raw: raw, key: key), FleetMessage.errorKind, Date())
            default:
                return nil
            }
        } backlogLine: { comment, key in
            (formatter.line(for: comment, key: key), MessageFormatter.backlogKind)
        }
    }
}
