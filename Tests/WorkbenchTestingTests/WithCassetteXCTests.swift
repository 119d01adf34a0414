import FlowRecording
import Foundation
import TestSupport
import Testing
import WorkbenchTesting
import XCTest

/// `withCassette` from an XCTest case: records, then replays, with no Swift Testing test running.
final class WithCassetteXCTests: XCTestCase {
    func testRecordsThenReplays() async throws {
        XCTAssertNil(Test.current)
        let folder = try TemporaryDirectory.make("workbench-testing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        nonisolated(unsafe) var results: [FlowResult] = []
        nonisolated(unsafe) var recording: [Bool] = []
        for _ in 0..<2 {
            try await withCassette("xctest-login", record: .missing, directory: folder) { session in
                recording.append(session.isRecording)
                results.append(try await registerAndLogIn(session))
            }
        }
        XCTAssertEqual(recording, [true, false])
        XCTAssertEqual(results.count, 2)
        XCTAssertEqual(results.first, results.last)
        XCTAssertEqual(try CassetteFile.read(folder + "/xctest-login.json").scenario.name, "xctest-login")
    }
}
