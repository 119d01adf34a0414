extension ScriptAction {
    /// The `device` actor: the MVID DeviceSecurity connector (`DeviceSecurity`), one per run.
    ///
    /// `registerDevice`, `applicationLogin` and `doLogin` call the connector's methods of the same
    /// name; `doLogin`'s login provider answers with `mvSessionID`, or with `username`,
    /// `password` and `group` (default `school`), and cancels otherwise (or with `cancel: true`).
    /// `configure` sets the service URL (default `$backend/devicesecurity`) and the request time
    /// limit; `goOffline` sends the device's requests to an address where nothing listens
    /// (`http://127.0.0.1:1` unless `url` is given), `goOnline` to the service again.
    static func deviceArguments(_ action: StepAction.Device) -> (required: [String], optional: [String]) {
        switch action {
        case .configure: ([], ["url", "timeout"])
        case .goOffline: ([], ["url"])
        case .goOnline, .includeAllLoginGroups, .releaseDeviceRegistration: ([], [])
        case .registerDevice: (["mvSessionID"], [])
        case .applicationLogin, .releaseApplicationUsage: (["accessIdentifier"], [])
        case .doLogin: (["accessIdentifier"], ["mvSessionID", "username", "password", "group", "cancel"])
        case .excludeLoginGroup: (["group"], [])
        }
    }
}
