import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An append-only file of results that could not reach PostgreSQL yet, one
/// JSON object per line, each append fsynced before it is acknowledged.
///
/// Entries are removed only after they were written to the database (the
/// write is idempotent by result id, so a crash between the two is safe).
/// A torn last line from a crash mid-append is skipped on reading.
public final class ResultJournal: @unchecked Sendable {
    public let url: URL
    private let lock = NSLock()

    /// Opens (creating the folder if needed) `directory/results.journal`.
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent("results.journal")
    }

    /// Appends and fsyncs. Throws when the disk refuses; the caller must
    /// then keep the result some other way (it has nowhere else: log loudly).
    public func append(_ records: [GameResultRecord]) throws {
        guard !records.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var bytes: [UInt8] = []
        for r in records {
            bytes += Array(try encoder.encode(r))
            bytes.append(UInt8(ascii: "\n"))
        }
        lock.lock()
        defer { lock.unlock() }
        let existed = FileManager.default.fileExists(atPath: url.path)
        let fd = open(url.path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw JournalError("cannot open \(url.path): errno \(errno)") }
        defer { close(fd) }
        // After a crash mid-append the file may end inside a line: start on
        // a fresh line so the torn entry cannot swallow this one.
        let size = lseek(fd, 0, SEEK_END)
        if size > 0 {
            var last: UInt8 = 0
            if pread(fd, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") {
                bytes.insert(UInt8(ascii: "\n"), at: 0)
            }
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw JournalError("cannot write \(url.path): errno \(errno)") }
            offset += n
        }
        guard fsync(fd) == 0 else { throw JournalError("cannot fsync \(url.path): errno \(errno)") }
        if !existed { syncDirectory() }
    }

    public func append(_ record: GameResultRecord) throws { try append([record]) }

    /// Every complete entry, oldest first, one per result id.
    public func pending() -> [GameResultRecord] {
        lock.lock()
        defer { lock.unlock() }
        return readLocked()
    }

    /// Removes the entries with these ids (atomically: a new file renamed
    /// over the old one).
    public func remove(resultIDs: Set<String>) throws {
        guard !resultIDs.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        let keep = readLocked().filter { !resultIDs.contains($0.resultID) }
        if keep.isEmpty {
            try? FileManager.default.removeItem(at: url)
            syncDirectory()
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var data = Data()
        for r in keep {
            data += try encoder.encode(r)
            data.append(UInt8(ascii: "\n"))
        }
        let temporary = url.appendingPathExtension("tmp")
        let fd = open(temporary.path, O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw JournalError("cannot open \(temporary.path): errno \(errno)") }
        let ok = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) == $0.count } && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary.path, url.path) == 0 else { throw JournalError("cannot rewrite \(url.path)") }
        syncDirectory()
    }

    private func readLocked() -> [GameResultRecord] {
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        let decoder = JSONDecoder()
        var seen = Set<String>()
        var out: [GameResultRecord] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let r = try? decoder.decode(GameResultRecord.self, from: Data(line)) else { continue }
            if seen.insert(r.resultID).inserted { out.append(r) }
        }
        return out
    }

    private func syncDirectory() {
        let fd = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }
}

public struct JournalError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
