import FlowRecording
import MPinSDK

/// An actor's transport as the steps of a script see it: tells the `LaneScheduler` when a
/// background step's request goes out and its response comes back.
struct LaneTransport: HTTPTransport {
    let base: any HTTPTransport
    let scheduler: LaneScheduler

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        scheduler.sending()
        let result: Result<HTTPResponse, TransportError>
        do throws(TransportError) {
            result = .success(try await base.send(request))
        } catch {
            result = .failure(error)
        }
        await scheduler.received()
        return try result.get()
    }
}
