extension MPinClient {
    /// Reads both storages into users. An unusable file is moved aside (kept, never overwritten)
    /// and the call fails with STORAGE_ERROR naming the file and the reason.
    func loadUsers() throws(MPinError) -> [String: User] {
        let secure = try readStorage(.secure)
        let nonSecure = try readStorage(.nonSecure)
        let loaded: [StorageLayout.Loaded]
        do throws(StorageLayout.Failure) {
            loaded = try StorageLayout.decode(secure: secure, nonSecure: nonSecure)
        } catch {
            throw failedStorage(error.kind, reason: error.reason)
        }
        var result: [String: User] = [:]
        for entry in loaded {
            let user = User(id: entry.id, deviceName: entry.deviceName, record: entry.record)
            result[key(of: user)] = user
        }
        return result
    }

    private func readStorage(_ kind: StorageKind) throws(MPinError) -> String? {
        do throws(StorageError) {
            return try storage.read(kind)
        } catch {
            if error.reason == "not UTF-8 text" { throw failedStorage(kind, reason: error.reason) }
            throw MPinError(.storageError, "\(error.path): \(error.reason)", context: .init(path: error.path))
        }
    }

    private func failedStorage(_ kind: StorageKind, reason: String) -> MPinError {
        let path = storage.location(of: kind)
        var message = "\(path): \(reason)"
        do throws(StorageError) {
            let aside = try storage.moveAside(kind)
            message += "; the file was moved to \(aside)"
        } catch {
            message += "; it could not be moved aside (\(error.reason)) and was left in place"
        }
        return MPinError(.storageError, message, context: .init(path: path))
    }

    /// Writes both storages (non-secure first, then secure).
    func saveUsers() throws(MPinError) {
        let documents = StorageLayout.encode(sortedUsers())
        do throws(StorageError) {
            try storage.write(.nonSecure, documents.nonSecure)
            try storage.write(.secure, documents.secure)
        } catch {
            throw MPinError(.storageError, "\(error.path): \(error.reason)", context: .init(path: error.path))
        }
    }
}
