import CurlTransport
import SDKSeams

/// `count` GET requests for `/n/0` … `/n/<count - 1>` sent at once from a task each, and what came
/// back as "<status> <body>", in completion order. With a `LocalHTTPServer` that echoes the request
/// line, a complete, correct run is `expectedEchoes(count)` as a set.
func sendParallelGets(_ count: Int, to baseURL: String, through transport: CurlTransport) async throws -> [String] {
    try await withThrowingTaskGroup(of: String.self) { group in
        for index in 0..<count {
            group.addTask {
                let response = try await transport.send(HTTPRequest(method: .get, url: baseURL + "/n/\(index)"))
                return "\(response.status) \(response.bodyText ?? "")"
            }
        }
        var all: [String] = []
        for try await body in group { all.append(body) }
        return all
    }
}

/// The echoes of `sendParallelGets(count, …)` from a server that answers with the request line.
func expectedEchoes(_ count: Int) -> Set<String> {
    Set((0..<count).map { "200 GET /n/\($0) HTTP/1.1" })
}
