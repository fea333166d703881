import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An append-only file of finished results not yet known to be in
/// PostgreSQL, one JSON object per line; each append is fsynced before it
/// returns.
///
/// Every finished result is appended before the player is told the race is
/// over (see `JournalWriter`, which groups the fsyncs). Once PostgreSQL has
/// stored it, a line `{"done":"<result id>"}` is appended, without an fsync:
/// a done line lost in a crash only means the result is written again, and
/// that write is idempotent by result id. When every result in the file is
/// done the file is emptied; a file with many done lines is compacted
/// (pending entries written to a new file, fsynced, renamed over it).
///
/// A torn last line from a crash mid-append is skipped on reading, and the
/// next append starts on a fresh line. The file is read once, at first use,
/// and then followed in memory: one `ResultJournal` per file, in one process.
public final class ResultJournal: Sendable {
    public let url: URL

    private struct State {
        /// The results appended and not yet done (what the file says, kept
        /// in memory so nobody reads the file again), by result id, with
        /// their order of arrival; nil until the file was first read.
        var open: [String: (order: Int, record: GameResultRecord)]?
        var nextOrder = 0
        /// The file's size in lines.
        var lines = 0

        mutating func add(_ r: GameResultRecord) {
            guard open?[r.resultID] == nil else { return }
            open?[r.resultID] = (nextOrder, r)
            nextOrder += 1
        }

        /// Oldest first: by when the game finished, then by arrival.
        var pending: [GameResultRecord] {
            (open ?? [:]).values
                .sorted { ($0.record.finishedAtMs, $0.order) < ($1.record.finishedAtMs, $1.order) }
                .map(\.record)
        }
    }

    private let state = Mutex(State())
    /// Compact once the file holds this many lines and at most a quarter of
    /// them are still pending.
    static let compactAfterLines = 4096

    /// Opens (creating the folder if needed) `directory/results.journal`.
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent("results.journal")
    }

    /// Appends and fsyncs. Throws when the disk refuses; the caller must
    /// then keep the result some other way.
    public func append(_ records: [GameResultRecord]) throws {
        guard !records.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var bytes: [UInt8] = []
        for r in records {
            bytes += Array(try encoder.encode(r))
            bytes.append(UInt8(ascii: "\n"))
        }
        try state.withLock { state in
            loadIfNeeded(&state)
            try write(bytes, sync: true)
            for r in records { state.add(r) }
            state.lines += records.count
        }
    }

    /// Marks results as stored in PostgreSQL (no fsync, see above). Empties
    /// the file once nothing in it is pending, compacts it when it is mostly
    /// done lines.
    public func markDone(_ resultIDs: Set<String>) throws {
        guard !resultIDs.isEmpty else { return }
        try state.withLock { state in
            loadIfNeeded(&state)
            let known = resultIDs.filter { state.open?[$0] != nil }
            guard !known.isEmpty else { return }
            for id in known { state.open?[id] = nil }
            if state.open?.isEmpty == true {
                // Emptied, not deleted: the next append needs no fsync of
                // the folder. A crash before the truncation is on disk only
                // means those results are written again.
                if truncate(url.path, 0) != 0 && errno != ENOENT {
                    throw JournalError("cannot empty \(url.path): errno \(errno)")
                }
                state.lines = 0
                return
            }
            var bytes: [UInt8] = []
            for id in known.sorted() { bytes += Array("{\"done\":\"\(id)\"}\n".utf8) }
            try write(bytes, sync: false)
            state.lines += known.count
            let pending = state.open?.count ?? 0
            if state.lines >= Self.compactAfterLines && pending * 4 <= state.lines {
                try compact(&state)
            }
        }
    }

    /// Every complete entry not marked done, oldest first (by finishing
    /// time), one per result
    /// id. The file is read once, at the first use; after that this is
    /// memory only.
    public func pending() -> [GameResultRecord] {
        state.withLock { state in
            loadIfNeeded(&state)
            return state.pending
        }
    }

    /// How many results are pending (for `/metrics`), without reading the file.
    public var backlog: Int {
        state.withLock { state in
            loadIfNeeded(&state)
            return state.open?.count ?? 0
        }
    }

    private func loadIfNeeded(_ state: inout State) {
        guard state.open == nil else { return }
        let (records, lines) = Self.readWithCount(url)
        state.open = [:]
        for r in records { state.add(r) }
        state.lines = lines
    }

    /// Rewrites the file with only its pending entries.
    private func compact(_ state: inout State) throws {
        let keep = state.pending
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
        let ok = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) == $0.count } && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary.path, url.path) == 0 else { throw JournalError("cannot rewrite \(url.path)") }
        syncDirectory()
        state.lines = keep.count
    }

    /// Appends `bytes` on a fresh line; fsyncs when `sync` (and the folder
    /// too, when the file is new).
    private func write(_ bytes: [UInt8], sync: Bool) throws {
        let existed = access(url.path, F_OK) == 0
        let fd = open(url.path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw JournalError("cannot open \(url.path): errno \(errno)") }
        defer { close(fd) }
        var bytes = bytes
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
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw JournalError("cannot write \(url.path): errno \(errno)") }
            offset += n
        }
        guard sync else { return }
        guard fsync(fd) == 0 else { throw JournalError("cannot fsync \(url.path): errno \(errno)") }
        if !existed { syncDirectory() }
    }

    private struct Done: Decodable { let done: String }

    static func read(_ url: URL) -> [GameResultRecord] { readWithCount(url).records }

    /// The pending entries and the number of lines in the file.
    static func readWithCount(_ url: URL) -> (records: [GameResultRecord], lines: Int) {
        guard let data = FileManager.default.contents(atPath: url.path) else { return ([], 0) }
        let decoder = JSONDecoder()
        var entries: [String: GameResultRecord] = [:]
        var order: [String] = []
        var lines = 0
        for line in data.split(separator: UInt8(ascii: "\n")) {
            lines += 1
            if let r = try? decoder.decode(GameResultRecord.self, from: Data(line)) {
                // The first copy of a result counts; one written again after
                // its done line is pending again.
                if entries[r.resultID] == nil {
                    entries[r.resultID] = r
                    order.append(r.resultID)
                }
            } else if let done = try? decoder.decode(Done.self, from: Data(line)) {
                entries[done.done] = nil
            }
        }
        var seen = Set<String>()
        return (order.compactMap { id in seen.insert(id).inserted ? entries[id] : nil }, lines)
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
