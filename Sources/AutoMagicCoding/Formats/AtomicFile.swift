import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files that are replaced whole or not at all.
///
/// The bytes go to a temporary file in the target's folder, are flushed to disk, and only then
/// renamed over the target: a failed write (a full disk, a file-size limit) or a process killed
/// mid-write leaves the previous file byte for byte. On Linux the temporary file has no name
/// until the bytes are all on disk (`O_TMPFILE`), so a kill leaves nothing behind; elsewhere, and
/// in the instant between naming and renaming, a leftover `.NAME.amc-PID-N.tmp` of a process
/// that no longer runs is removed by the next write to the same file.
enum AtomicFile {
    /// Writes `bytes` to `url`, atomically.
    static func write(_ bytes: [UInt8], to url: URL) throws {
        try write(to: url) { drain in drain.write(bytes) }
    }

    /// Writes to `url` what `produce` passes to the drain it is given (the temporary file),
    /// atomically: nothing replaces the file unless `produce` returns and every byte is on disk.
    static func write(to url: URL, _ produce: (ByteDrain) throws -> Void) throws {
        guard let url = followingLinks(url) else {
            errno = ELOOP  // the reason failure(_:_:) gives
            throw failure(url.path, "cannot follow its symbolic links")
        }
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent).amc-"
        removeLeftovers(in: folder, prefix: prefix)
        let temporary = "\(folder)/\(prefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        var mode: mode_t = 0o666
        var status = stat()
        if stat(path, &status) == 0 { mode = status.st_mode & 0o7777 }

        var named = false
        var descriptor = openUnnamed(in: folder, mode: mode)
        if descriptor < 0 {
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard descriptor >= 0 else { throw failure(path, "cannot create a temporary file in \(folder)") }
            named = true
        }
        do {
            defer { close(descriptor) }
            let drain = ByteDrain(descriptor: descriptor, path: path)
            try produce(drain)
            try drain.check()
            if status.st_mode != 0 { fchmod(descriptor, mode) }  // keep the permissions of the file replaced
            guard fsync(descriptor) == 0 else { throw failure(path, "cannot flush to disk") }
            if !named {
                guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 else {
                    throw failure(path, "cannot name the temporary file")
                }
                named = true
            }
            guard rename(temporary, path) == 0 else { throw failure(path, "cannot replace the file") }
        } catch {
            if named { unlink(temporary) }
            throw error
        }
        let folderDescriptor = open(folder, O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)  // make the rename itself durable
            close(folderDescriptor)
        }
    }

    /// The file a symbolic link at `url` leads to, through a chain of them: the file a write
    /// replaces, so that the link stays a link, as writing through it in place would leave it.
    /// `url` itself when it is no link; nil for a loop or a chain of more than 40 (the system's
    /// limit). A `..` in a link is left for the system to resolve on the real folders.
    static func followingLinks(_ url: URL) -> URL? {
        var current = url
        for _ in 0...40 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else { return current }
            current =
                target.hasPrefix("/")
                ? URL(fileURLWithPath: target) : current.deletingLastPathComponent().appendingPathComponent(target)
        }
        return nil
    }

    /// The whole file.
    static func read(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "cannot be read" : "no such file"
            throw AMCError(.fileSystem(path: url.path, reason: reason))
        }
    }

    // MARK: - Private

    /// A file in `folder` with no name yet, where the system has them (Linux's `O_TMPFILE`); -1
    /// elsewhere or when the file system refuses.
    private static func openUnnamed(in folder: String, mode: mode_t) -> Int32 {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            let temporaryFile: Int32 = 0o2000_0000 | O_DIRECTORY  // O_TMPFILE, which Glibc's module map leaves out
            return open(folder, temporaryFile | O_WRONLY | O_CLOEXEC, mode)
        #else
            return -1
        #endif
    }

    /// Removes temporary files of earlier writes to the same target whose process has ended.
    private static func removeLeftovers(in folder: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let pid = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(pid), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink("\(folder)/\(name)")
        }
    }

    /// An error about the file at `path`: `what` failed, for the reason `errno` gives.
    static func failure(_ path: String, _ what: String) -> AMCError {
        let reason = String(cString: strerror(errno))
        return AMCError(.fileSystem(path: path, reason: "\(what): \(reason)"))
    }
}
