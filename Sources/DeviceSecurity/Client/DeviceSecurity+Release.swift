extension DeviceSecurity {
    /// Hides a login group from the login (the groups offered in `LoginPrompt.groups`); a
    /// credentials answer in an excluded group is refused on the device.
    public func excludeLoginGroup(_ group: LoginGroup) async {
        await serialized {
            emit(.call(.init(name: "excludeLoginGroup", arguments: [.init("group", group.rawValue)])))
            excludedGroups.insert(group)
            emitVoidResult("excludeLoginGroup")
        }
    }

    /// Offers every login group again.
    public func includeAllLoginGroups() async {
        await serialized {
            emit(.call(.init(name: "includeAllLoginGroups", arguments: [])))
            excludedGroups.removeAll()
            emitVoidResult("includeAllLoginGroups")
        }
    }

    /// Forgets whether access to the application was granted: the next login of it needs the
    /// service (offline it is `ApplicationBorrowTimeExpired`). The registration stays.
    public func releaseApplicationUsage(_ accessIdentifier: String) async {
        await serialized {
            emit(
                .call(.init(name: "releaseApplicationUsage", arguments: [.init("accessIdentifier", accessIdentifier)])))
            update { $0.applications[accessIdentifier] = nil }
            emitVoidResult("releaseApplicationUsage")
        }
    }

    /// Forgets the registration (device hash, session id, borrow time, grants): the next
    /// `doLogin` asks for a login. The device id stays; other devices and apps are not affected.
    public func releaseDeviceRegistration() async {
        await serialized {
            emit(.call(.init(name: "releaseDeviceRegistration", arguments: [])))
            update { state in
                let id = state.deviceID
                state = DeviceState()
                state.deviceID = id
            }
            emitVoidResult("releaseDeviceRegistration")
        }
    }

    private func emitVoidResult(_ name: String) {
        emit(.result(.local(name, outputs: outputs())))
    }
}
