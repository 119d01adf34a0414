import MilagroProtocol

extension BackendFlavour {
    /// The protocol flavour a client of this flavour speaks.
    public init(_ flavour: MPinClient.Flavour) {
        switch flavour {
        case .milagro: self = .milagro
        case .mfaPlatform: self = .mfaPlatform
        }
    }
}

extension MPinClient.Flavour {
    /// The list key of a user: `id@backend` in the Milagro flavour, `id:backend:customerId:appId`
    /// on the MFA platform.
    func userKey(id: String, backend: String, customerID: String, appID: String) -> String {
        self == .mfaPlatform ? "\(id):\(backend):\(customerID):\(appID)" : "\(id)@\(backend)"
    }

    /// The client flavour that speaks this protocol flavour.
    public init(_ flavour: BackendFlavour) {
        switch flavour {
        case .milagro: self = .milagro
        case .mfaPlatform: self = .mfaPlatform
        }
    }
}
