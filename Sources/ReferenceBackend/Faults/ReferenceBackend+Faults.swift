/// The backend's services to faults, for the suite that grades a client: the client secret it
/// gives an M-Pin ID (the suite looks for it in the client's requests), the shares and days.
extension ReferenceBackend {
    package var faultServices: FaultServices {
        let core = self.core
        return FaultServices(core: core) { head in
            await BackendResponder(core: core).plainAnswer(to: head, body: [], peer: nil)
        }
    }
}
