import BCHTTP
import BCMessages
import BCWebSocket
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The REST API that turns what a person holds (a live page, a streamer's page) into what a listener needs
/// (a bcsvr endpoint and key), and gives a live's recent comments. Each call is one GET with a timeout, TLS
/// verified as for WebSockets, the body capped; answers are read tolerantly (`LiveInfo`, `StreamerStatus`,
/// `BacklogComments`) and every failure is a `LiveDirectoryError`.
public struct LiveDirectory: Sendable {
    /// Performs one GET; `HTTPFetcher.fetch` unless a test gives another.
    public typealias Transport = @Sendable (HTTPFetchRequest) async throws(HTTPFetchFailure) -> HTTPFetchResponse

    /// The production API, `https://www.mirrativ.com`.
    public static let defaultAPIBase = URL(string: "https://www.mirrativ.com")!

    /// The API's scheme, host and base path; each endpoint's path is appended to it.
    public var apiBase: URL
    /// `NAME=VALUE` pairs sent as the `Cookie` header (the `mr_id` cookie the endpoints may want). Never
    /// printed: no error or description of this type contains it.
    public var cookie: String?
    /// How the API server's certificate is verified.
    public var tls: WebSocketClientConfiguration.TLS
    /// How long one GET may take, the whole exchange: DNS, TCP, TLS, request, answer and body.
    public var timeout: Duration
    /// Largest answer read; a larger one is a failure (the answers seen are a few KiB).
    public var maxAnswerSize: Int
    private let transport: Transport

    /// A directory of the API at `apiBase`; `transport` performs each GET (`HTTPFetcher.fetch` unless a test
    /// gives another).
    public init(apiBase: URL = defaultAPIBase, cookie: String? = nil, tls: WebSocketClientConfiguration.TLS = .system,
                timeout: Duration = .seconds(10), maxAnswerSize: Int = 1 << 20,
                transport: @escaping Transport = { request throws(HTTPFetchFailure) in
                    try await HTTPFetcher.fetch(request)
                }) {
        self.apiBase = apiBase
        self.cookie = cookie
        self.tls = tls
        self.timeout = timeout
        self.maxAnswerSize = maxAnswerSize
        self.transport = transport
    }

    /// The live's info; throws `.liveEnded`, `.livePrivate` and the API's failures.
    public func liveInfo(liveID: String) async throws(LiveDirectoryError) -> LiveInfo {
        let answer = try await get("/api/live/live", query: "live_id", liveID, endpoint: "live info")
        return try LiveInfo(answer: answer, requested: liveID)
    }

    /// Whether the streamer is live now, and which live.
    public func streamerStatus(userID: String) async throws(LiveDirectoryError) -> StreamerStatus {
        let answer = try await get("/api/user/profile", query: "user_id", userID, endpoint: "profile")
        return try StreamerStatus(answer: answer, requested: userID)
    }

    /// The live's recent comments, oldest first.
    public func backlog(liveID: String) async throws(LiveDirectoryError) -> BacklogComments {
        let answer = try await get("/api/live/live_comments", query: "live_id", liveID, endpoint: "live comments")
        return try BacklogComments(answer: answer)
    }

    /// Resolves a reference to the live to follow now: a live's info, or the info of the live a streamer is
    /// on (`.userOffline` when none).
    public func resolve(_ reference: LiveReference) async throws(LiveDirectoryError) -> LiveInfo {
        switch reference {
        case .live(let id):
            return try await liveInfo(liveID: id)
        case .user(let id):
            let status = try await streamerStatus(userID: id)
            guard let liveID = status.liveID else { throw .userOffline(userID: id) }
            return try await liveInfo(liveID: liveID)
        }
    }

    func request(path: String, query name: String, _ value: String) -> HTTPFetchRequest? {
        guard var components = URLComponents(url: apiBase, resolvingAgainstBaseURL: false) else { return nil }
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + path
        components.queryItems = [URLQueryItem(name: name, value: value)]
        guard let url = components.url else { return nil }
        var headers: [HTTPFetchRequest.Header] = [.init(name: "user-agent", value: "bcstream")]
        if let cookie, !cookie.isEmpty { headers.append(.init(name: "cookie", value: cookie)) }
        return HTTPFetchRequest(url: url, headers: headers, timeout: timeout, maxBodySize: maxAnswerSize, tls: tls)
    }

    private func get(_ path: String, query name: String, _ value: String,
                     endpoint: String) async throws(LiveDirectoryError) -> JSONValue {
        guard let request = request(path: path, query: name, value) else {
            throw .transport(endpoint: endpoint, .invalidURL(apiBase.absoluteString))
        }
        let response: HTTPFetchResponse
        do {
            response = try await transport(request)
        } catch {
            throw .transport(endpoint: endpoint, error)
        }
        guard (200..<300).contains(response.status) else { throw .httpStatus(response.status, endpoint: endpoint) }
        let answer: JSONValue
        do {
            answer = try JSONDecoder().decode(JSONValue.self, from: Data(response.body))
        } catch {
            let start = String(decoding: response.body.prefix(40), as: UTF8.self)
            throw .notJSON(endpoint: endpoint, excerpt: start.isEmpty ? "(an empty body)" : "\"\(start)\"")
        }
        // The service's own verdict, when it gives one: `status.ok` 0 with a message.
        if let status = answer["status"], status["ok"]?.flag == false {
            let message = status["error"]?.text ?? status["message"]?.text ?? status["msg"]?.text ?? ""
            throw .refused(endpoint: endpoint, message: message)
        }
        return answer
    }
}
