import Foundation
import MindPadStorage
import Synchronization
import Testing

/// Group commit: results handed over while an fsync runs share the next one,
/// each caller is told when its group is formed (before the write: the
/// database write starts then) and hears back only once its result is on disk.
@Suite struct JournalWriterTests {
    func record(_ i: Int) -> GameResultRecord {
        GameResultRecord(playerID: 1, mode: "normal", score: i, correct: 1, answered: 1, durationMs: 10,
                         finishedAtMs: 1000 + Int64(i))
    }

    @Test func resultsHandedOverDuringACommitShareTheNextOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("jw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try ResultJournal(directory: dir)
        // The first commit is held on the writer's thread until 50 more
        // results are waiting: they must all go in the second.
        let commits = Mutex<[Int]>([])
        let firstCommitted = DispatchSemaphore(value: 0)
        let mayGoOn = DispatchSemaphore(value: 0)
        // Each group's `writing` calls, then its answers, each inside one
        // `answerGroup` (the batch writer's `together`).
        let inGroup = Atomic<Bool>(false)
        let groupCalls = Atomic<Int>(0)
        let beforeWrites = Mutex<[Int]>([])
        let writer = JournalWriter(journal: journal, answerGroup: { body in
            groupCalls.add(1, ordering: .relaxed)
            inGroup.store(true, ordering: .relaxed)
            body()
            inGroup.store(false, ordering: .relaxed)
        }, beforeWrite: { count in
            beforeWrites.withLock { $0.append(count) }
        }, onCommit: { count, _ in
            let n = commits.withLock { $0.append(count); return $0.count }
            if n == 1 {
                firstCommitted.signal()
                mayGoOn.wait()
            }
        })
        let onDisk = Mutex<[String: Bool]>([:])
        // Told `writing` in a group, before the write, and only once.
        let writing = Mutex<[String: Int]>([:])
        let done = DispatchGroup()
        func hand(_ r: GameResultRecord) {
            done.enter()
            writer.append(r, writing: {
                let grouped = inGroup.load(ordering: .relaxed)
                #expect(grouped)
                #expect(!journal.pending().contains(r))
                writing.withLock { $0[r.resultID, default: 0] += 1 }
            }) { result in
                #expect((try? result.get()) != nil)
                #expect(writing.withLock { $0[r.resultID] } == 1)
                // Only answered once a reader of the file sees it.
                let seen = journal.pending().contains(r)
                onDisk.withLock { $0[r.resultID] = seen }
                done.leave()
            }
        }
        let first = record(0)
        hand(first)
        #expect(firstCommitted.wait(timeout: .now() + 10) == .success)
        let rest = (1...50).map(record)
        rest.forEach(hand)
        mayGoOn.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(commits.withLock { $0 } == [1, 50])
        #expect(beforeWrites.withLock { $0 } == [1, 50])
        let calls = groupCalls.load(ordering: .relaxed)
        #expect(calls == 4)
        #expect(onDisk.withLock { $0.count == 51 && $0.values.allSatisfy { $0 } })

        // Done marks go through the same thread; then the file is gone.
        writer.markDone(([first] + rest).map(\.resultID))
        writer.shutdown()
        #expect(journal.pending().isEmpty)
        #expect(ResultJournalTests.size(journal.url) == 0)
        // After shutdown an append is written on the caller's thread.
        let late = DispatchSemaphore(value: 0)
        let last = record(99)
        let toldWriting = Atomic<Bool>(false)
        writer.append(last, writing: { toldWriting.store(true, ordering: .relaxed) }) { _ in late.signal() }
        #expect(late.wait(timeout: .now()) == .success)
        let told = toldWriting.load(ordering: .relaxed)
        #expect(told)
        #expect(journal.pending() == [last])
    }
}
