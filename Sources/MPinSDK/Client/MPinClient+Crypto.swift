import MPinCrypto
import MilagroProtocol

/// The crypto primitives the flows use, each reported to the observer with inputs and outputs.
extension MPinClient {
    /// Runs one primitive; a nil result (an input that is not a valid point) is CRYPTO_ERROR.
    /// The inputs and outputs are hex-encoded for the observer only when there is one.
    func crypto(
        _ primitive: String, _ inputs: @autoclosure () -> [NamedValue], outputNames: [String],
        _ operation: () -> [[UInt8]]?
    ) throws(MPinError) -> [[UInt8]] {
        let result = operation()
        if observer != nil {
            let outputs =
                result.map { values in zip(outputNames, values).map { NamedValue($0.0, Hex.encode($0.1)) } } ?? []
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

    /// Pass 1 of authentication (docs/protocol.md §6.4): H(ID) for the record, RESTORE_FACTOR with a
    /// second factor, the time permit recombined, a random x, then CLIENT_1.
    func computePass1(_ input: AuthenticationFlow.Pass1Input) throws(MPinError) -> AuthenticationFlow.Pass1Values {
        let mpinID = input.mpinID
        try reportIdentityHash(mpinID)
        var token = input.token
        if let factor = input.factor {
            let restored = token
            token = try crypto(
                "restoreFactor",
                [
                    hex("mpinId", mpinID), NamedValue("factor", String(factor)),
                    NamedValue("bits", String(MPin.pinBits)), hex("token", restored),
                ],
                outputNames: ["token"]
            ) {
                mpin.restoreFactor(id: mpinID, factor: factor, bits: MPin.pinBits, token: restored).map { [$0] }
            }[0]
        }
        var permit: [UInt8]?
        if let shares = input.permitShares {
            permit = try recombine(shares.first, shares.second, "timePermit")
        }
        let x = try randomScalar(purpose: "x")
        let (date, pinValue) = (input.date, input.pin)
        var inputs = [
            NamedValue("date", String(date)), hex("mpinId", mpinID), hex("x", x), NamedValue("pin", String(pinValue)),
            hex("token", token),
        ]
        if let permit { inputs.append(hex("timePermit", permit)) }
        let values = try crypto("client1", inputs, outputNames: ["x", "sec", "u", "ut"]) {
            mpin.client1(date: date, id: mpinID, x: x, pin: pinValue, token: token, permit: permit)
                .map { [$0.x, $0.sec, $0.u, $0.ut ?? []] }
        }
        return AuthenticationFlow.Pass1Values(x: x, sec: values[1], u: values[2], ut: values[3])
    }

    /// Pass 2 of authentication: CLIENT_2. The server's challenge must be a scalar of the group,
    /// 0 < y < r (docs/protocol.md §6.4): V = −(x+y)·SEC for a y the client did not check would
    /// hand a hostile server a multiple of SEC of its choosing (y = 0: −x·SEC), so any other y is
    /// refused as a malformed answer and no pass 2 is sent.
    func computePass2(x: [UInt8], y: [UInt8], sec: [UInt8]) throws(MPinError) -> [UInt8] {
        guard Self.isChallenge(y, below: mpin.groupOrder) else {
            throw MPinError(
                .responseParseError, "pass 1's y is not a scalar of the group (0 < y < r): no pass 2 is sent",
                context: .init(request: RequestContext.authenticatePass1.rawValue))
        }
        return try crypto("client2", [hex("x", x), hex("y", y), hex("sec", sec)], outputNames: ["v"]) {
            mpin.client2(x: x, y: y, sec: sec).map { [$0] }
        }[0]
    }

    /// Whether `y`, big-endian, is more than 0 and less than `order` (also big-endian).
    static func isChallenge(_ y: [UInt8], below order: [UInt8]) -> Bool {
        let value = y.drop { $0 == 0 }, bound = order.drop { $0 == 0 }
        guard !value.isEmpty else { return false }
        if value.count != bound.count { return value.count < bound.count }
        return value.lexicographicallyPrecedes(bound)
    }

    /// The M-Pin token of FinishRegistration (docs/protocol.md §3.3): H(ID) for the record, the client
    /// secret recombined, EXTRACT_PIN, then EXTRACT_FACTOR with a second factor.
    func computeToken(_ input: RegistrationFlow.TokenInput) throws(MPinError) -> [UInt8] {
        let (mpinID, pinValue) = (input.mpinID, input.pin)
        try reportIdentityHash(mpinID)
        let clientSecret = try recombine(input.share1, input.share2, "clientSecret")
        var token = try crypto(
            "extractPIN",
            [
                hex("mpinId", mpinID), NamedValue("pin", String(pinValue)),
                hex("clientSecret", clientSecret),
            ], outputNames: ["token"]
        ) {
            mpin.extractPIN(id: mpinID, pin: pinValue, token: clientSecret).map { [$0] }
        }[0]
        if let factor = input.factor {
            let extracted = token
            token = try crypto(
                "extractFactor",
                [
                    hex("mpinId", mpinID), NamedValue("factor", String(factor)),
                    NamedValue("bits", String(MPin.pinBits)), hex("token", extracted),
                ],
                outputNames: ["token"]
            ) {
                mpin.extractFactor(id: mpinID, factor: factor, bits: MPin.pinBits, token: extracted).map { [$0] }
            }[0]
        }
        return token
    }
}
