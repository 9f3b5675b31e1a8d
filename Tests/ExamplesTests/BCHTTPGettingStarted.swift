import BCHTTP
import Foundation
import Testing

/// BCHTTP's getting-started article, its example as printed there. Compiled only: it fetches from the network
/// (BCHTTPTests run HTTPFetcher against a local HTTPS peer).
struct BCHTTPGettingStarted {
    func fetch() async {
        // >>> printed in Sources/BCHTTP/BCHTTP.docc/GettingStarted.md
        let request = HTTPFetchRequest(url: URL(string: "https://example.com/api/v1/status")!,
                                       headers: [.init(name: "Accept", value: "application/json")],
                                       timeout: .seconds(5), maxBodySize: 64 * 1024)
        do {
            let response = try await HTTPFetcher.fetch(request)
            print(response.status, response.body.count)
        } catch {
            print(error)          // says what failed, in words for a person
        }
        // <<< printed
    }
}
