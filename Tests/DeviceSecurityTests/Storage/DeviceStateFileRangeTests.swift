import DeviceSecurity
import Foundation
import TestSupport
import Testing

/// A stored state whose numbers are out of range is not a state: it is moved aside and reported
/// naming the field, as an unreadable file is. Before, it was loaded, and a grant time far before
/// 1970 made the offline borrow-time check overflow (a trap).
@Suite struct DeviceStateFileRangeTests {
    @Test func aStateWithATimeOutOfRangeIsMovedAsideNamingTheField() throws {
        let directory = try TemporaryDirectory.make("device-range")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = FileDeviceStateStore(directory: directory)
        let text =
            #"{"applications": {"app": {"borrowTime": 600, "grantedAt": -9223372036854775808}}, "deviceHash": "h", "version": 1}"#
        try text.write(toFile: store.path, atomically: true, encoding: .utf8)
        let error = #expect(throws: DeviceStorageError.self) { try store.load() }
        #expect(
            error?.reason.contains(
                "applications.app.grantedAt -9223372036854775808 is not a time from 0 to 253402300799999 ms since 1970")
                == true, "\(String(describing: error))")
        #expect(error?.reason.contains("moved to \(store.path).corrupt-1") == true)
        #expect(try store.load() == nil)
    }
}
