import Foundation
import MindPadStorage
import Testing

@Suite struct ResultJournalTests {
    func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The file's size; 0 when it is missing.
    static func size(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    func record(_ i: Int) -> GameResultRecord {
        GameResultRecord(resultID: "00000000-0000-0000-0000-\(String(format: "%012d", i))", playerID: 1, mode: "normal",
                         score: i, correct: 1, answered: 1, durationMs: 10, finishedAtMs: 1000 + Int64(i))
    }

    @Test func appendsSurviveReopeningAndRemovalIsSelective() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try ResultJournal(directory: dir)
        try journal.append([record(1), record(2)])
        try journal.append([record(3)])
        let reopened = try ResultJournal(directory: dir)
        #expect(reopened.pending() == [record(1), record(2), record(3)])
        try reopened.markDone( [record(2).resultID])
        #expect(try ResultJournal(directory: dir).pending() == [record(1), record(3)])
        try reopened.markDone( [record(1).resultID, record(3).resultID])
        #expect(reopened.pending().isEmpty)
        #expect(Self.size(reopened.url) == 0)
    }

    @Test func aTornLastLineAndDuplicatesAreTolerated() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try ResultJournal(directory: dir)
        try journal.append([record(1), record(1), record(2)])
        // A crash in the middle of an append leaves half a line.
        let handle = try FileHandle(forWritingTo: journal.url)
        handle.seekToEndOfFile()
        handle.write(Data(#"{"resultID":"half"#.utf8))
        try handle.close()
        #expect(journal.pending() == [record(1), record(2)])
        try journal.append([record(3)])
        #expect(journal.pending().map(\.score) == [1, 2, 3])
    }

    @Test func theFileIsPrivate() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try ResultJournal(directory: dir)
        try journal.append([record(1)])
        let mode = try FileManager.default.attributesOfItem(atPath: journal.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// Done marks cost no rewrite: they are lines of their own, honoured by
    /// every reader; a journal that is mostly done marks is compacted.
    @Test func doneMarksAreAppendedAndAMostlyDoneFileIsCompacted() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try ResultJournal(directory: dir)
        try journal.append([record(1), record(2), record(3)])
        try journal.markDone([record(2).resultID, "not-in-the-journal"])
        let text = try String(contentsOf: journal.url, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 4)
        #expect(text.hasSuffix("{\"done\":\"\(record(2).resultID)\"}\n"))
        #expect(try ResultJournal(directory: dir).pending() == [record(1), record(3)])
        // A result journaled again after its done mark is pending again.
        try journal.append([record(2)])
        #expect(journal.pending() == [record(1), record(2), record(3)])

        // Thousands of results through: the file keeps only what is pending.
        let many = (100..<4200).map(record)
        try journal.append(many)
        try journal.markDone(Set(many.dropLast(5).map(\.resultID)))
        let lines = try String(contentsOf: journal.url, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 8, "not compacted: \(lines.count) lines")
        #expect(journal.pending() == [record(1), record(2), record(3)] + many.suffix(5))
    }
}
