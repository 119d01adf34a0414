import MPinCrypto

/// The crypto primitives the flows use, each reported to the observer with inputs and outputs.
extension MPinClient {
    /// Runs one primitive; a nil result (an input that is not a valid point) is CRYPTO_ERROR.
    /// The inputs and outputs are hex-encoded for the observer only when there is one.
    func crypto(_ primitive: String, _ inputs: @autoclosure () -> [NamedValue], outputNames: [String],
                _ operation: () -> [[UInt8]]?) throws(MPinError) -> [[UInt8]] {
        let result = operation()
        if observer != nil {
            let outputs = result.map { values in zip(outputNames, values).map { NamedValue($0.0, Hex.encode($0.1)) } } ?? []
            emit(.crypto(ClientEvent.CryptoStep(primitive: primitive, inputs: inputs(), outputs: outputs)))
        }
        guard let result else {
            throw MPinError(.cryptoError, "\(primitive) failed: an input is not a valid curve point")
        }
        return result
    }

    func hex(_ name: String, _ bytes: [UInt8]) -> NamedValue { NamedValue(name, Hex.encode(bytes)) }

    /// H(ID) for the record: `hashID` then `mapToG1` (the primitives compute it again internally).
    /// Only an observer sees it, so without one nothing is computed.
    func reportIdentityHash(_ mpinID: [UInt8]) throws(MPinError) {
        guard observer != nil else { return }
        let hashed = try crypto("hashID", [hex("mpinId", mpinID)], outputNames: ["hash"]) { [mpin.hashID(mpinID)] }[0]
        _ = try crypto("mapToG1", [hex("hash", hashed)], outputNames: ["point"]) { [mpin.mapToG1(hashed)] }
    }

    func recombine(_ first: [UInt8], _ second: [UInt8], _ what: String) throws(MPinError) -> [UInt8] {
        try crypto("recombineG1", [hex(what + "1", first), hex(what + "2", second)], outputNames: [what]) {
            mpin.recombineG1(first, second).map { [$0] }
        }[0]
    }

    /// A random scalar mod r from the injected random source: the bytes the crypto core asks for
    /// are drawn and reported (`random`), then the scalar (`randomScalar`).
    func randomScalar(purpose: String) throws(MPinError) -> [UInt8] {
        var generator = DrawingGenerator(source: random)
        let scalar = mpin.randomScalar(using: &generator)
        emit(.random(ClientEvent.RandomDraw(purpose: purpose, bytes: generator.drawn)))
        return try crypto("randomScalar", [hex("random", generator.drawn)], outputNames: [purpose]) { [scalar] }[0]
    }

    /// The PIN (or second factor) as the scalar of the configured mapping.
    func pinScalar(_ pin: String, what: String = "PIN") throws(MPinError) -> Int32 {
        if pin.isEmpty { throw MPinError(.pinInputCanceled, "The \(what) is empty") }
        guard let scalar = options.pinMapping.scalar(for: pin) else {
            throw MPinError(.flowError, "The \(what) cannot be mapped with the \(options.pinMapping.rawValue) mapping")
        }
        return scalar
    }
}
