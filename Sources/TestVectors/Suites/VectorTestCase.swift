import MPinCrypto
import OrderedJSON

/// One test before its tcId is assigned: meta fields and the data fields.
public struct VectorTestCase: Sendable, Equatable {
    public var comment: String
    public var flags: [String]
    public var result: VectorResult
    /// The error class of an invalid test (`expectedError`), when it has one.
    public var expectedError: String?
    /// Inputs, intermediates and outputs, by name (AMCL's vector key names where AMCL has one).
    public var fields: [String: JSONValue]

    public init(
        comment: String, flags: [String], result: VectorResult, expectedError: String? = nil,
        fields: [String: JSONValue]
    ) {
        self.comment = comment
        self.flags = flags
        self.result = result
        self.expectedError = expectedError
        self.fields = fields
    }
}

/// A test's `result`, as Wycheproof.
public enum VectorResult: String, Sendable, CaseIterable {
    case valid, invalid, acceptable
}

extension [String: JSONValue] {
    /// Hex fields.
    mutating func hex(_ key: String, _ bytes: [UInt8]) { self[key] = .string(Hex.encode(bytes)) }
}
