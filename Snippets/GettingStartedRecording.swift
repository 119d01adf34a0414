//! Records a registration and an authentication into a cassette, then replays it offline.
import CurlTransport
import FlowRecording
import Foundation
import MPinSDK
import ReferenceBackend

// snippet.flow
/// The flow under test: the same calls when it is recorded and when it is replayed.
func registerAndAuthenticate(_ client: MPinClient, backend: String, pin: String) async throws(MPinError) {
    try await client.initialize(configuration: ["backend": backend])
    let user = try await client.makeNewUser(id: "alice@example.com")
    try await client.startRegistration(user)
    try await client.confirmRegistration(user)
    try await client.finishRegistration(user, pin: "1234")
    try await client.startAuthentication(user)
    _ = try await client.finishAuthentication(user, pin: pin)
}
// snippet.end

// snippet.record
// Record: a live backend on loopback, and the client's seams wrapped by a Recorder.
let backend = try await ReferenceBackend.start(BackendConfiguration(host: "127.0.0.1", port: 0))
let recorder = Recorder(
    header: Cassette(
        tool: .init(name: "getting-started", version: "1.0"), curve: "BN254CX",
        scenario: .init(name: "register and authenticate"),
        backend: .init(url: backend.baseURL, flavour: "milagro", embedded: true)))
let live = MPinClient(
    transport: recorder.transport(wrapping: CurlTransport()), storage: MemoryStorage(),
    random: recorder.randomSource(wrapping: SystemRandomSource()),
    clock: recorder.clock(wrapping: SystemClock()))
try await registerAndAuthenticate(live, backend: backend.baseURL, pin: "1234")
await backend.stop()

let path = FileManager.default.temporaryDirectory.appendingPathComponent("getting-started.json").path
try CassetteFile.write(recorder.cassette(), to: path)
// snippet.end

// snippet.replay
// Replay: no backend any more; the Replayer answers from the file and checks every request.
let cassette = try CassetteFile.read(path)
print("recorded:", cassette.events.count, "events,", cassette.httpExchanges.count, "HTTP exchanges")
let replayer = try Replayer(cassette: cassette, mode: .strict, path: path)
let offline = MPinClient(
    transport: replayer.transport(), storage: MemoryStorage(),
    random: replayer.randomSource(), clock: replayer.clock())
try await registerAndAuthenticate(offline, backend: cassette.backend.url, pin: "1234")
try replayer.finish()
print("replay (strict): passed")
// snippet.end

// snippet.diverge
// A client that behaves differently diverges, and the replayer says where.
let second = try Replayer(cassette: cassette, mode: .strict, path: path)
let changed = MPinClient(
    transport: second.transport(), storage: MemoryStorage(),
    random: second.randomSource(), clock: second.clock())
try? await registerAndAuthenticate(changed, backend: cassette.backend.url, pin: "9999")
do throws(ReplayError) {
    try second.finish()
} catch {
    print("replay with another PIN:", error.kind, "at event", error.report.eventIndex ?? -1)
    print(error.report.summary)
}
// snippet.end
