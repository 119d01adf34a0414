// The SDK's storage files (`secure-storage.json`, `storage.json`, version 1 and the Milagro core
// 2.2 layout) read through `FileStorage` when a client initializes: any bytes either load or fail
// with STORAGE_ERROR; users that load are written back (by the next save) to files that load to
// the same users.
//
// Input: two parts separated by a line `%%`: the secure file, then the non-secure one; a part
// `-` leaves that file out.
import Foundation
import FuzzSupport

@testable import MPinSDK
@testable import SDKSeams

final class NoNetwork: HTTPTransport {
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        throw TransportError(kind: .connectionRefused, message: "no network in this fuzz target", url: request.url)
    }
}

let directory = Repository.scratch + "/storage"

struct Summary: Equatable, CustomStringConvertible {
    var id: String, state: String, backend: String, mpinID: String, deviceName: String, customerID: String,
        appID: String
    init(_ user: User) {
        id = user.id
        state = user.state.rawValue
        backend = user.backend
        mpinID = user.mpinID
        deviceName = user.deviceName
        customerID = user.customerID
        appID = user.appID
    }
    var description: String { "\(id) \(state) \(backend) \(mpinID)" }
}

func load() async -> (MPinClient, Result<[Summary], MPinError>) {
    let client = MPinClient(transport: NoNetwork(), storage: FileStorage(directory: directory))
    do throws(MPinError) {
        try await client.initialize(configuration: [:])
        return (client, .success(try await client.listAllUsers().map(Summary.init)))
    } catch {
        return (client, .failure(error))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let parts = FuzzInput(data, size).parts(limit: 2)
    try? FileManager.default.removeItem(atPath: directory)
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (part, name) in zip(parts, ["secure-storage.json", "storage.json"]) where part != Array("-".utf8) {
        FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(part))
    }
    Blocking.run {
        let (client, first) = await load()
        guard case .success(let users) = first else { return }
        // deleteUser saves every loaded user (the new one is not among them).
        guard let extra = try? await client.makeNewUser(id: "fuzz-extra") else { return }
        do throws(MPinError) {
            try await client.deleteUser(extra)
        } catch {
            FuzzDriver.fail("cannot save the users it loaded: \(error)")
        }
        let (_, second) = await load()
        switch second {
        case .success(let again):
            FuzzDriver.check(again == users, "saved users read back differently: \(users) became \(again)")
        case .failure(let error):
            FuzzDriver.fail("the files written for loaded users do not load: \(error)")
        }
    }
    return 0
}

FuzzDriver.run()
