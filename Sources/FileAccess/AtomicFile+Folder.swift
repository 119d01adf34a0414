#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFile {
    /// Writes the files `names` into the folder `directory`, all or none (`cassette import`): the
    /// bytes of each are `contents(index)`, asked for one file at a time, so that only one is held.
    ///
    /// Every file is first written (and flushed) into a new staging folder beside `directory`,
    /// `.<name>.<random>.tmp`; nothing in `directory` changes until all are there. Then:
    /// * when `directory` does not exist, the staging folder is renamed to it: one step, so a
    ///   reader or a crash sees all the files or no folder;
    /// * when it does, each file is renamed into place, an existing file (or the file its symbolic
    ///   link leads to, as `write` replaces it) first moved aside into a second folder beside it,
    ///   and its permissions kept (for a moment the name is missing). If a rename fails, those done are undone (the old files moved back, the
    ///   new ones removed), so the folder holds what it held before.
    ///
    /// On any failure the staging folder is removed and nothing of the call is left in
    /// `directory` (the folders above it that were missing may have been created). Names must be
    /// one path component each (no `/`, not `.` or `..`), at most `SafeFileName.maximumBytes`
    /// bytes, and distinct: a name that breaks the rule is refused before anything is written.
    public static func writeAll(
        _ names: [String], into directory: String, options: Options = Options(),
        contents: (Int) -> [UInt8]
    ) throws(FileAccessError) {
        var seen: Set<[UInt8]> = []
        for name in names {
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.utf8.contains(0),
                name.utf8.count <= SafeFileName.maximumBytes
            else {
                throw FileAccessError(
                    kind: .system, path: directory + "/" + name, action: "cannot write",
                    reason: "not a file name of one component of at most \(SafeFileName.maximumBytes) bytes")
            }
            guard seen.insert(Array(name.utf8)).inserted else {
                throw FileAccessError(
                    kind: .system, path: directory + "/" + name, action: "cannot write",
                    reason: "the name is given twice")
            }
        }
        var existing = stat()
        let exists = stat(directory, &existing) == 0
        if exists, UInt32(existing.st_mode) & FileType.mask != FileType.directory {
            let what = FileType.describe(UInt32(existing.st_mode))
            throw FileAccessError(
                kind: .notRegularFile(what: what), path: directory, action: "cannot write into it",
                reason: "it is \(what)")
        }
        let (parent, folderName) = split(directory)
        if !exists { try Directories.create(parent) }
        let staging = try makeStagingFolder(in: parent, for: folderName, path: directory)
        var staged: [String] = []
        func discard() {
            for name in staged { unlink(staging + "/" + name) }
            rmdir(staging)
        }
        for (index, name) in names.enumerated() {
            do {
                try write(contents(index), to: staging + "/" + name, options: options)
            } catch {
                discard()
                throw FileAccessError(
                    kind: error.kind, path: directory + "/" + name, action: error.action, reason: error.reason,
                    errno: error.errno)
            }
            staged.append(name)
        }
        if !exists {
            if rename(staging, directory) != 0 {
                let code = errno
                discard()
                throw .system(directory, "cannot rename the staging folder into place", code: code)
            }
            syncDirectory(parent)
            return
        }
        let aside: String
        do {
            aside = try makeStagingFolder(in: parent, for: folderName, path: directory)
        } catch {
            discard()
            throw error
        }
        var movedAside: [String] = []
        defer {
            for name in movedAside { unlink(aside + "/" + name) }
            rmdir(aside)
        }
        do {
            try moveIntoPlace(
                names, from: staging, aside: aside, into: directory, options: options, movedAside: &movedAside)
        } catch {
            discard()
            throw error
        }
        discard()
        syncDirectory(directory)
    }

    /// Renames each staged file over its destination in `directory` (an existing one moved aside
    /// into the folder `aside` first, as `<n>`); on a failure, undoes the renames done.
    private static func moveIntoPlace(
        _ names: [String], from staging: String, aside: String, into directory: String, options: Options,
        movedAside: inout [String]
    ) throws(FileAccessError) {
        var done: [(target: String, backup: String?)] = []
        func undo() {
            for (target, backup) in done.reversed() {
                if let backup { rename(backup, target) } else { unlink(target) }
            }
        }
        for (index, name) in names.enumerated() {
            let path = directory + "/" + name
            let destination: (path: String, status: stat?)
            do {
                destination = try resolve(path)
            } catch {
                undo()
                throw error
            }
            let source = staging + "/" + name
            var backup: String?
            if let status = destination.status {
                if options.fixedMode == nil { chmod(source, mode_t(UInt32(status.st_mode) & 0o7777)) }
                let kept = aside + "/\(index)"
                guard rename(destination.path, kept) == 0 else {
                    let code = errno
                    undo()
                    throw .system(path, "cannot move the file there aside", code: code)
                }
                movedAside.append("\(index)")
                backup = kept
            }
            guard rename(source, destination.path) == 0 else {
                let code = errno
                if let backup { rename(backup, destination.path) }
                undo()
                throw .system(path, "cannot rename the staged file into place", code: code)
            }
            done.append((destination.path, backup))
        }
    }

    /// A new, empty folder `.<name>.<random>.tmp` in `parent`.
    private static func makeStagingFolder(in parent: String, for name: String, path: String) throws(FileAccessError)
        -> String
    {
        var generator = SystemRandomNumberGenerator()
        var code: Int32 = EEXIST
        for _ in 0..<16 {
            let staging = (parent == "/" ? "" : parent) + "/" + temporaryName(for: name, generator: &generator)
            if mkdir(staging, 0o777) == 0 { return staging }
            code = errno
            if code != EEXIST && code != EINTR { break }
        }
        throw .system(path, "cannot create a staging folder in \(parent)", code: code)
    }

    /// Flushes a folder's entries to disk (best effort, as after `write`'s rename).
    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
