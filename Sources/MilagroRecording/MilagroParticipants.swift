import FlowRecording
import MilagroProtocol

/// The Milagro services as participants of a cassette's sequence diagram (`cassette diagram`), told
/// from the request's URL path (docs/protocol.md §2, the services and their paths; the parties and
/// their paths are `ProtocolParty`'s).
extension SequenceDiagram.Participant {
    /// The relying-party service: `/rps/...` and its private endpoints.
    public static let rps = Self(.rps)
    /// The local D-TA, which issues the first client-secret and time-permit share.
    public static let dta1 = Self(.dta1)
    /// The second D-TA (Milagro's `certivoxURL`), which issues the second share.
    public static let dta2 = Self(.dta2)
    /// The relying party's application (the demo RPA and the MFA platform's pages).
    public static let rpa = Self(.rpa)

    /// The participant of a protocol party: its id is the party's raw value, its name the party's title.
    init(_ party: ProtocolParty) {
        self.init(id: party.rawValue, name: party.title)
    }
}

extension SequenceDiagram.ParticipantMap {
    /// Which Milagro service a request goes to: `ProtocolParty.servicePrefixes` (first match wins;
    /// a prefix matches the path itself or the path followed by `/`); anything else goes to a
    /// generic "server".
    public static let milagro = Self(
        rules: ProtocolParty.servicePrefixes.map { ($0.prefix, SequenceDiagram.Participant($0.party)) },
        serverOrder: ProtocolParty.services.map(SequenceDiagram.Participant.init))
}
