/// The driver's side of the flows (`TimePermitFlow`, `AuthenticationFlow`, `RegistrationFlow`):
/// the effects their actions ask for, with the outcome as the value the flow reads next.
extension MPinClient {
    /// Sends a flow's request; a failure is the flow's to interpret.
    func send(_ request: FlowRequest) async -> Result<Answer, MPinError> {
        do throws(MPinError) {
            return .success(
                try await self.request(
                    request.context, request.method, request.url, body: request.body,
                    expectJSON: request.expectJSON))
        } catch {
            return .failure(error)
        }
    }

    /// Applies a flow's update to the user: the record, the list, then the storages when asked.
    func apply(_ update: UserUpdate, to user: User) -> Result<Void, MPinError> {
        user.record = update.record
        if let key = update.listKey { users[key] = user }
        guard update.persist else { return .success(()) }
        do throws(MPinError) {
            try saveUsers()
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
