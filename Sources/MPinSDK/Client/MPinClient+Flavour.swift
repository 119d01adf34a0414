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
    /// The client flavour that speaks this protocol flavour.
    public init(_ flavour: BackendFlavour) {
        switch flavour {
        case .milagro: self = .milagro
        case .mfaPlatform: self = .mfaPlatform
        }
    }
}
