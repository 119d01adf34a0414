import FlowRecording
import MilagroRecording
import Scenarios
import Testing

@Suite struct MilagroParticipantsTests {
    @Test func participantsComeFromTheURLPath() {
        let map = SequenceDiagram.ParticipantMap.milagro
        #expect(map.participant(forURL: "http://h:8005/rps/pass1") == .rps)
        #expect(map.participant(forURL: "http://h:8005/rps") == .rps)
        #expect(map.participant(forURL: "http://h/dta2/clientSecret?app_id=1") == .dta2)
        #expect(map.participant(forURL: "http://h:8001/clientSecret?x=1") == .dta1)
        #expect(map.participant(forURL: "http://h/dta/timePermit") == .dta1)
        #expect(map.participant(forURL: "http://h:8005/mpinAuthenticate") == .rpa)
        #expect(map.participant(forURL: "http://h:8005/logout") == .rpa)
        #expect(map.participant(forURL: "http://h:8005/rpsx") == .server)
        #expect(map.participant(forURL: "http://h:8005/") == .server)
    }

    @Test func theServicesComeInTheProtocolsOrder() {
        #expect(
            SequenceDiagram.ParticipantMap.milagro.ordered.map(\.id)
                == ["client", "browser", "rps", "dta1", "dta2", "rpa", "server"])
    }

    @Test func theMilagroSecretsAreRedactedByName() {
        #expect(Redactor.milagroFields.contains("pin") && Redactor.milagroFields.contains("authOTT"))
        #expect(Set(Redactor.milagroFields.map { $0.lowercased() }).count == Redactor.milagroFields.count)
    }
}
