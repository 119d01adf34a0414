extension ScriptAction {
    /// The `device` actor: the MVID DeviceSecurity connector (`DeviceSecurity`), one per run.
    ///
    /// `registerDevice`, `applicationLogin` and `doLogin` call the connector's methods of the same
    /// name; `doLogin`'s login provider answers with `mvSessionID`, or with `username`,
    /// `password` and `group` (default `school`), and cancels otherwise (or with `cancel: true`).
    /// `configure` sets the service URL (default `$backend/devicesecurity`) and the request time
    /// limit; `goOffline` sends the device's requests to an address where nothing listens
    /// (`http://127.0.0.1:1` unless `url` is given), `goOnline` to the service again.
    static let deviceActions: [ScriptAction] = [
        .init("device", "configure", optional: ["url", "timeout"]),
        .init("device", "goOffline", optional: ["url"]),
        .init("device", "goOnline"),
        .init("device", "registerDevice", required: ["mvSessionID"]),
        .init("device", "applicationLogin", required: ["accessIdentifier"]),
        .init("device", "doLogin", required: ["accessIdentifier"], optional: ["mvSessionID", "username", "password", "group", "cancel"]),
        .init("device", "excludeLoginGroup", required: ["group"]),
        .init("device", "includeAllLoginGroups"),
        .init("device", "releaseApplicationUsage", required: ["accessIdentifier"]),
        .init("device", "releaseDeviceRegistration"),
    ]
}
