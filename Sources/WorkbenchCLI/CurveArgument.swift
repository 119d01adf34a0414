import ArgumentParser
import Foundation
import MPinCrypto

/// A curve named on the command line: `bn254cx` (Milagro MFA's curve) or `bn254` (Nogami).
struct CurveArgument: ExpressibleByArgument, Sendable {
    let id: CurveID

    init(_ id: CurveID) {
        self.id = id
    }

    init?(argument: String) {
        guard let id = CurveID(rawValue: argument.lowercased().replacingOccurrences(of: "_", with: "")) else {
            return nil
        }
        self.id = id
    }

    static var allValueStrings: [String] { CurveID.allCases.map(\.rawValue) }
    var defaultValueDescription: String { id.rawValue }
}
