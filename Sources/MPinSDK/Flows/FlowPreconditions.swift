import MPinCrypto

/// The checks a call makes before it does anything: a backend is set, the user is in a state the
/// call accepts, a PIN (or second factor) maps to a scalar. Pure; each throws the call's FLOW_ERROR
/// (or PIN_INPUT_CANCELED for an empty PIN).
enum FlowPreconditions {
    static func backend(_ settings: ClientSettings?) throws(MPinError) -> ClientSettings {
        guard let settings else { throw MPinError.flow("No backend is set") }
        return settings
    }

    static func state(_ state: UserState, of userID: String, _ allowed: Set<UserState>, _ call: String)
        throws(MPinError)
    {
        guard allowed.contains(state) else {
            let names = allowed.map(\.rawValue).sorted().joined(separator: " or ")
            throw MPinError.flow("\(call) needs a user in state \(names); \(userID) is \(state.rawValue)")
        }
    }

    /// The PIN (or second factor) as the scalar of the mapping.
    static func pinScalar(_ pin: String, mapping: PINMapping, what: String = "PIN") throws(MPinError) -> Int32 {
        if pin.isEmpty { throw MPinError(.pinInputCanceled, "The \(what) is empty") }
        guard let scalar = mapping.scalar(for: pin) else {
            throw MPinError(.flowError, "The \(what) cannot be mapped with the \(mapping.rawValue) mapping")
        }
        return scalar
    }

    /// An optional second factor as its scalar.
    static func factorScalar(_ factor: String?, mapping: PINMapping) throws(MPinError) -> Int32? {
        guard let factor else { return nil }
        return try pinScalar(factor, mapping: mapping, what: "second factor")
    }
}
