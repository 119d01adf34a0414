extension MPinClient {
    /// A new user in state INVALID, not yet in the list (`MakeNewUser`).
    public func makeNewUser(id: String, deviceName: String = "") async throws(MPinError) -> User {
        try await perform("makeNewUser", [NamedValue("id", id), NamedValue("deviceName", deviceName)]) {
            () async throws(MPinError) in
            User(id: id, deviceName: deviceName)
        }
    }

    /// Deletes a user with its M-Pin ID, regOTT, token and logout data (`DeleteUser`); the object
    /// goes back to INVALID.
    public func deleteUser(_ user: User) async throws(MPinError) {
        try await perform("deleteUser", [], user: user) { () async throws(MPinError) in
            if let key = users.first(where: { $0.value === user })?.key { users[key] = nil }
            user.update { $0 = User.Record() }
            try saveUsers()
        }
    }

    /// The users of the current backend (`ListUsers`); in the MFA-platform flavour, all users.
    /// - Throws: FLOW_ERROR when no backend is set.
    public func listUsers() async throws(MPinError) -> [User] {
        try await perform("listUsers", [], outputs: Self.userOutputs) { () async throws(MPinError) in
            _ = try requireBackend()
            return options.flavour == .mfaPlatform ? sortedUsers() : sortedUsers().filter { $0.backend == backendKey }
        }
    }

    /// The users of the given backend (URL or key).
    public func listUsers(backend: String) async throws(MPinError) -> [User] {
        try await perform("listUsers", [NamedValue("backend", backend)], outputs: Self.userOutputs) {
            () async throws(MPinError) in
            let key = Self.backendKey(backend)
            return sortedUsers().filter { $0.backend == key }
        }
    }

    /// Every known user (`ListAllUsers`).
    public func listAllUsers() async throws(MPinError) -> [User] {
        try await perform("listAllUsers", [], outputs: Self.userOutputs) { () async throws(MPinError) in sortedUsers() }
    }

    /// The backend keys users are registered with (`ListBackends`), sorted.
    public func listBackends() async throws(MPinError) -> [String] {
        try await perform("listBackends", [], outputs: { $0.map { NamedValue("backend", $0) } }) {
            () async throws(MPinError) in
            Array(Set(users.values.map(\.backend))).sorted()
        }
    }

    func sortedUsers() -> [User] {
        users.sorted { $0.key < $1.key }.map(\.value)
    }

    static func userOutputs(_ list: [User]) -> [NamedValue] {
        list.map { NamedValue("user", "\($0.id) \($0.state.rawValue) \($0.backend)") }
    }

    /// The list key of a user (see `Flavour`).
    func key(id: String, backend: String, customerID: String, appID: String) -> String {
        options.flavour.userKey(id: id, backend: backend, customerID: customerID, appID: appID)
    }

    func key(of user: User) -> String {
        let record = user.record
        return key(id: user.id, backend: record.backend, customerID: record.customerID, appID: record.appID)
    }
}
